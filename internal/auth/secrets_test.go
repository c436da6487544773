package auth

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecretsKeepEveryTokenThatMayBeValid checks that a token replaced by
// a renewal, an explicit Set or a rejection stays among Secrets until an
// hour past its expiry, and no longer.
func TestSecretsKeepEveryTokenThatMayBeValid(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	n := 0
	src := NewSource(func(context.Context) (Token, error) {
		n++
		return Token{Value: fmt.Sprintf("tok-%d", n), ExpiresAt: now.Add(24 * time.Hour)}, nil
	})
	src.SetClock(func() time.Time { return now })
	ctx := context.Background()

	first, _ := src.Token(ctx)
	src.Set(Token{Value: "tok-set", ExpiresAt: now.Add(24 * time.Hour)})
	assert.ElementsMatch(t, []string{"tok-set", first}, src.Secrets(), "replaced by an explicit authentication")

	src.Invalidate("tok-set") // a 401, perhaps spurious
	second, _ := src.Token(ctx)
	assert.ElementsMatch(t, []string{second, "tok-set", first}, src.Secrets(), "rejected")

	now = now.Add(24*time.Hour - 4*time.Minute) // the timed renewal
	third, _ := src.Token(ctx)
	assert.NotEqual(t, second, third)
	assert.ElementsMatch(t, []string{third, second, "tok-set", first}, src.Secrets())

	now = now.Add(time.Hour) // 56 minutes past the first three's expiry
	assert.ElementsMatch(t, []string{third, second, "tok-set", first}, src.Secrets(), "an hour's grace for a clock ahead")
	now = now.Add(time.Hour)
	assert.Equal(t, []string{third}, src.Secrets(), "expired: forgotten")
}

// TestRetiredTokensAreKeptUntilTheyExpire replaces the token many times:
// every token replaced stays among Secrets, however many there are, until
// it may no longer be valid.
func TestRetiredTokensAreKeptUntilTheyExpire(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	src := NewSource(func(context.Context) (Token, error) { return Token{}, nil })
	src.SetClock(func() time.Time { return now })
	for i := range 300 {
		src.Set(Token{Value: fmt.Sprintf("tok-%d", i)}) // no known expiry: a day
	}
	assert.Len(t, src.Secrets(), 300)
	assert.Contains(t, src.Secrets(), "tok-0", "the first is kept until it may have expired")
	now = now.Add(tokenLife + skewGrace)
	assert.Equal(t, []string{"tok-299"}, src.Secrets())
}

// TestRenewalsOn401AreLimited rejects token after token: a token never
// accepted is renewed at once twice in a row, then after a wait that
// doubles; one accepted before it was rejected is renewed at once, and
// resets the wait.
func TestRenewalsOn401AreLimited(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	n := 0
	src := NewSource(func(context.Context) (Token, error) {
		n++
		return Token{Value: fmt.Sprintf("tok-%d", n), ExpiresAt: now.Add(24 * time.Hour)}, nil
	})
	src.SetClock(func() time.Time { return now })
	ctx := context.Background()
	reject := func() bool {
		tok, err := src.Token(ctx)
		require.NoError(t, err)
		return src.Invalidate(tok)
	}
	assert.True(t, reject(), "the first rejection renews")
	assert.True(t, reject(), "and the second")
	assert.False(t, reject(), "the third waits a second")
	assert.Equal(t, 3, n, "no fetch while it waits")
	now = now.Add(time.Second)
	assert.True(t, reject())
	now = now.Add(time.Second)
	assert.False(t, reject(), "then two seconds")
	now = now.Add(time.Second)
	assert.True(t, reject())
	for range 20 { // a server that rejects every token: at most one fetch every five minutes
		now = now.Add(maxRenewWait)
		assert.True(t, reject())
		assert.False(t, reject())
	}

	tok, err := src.Token(ctx)
	require.NoError(t, err)
	src.Accepted(tok)
	assert.True(t, src.Invalidate(tok), "an accepted token rejected is renewed at once")
	assert.True(t, reject(), "and the wait starts over")
	assert.Len(t, src.Secrets(), n, "every token rejected is kept")
}

// TestAcceptedTokensAreRenewedUpToABound has a server accept each token
// once, then reject it: renewals stop when maxHeld tokens are held.
func TestAcceptedTokensAreRenewedUpToABound(t *testing.T) {
	t.Parallel()
	n := 0
	src := NewSource(func(context.Context) (Token, error) {
		n++
		return Token{Value: fmt.Sprintf("tok-%d", n)}, nil
	})
	ctx := context.Background()
	for {
		tok, err := src.Token(ctx)
		require.NoError(t, err)
		src.Accepted(tok)
		if !src.Invalidate(tok) {
			break
		}
		require.Less(t, n, 2*maxHeld, "renewals must stop")
	}
	assert.Equal(t, maxHeld+1, n)
	assert.Len(t, src.Secrets(), maxHeld+1, "every token fetched is still hidden")
}
