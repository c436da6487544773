package redact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestString(t *testing.T) {
	t.Parallel()
	r := &Redactor{Secrets: func() []string { return []string{"tok_abc123", "", "hunter2"} }}
	tests := []struct{ name, in, want string }{
		{"known value", "token tok_abc123 refused", "token [REDACTED] refused"},
		{"known value twice", "tok_abc123/tok_abc123", "[REDACTED]/[REDACTED]"},
		{"another known value", "password hunter2", "password [REDACTED]"},
		{"nothing secret", "GET /api_v2/jobs/42: 404", "GET /api_v2/jobs/42: 404"},
		{"test publishable key", "key pk_test_4eC39HqLyjWDarjtT1zdp7dc.", "key [REDACTED]."},
		{"live secret key", "sk_live_made-up_key leaked", "[REDACTED] leaked"},
		{"key in JSON string", `"k":"sk_test_abc"`, `"k":"[REDACTED]"`},
		{"other prefix is not a key", "pk_prod_abc", "pk_prod_abc"},
		{"token in a URL", "https://h/api_v2/jobs?page=2&token=zzz999&per=5", "https://h/api_v2/jobs?page=2&token=[REDACTED]&per=5"},
		{"token first in a query", "/x?token=zzz999", "/x?token=[REDACTED]"},
		{"token in a form body", "api_key=a&token=zzz999", "api_key=a&token=[REDACTED]"},
		{"token in JSON", `{"token":"zzz999","expires_at":"x"}`, `{"token":"[REDACTED]","expires_at":"x"}`},
		{"token in spaced JSON", `{"token": "zzz999"}`, `{"token": "[REDACTED]"}`},
		{"keys in JSON", `{"api_key": "a1", "secret_key":"b2"}`, `{"api_key": "[REDACTED]", "secret_key":"[REDACTED]"}`},
		{"empty JSON token", `{"token":""}`, `{"token":"[REDACTED]"}`},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, r.String(tt.in))
		})
	}
}

func TestStringWithoutKnownSecrets(t *testing.T) {
	t.Parallel()
	var zero Redactor
	var nilRedactor *Redactor
	for _, r := range []*Redactor{&zero, nilRedactor} {
		assert.Equal(t, "a [REDACTED] b", r.String("a pk_live_xyz b"))
		assert.Equal(t, "plain", r.String("plain"))
	}
}

func TestSecretsAreAskedEachTime(t *testing.T) {
	t.Parallel()
	var current atomic.Value
	current.Store("tok-old")
	r := &Redactor{Secrets: func() []string { return []string{current.Load().(string)} }}
	assert.Equal(t, "[REDACTED]", r.String("tok-old"))
	current.Store("tok-new")
	assert.Equal(t, "[REDACTED] tok-old", r.String("tok-new tok-old"), "the renewed token is hidden")
}

// secretive is a value whose printed form holds a secret.
type secretive struct{ Token string }

type valuer struct{}

func (valuer) LogValue() slog.Value {
	return slog.GroupValue(slog.String("token", "tok_abc123"), slog.Int("n", 3))
}

func TestHandler(t *testing.T) {
	t.Parallel()
	r := &Redactor{Secrets: func() []string { return []string{"tok_abc123"} }}
	var buf bytes.Buffer
	logger := slog.New(r.Handler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))

	logger.With("bound", "tok_abc123", slog.Group("g0", "k", "sk_test_zzz")).
		WithGroup("call").
		Debug("sending tok_abc123",
			"url", "https://h/x?token=qqq777",
			slog.Group("auth", slog.String("key", "pk_test_zzz"), slog.Group("inner", "tok", "tok_abc123")),
			"err", errors.New("refused tok_abc123"),
			"value", secretive{Token: "tok_abc123"},
			"valuer", valuer{},
			"status", 401,
		)
	out := buf.String()
	for _, secret := range []string{"tok_abc123", "sk_test_zzz", "pk_test_zzz", "qqq777"} {
		assert.NotContains(t, out, secret)
	}
	for _, kept := range []string{"msg=\"sending [REDACTED]\"", "bound=[REDACTED]", "g0.k=[REDACTED]",
		`call.url="https://h/x?token=[REDACTED]"`, "call.auth.inner.tok=[REDACTED]", "call.status=401", "call.valuer.n=3"} {
		assert.Contains(t, out, kept)
	}
	assert.Equal(t, 1, strings.Count(out, "\n"), "one record")
}

func TestHandlerEnabledFollowsTheWrappedHandler(t *testing.T) {
	t.Parallel()
	h := (&Redactor{}).Handler(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	assert.False(t, h.Enabled(context.Background(), slog.LevelInfo))
	assert.True(t, h.Enabled(context.Background(), slog.LevelError))
}

func TestErrorMasksAndKeepsACleanCause(t *testing.T) {
	t.Parallel()
	r := &Redactor{Secrets: func() []string { return []string{"a+b/c=="} }}
	cause := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	err := fmt.Errorf("get https://h/jobs?token=%s: %w", url.QueryEscape("a+b/c=="), cause)

	masked := r.Error(err)
	assert.NotContains(t, masked.Error(), "a%2Bb%2Fc%3D%3D", "the escaped form is masked too")
	assert.Contains(t, masked.Error(), "connection refused")
	var op *net.OpError
	require.ErrorAs(t, masked, &op, "the cause can still be told")
	assert.Equal(t, "dial", op.Op)

	clean := errors.New("no secret here")
	assert.Same(t, clean, r.Error(clean), "an error without a secret is returned as it is")
	assert.NoError(t, r.Error(nil))
}
