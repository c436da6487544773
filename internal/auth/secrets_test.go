package auth

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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

func TestSecretsAreBounded(t *testing.T) {
	t.Parallel()
	src := NewSource(nil)
	src.fetch = func(context.Context) (Token, error) { return Token{}, nil }
	for i := range 2 * maxRetired {
		src.Set(Token{Value: fmt.Sprintf("tok-%d", i)}) // no known expiry: a day
	}
	got := src.Secrets()
	assert.Len(t, got, maxRetired+1)
	assert.Contains(t, got, fmt.Sprintf("tok-%d", 2*maxRetired-1))
	assert.Contains(t, got, fmt.Sprintf("tok-%d", maxRetired-1), "the most recent kept")
	assert.NotContains(t, got, "tok-0", "the oldest forgotten")
}
