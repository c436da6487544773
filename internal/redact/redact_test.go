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

func TestStringHidesEscapedForms(t *testing.T) {
	t.Parallel()
	const tok = "dG9rZW4+/w=="
	const key = "sk_test_ab/cd"
	r := &Redactor{Secrets: func() []string { return []string{tok, key, "tok_ü€"} }}
	tests := []struct{ name, in string }{
		{"JSON-escaped slash", `{"error":"token dG9rZW4+\/w== may not list jobs"}`},
		{"unicode escape of one letter", `{"error":"\u0073k_test_ab/cd"}`},
		{"unicode escape in upper case", `{"error":"sk\u005Ftest_ab\/cd"}`},
		{"escaped slash inside a key", `{"error":"sk_test_ab\/cd is wrong"}`},
		{"query escape", "token=" + url.QueryEscape(tok)},
		{"path escape", "/api_v2/jobs/" + url.PathEscape(tok)},
		{"lower-case percent escapes", "dG9rZW4%2b%2fw%3d%3d"},
		{"every character escaped", `\u0064\u0047\u0039\u0072\u005a\u0057\u0034\u002b\u002f\u0077\u003d\u003d`},
		{"non-ASCII secret", "got tok_ü€ back"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := r.String(tt.in)
			assert.Contains(t, out, Mask)
			for _, leak := range []string{"dG9rZW4", "ab/cd", `ab\/cd`, "cd is", "w==", "%3D%3D", "ü€", "_ab"} {
				assert.NotContains(t, out, leak)
			}
		})
	}
}

func TestStringHidesUnknownKeysInEscapedJSONStrings(t *testing.T) {
	t.Parallel()
	var r Redactor
	out := r.String(`{"error":"\u0073k_live_zzzYYY is not yours", "n": "a\"b"}`)
	assert.NotContains(t, out, "zzzYYY")
	assert.Contains(t, out, `"n": "a\"b"`, "literals without secrets are left as they were")
	assert.NotPanics(t, func() { r.String(`"\"unterminated \u0073k_test_q \`) }, "broken JSON")
}

func TestStringWithInvalidUTF8Secret(t *testing.T) {
	t.Parallel()
	r := &Redactor{Secrets: func() []string { return []string{"tok\xff\xfeend"} }}
	assert.Equal(t, "a [REDACTED] b", r.String("a tok\xff\xfeend b"))
}

func TestStringHidesNonASCIISecretsInEveryForm(t *testing.T) {
	t.Parallel()
	r := &Redactor{Secrets: func() []string { return []string{"tok_ü€", "tok_é9", "a b", "x😀y"} }}
	for _, in := range []string{
		"/x/tok_%C3%BC%E2%82%AC", "/x/tok_%c3%bc%e2%82%ac", `{"e":"tok_\u00fc\u20ac"}`, `{"e":"tok_\u00FC\u20AC"}`,
		`{"error":"tok_\u00e99 and sk_live_zz"}`, "q=a+b", "q=a%20b", `{"e":"x\ud83d\ude00y"}`, "x%F0%9F%98%80y",
	} {
		out := r.String(in)
		for _, leak := range []string{"ü", "€", "é", "C3", "c3", "00fc", "00FC", "a+b", "a%20b", "😀", "ude00", "98%80", "00e9"} {
			assert.NotContains(t, out, leak, in)
		}
		assert.Contains(t, out, Mask, in)
	}
}

func TestSecretSetsDoNotShareACacheEntry(t *testing.T) {
	t.Parallel()
	var current atomic.Value
	current.Store([]string{"abc\x00def"})
	r := &Redactor{Secrets: func() []string { return current.Load().([]string) }}
	r.String(`abc%00def`)
	current.Store([]string{"abc", "def"})
	assert.Equal(t, "token [REDACTED] and %[REDACTED]", r.String("token ab%63 and %def"))
}

// TestHugeSecretsAreHidden hands the redactor a token of 100 KB, as a
// hostile server could: it is still hidden, plain and escaped.
// BenchmarkHugeSecret measures that its cost stays linear.
func TestHugeSecretsAreHidden(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("ab3", 100<<10/3)
	r := &Redactor{Secrets: func() []string { return []string{huge, huge, "tok_small"} }}
	out := r.String(hugeText(huge))
	assert.NotContains(t, out, "ab3ab3")
	assert.NotContains(t, out, "%73mall")
}

// hugeText holds huge plain and query-escaped, a small secret escaped, and
// 64 KiB of other text.
func hugeText(huge string) string {
	return "got " + huge + " and " + url.QueryEscape(huge) + " and tok_%73mall " + strings.Repeat("x", 64<<10)
}

func BenchmarkHugeSecret(b *testing.B) {
	huge := strings.Repeat("ab3", 100<<10/3)
	r := &Redactor{Secrets: func() []string { return []string{huge, huge, "tok_small"} }}
	in := hugeText(huge)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r.String(in)
	}
}

// TestStringHidesStartsOfSecrets checks that text cut short by a length
// limit shows no start of a secret of MinPrefix characters or more, plain
// or escaped, while shorter starts, and a key's public prefix, stay.
func TestStringHidesStartsOfSecrets(t *testing.T) {
	t.Parallel()
	const tok = "tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0f/e"
	const key = "sk_test_BQokikJOvBiI2HlWgH4olfQ2"
	r := &Redactor{Secrets: func() []string { return []string{tok, key, "short12", "längeres-pässwort"} }}
	tests := []struct{ name, in, want string }{
		{"cut at the end", `"` + tok[:30] + `" is not a decimal`, `"[REDACTED]" is not a decimal`},
		{"eight characters", "x " + tok[:8], "x [REDACTED]"},
		{"seven characters stay", "x " + tok[:7] + " y", "x " + tok[:7] + " y"},
		{"start then other text", tok[:12] + "zz", "[REDACTED]zz"},
		{"JSON-escaped start", `"` + strings.ReplaceAll(tok[:38], "/", `\/`) + `…"`, `"[REDACTED]…"`},
		{"percent-escaped start", "/x/" + url.PathEscape(tok[:38]), "/x/[REDACTED]"},
		{"\\u-escaped start", `"\u0074ok_9f8e7d6c"`, `"[REDACTED]"`},
		{"key's public prefix stays", "keys start with sk_test_ or sk_live_", "keys start with sk_test_ or sk_live_"},
		{"key cut short", "sk_test_BQo", "[REDACTED]"},
		{"secret shorter than the minimum: only whole", "short1 short12", "short1 [REDACTED]"},
		{"multi-byte start, cut inside a character", "p: längeres-p" + "\xc3", "p: [REDACTED]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, r.String(tt.in))
		})
	}
}

// TestStartsOfLongSecretsAreHiddenInEveryForm checks that a start of a
// secret however long is hidden when the text writes it escaped, each
// character \u-escaped or percent-escaped, and cut short.
func TestStartsOfLongSecretsAreHiddenInEveryForm(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 100)
	longer := strings.Repeat("a/", 300) + "x"
	r := &Redactor{Secrets: func() []string { return []string{long, longer} }}
	var escaped strings.Builder
	for _, c := range longer {
		fmt.Fprintf(&escaped, `\u%04x`, c)
	}
	for _, in := range []string{url.QueryEscape(longer[:40]), url.QueryEscape(long), escaped.String()[:256], `"` + escaped.String()[:259]} {
		out := r.String(in)
		assert.True(t, strings.HasPrefix(out, Mask) || strings.HasPrefix(out, `"`+Mask), "%.40q: %.60q", in, out)
		assert.Less(t, len(out), len(Mask)+8, "%.40q: %.60q", in, out)
	}
}

// TestStringHidesEndsOfSecrets checks that text showing a key's or a
// token's last MinPrefix bytes or more (a server that names a token by its
// tail) hides them, plain or escaped, while a shorter end stays.
func TestStringHidesEndsOfSecrets(t *testing.T) {
	t.Parallel()
	const tok = "9f8e7d6c5b4a39281706f5e4d3c2b1a0f/e0123456789abcd"
	r := &Redactor{Secrets: func() []string { return []string{tok} }}
	tests := []struct{ name, in, want string }{
		{"last 40", "token …" + tok[8:] + " may not", "token …" + Mask + " may not"},
		{"last 8", "token …" + tok[len(tok)-8:], "token …" + Mask},
		{"last 7 stay", "token …" + tok[len(tok)-7:], "token …" + tok[len(tok)-7:]},
		{"escaped end", "…" + url.QueryEscape(tok[20:]), "…" + Mask},
		{"JSON-escaped end", `"…` + strings.ReplaceAll(tok[20:], "/", `\/`) + `"`, `"…` + Mask + `"`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, r.String(tt.in), tt.name)
	}
}

// TestWholeOnlySecretsKeepTheirWords hides a password with With: whole,
// in any form, but its start, an ordinary word, stays readable elsewhere.
func TestWholeOnlySecretsKeepTheirWords(t *testing.T) {
	t.Parallel()
	r := (&Redactor{Secrets: func() []string { return []string{"tok_9f8e7d6c5b4a39281706"} }}).With("Password2024", "a b c d e f g h")
	assert.Equal(t, "Password must hold a symbol: "+Mask, r.String("Password must hold a symbol: Password2024"))
	assert.Equal(t, Mask+" "+Mask+" "+Mask, r.String(`Password%32024 a+b+c+d+e+f+g+h \u0050assword2024`))
	assert.Equal(t, "Password202 a b c", r.String("Password202 a b c"), "no start of a password is hidden")
	assert.Equal(t, Mask, r.String("tok_9f8e7d6c"), "the client's secrets keep their starts hidden")
}

// TestPlusHidesANewSecretLikeTheOthers adds a token learnt during a call:
// it is hidden whole and by its start and end, beside the redactor's own
// secrets and its whole-only ones, and the redactor it came from does not
// learn it.
func TestPlusHidesANewSecretLikeTheOthers(t *testing.T) {
	t.Parallel()
	base := (&Redactor{Secrets: func() []string { return []string{"sk_test_k1k2k3k4k5k6k7k8"} }}).With("Password2024")
	r := base.Plus("tok_newnewnew0123456789")
	for _, in := range []string{"rid-tok_newnewnew0123456789", "tok_newnewnew…", "…0123456789", "sk_test_k1k2k3k4k5k6k7k8", "Password2024"} {
		assert.NotContains(t, r.String(in), "newnew", in)
		assert.Contains(t, r.String(in), Mask, in)
	}
	assert.Equal(t, "rid-tok_newnewnew0123456789", base.String("rid-tok_newnewnew0123456789"))
	assert.Equal(t, Mask, (*Redactor)(nil).Plus("tok_newnewnew0123456789").String("tok_newnewnew0123456789"))
}

// TestAPlusTokenReadBackWithSpacesIsHidden hides a token holding '+'
// (base64) that a form decoder echoed with spaces for its pluses (D8),
// whole and by its start.
func TestAPlusTokenReadBackWithSpacesIsHidden(t *testing.T) {
	t.Parallel()
	tok := "AbC+dEf/GhI+jKl/MnO+pQr="
	r := &Redactor{Secrets: func() []string { return []string{tok} }}
	for _, in := range []string{"token AbC dEf/GhI jKl/MnO pQr= is expired", "AbC dEf/GhI…", tok} {
		out := r.String(in)
		assert.NotContains(t, out, "dEf/GhI", in)
		assert.Contains(t, out, Mask, in)
	}
}

// TestManySecretsAreHidden gives the redactor hundreds of tokens, as a
// client that renewed many times holds: each is hidden, whole, started or
// ended, plain or escaped, and text without them is left as it is.
func TestManySecretsAreHidden(t *testing.T) {
	t.Parallel()
	tokens := manyTokens(300)
	r := &Redactor{Secrets: func() []string { return tokens }}
	for _, i := range []int{0, 7, 150, 299} {
		tok := tokens[i]
		for _, in := range []string{tok, "a " + tok[:10] + "…", "…" + tok[30:], url.QueryEscape(tok[:12]), `\u00` + fmt.Sprintf("%x", tok[0]) + tok[1:]} {
			out := r.String(in)
			assert.Contains(t, out, Mask, in)
			assert.NotContains(t, out, tok[2:10], in)
		}
	}
	assert.Equal(t, "nothing secret here, 0123456", r.String("nothing secret here, 0123456"))
	ss := []string{"x " + tokens[3], "y", tokens[299][:9]}
	r.Strings(ss)
	assert.Equal(t, []string{"x " + Mask, "y", Mask}, ss)
}

// manyTokens returns n made-up tokens of 48 hex digits.
func manyTokens(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%016x%016x%016x", uint64(i)*0x9e3779b97f4a7c15, uint64(i+1)*0xbf58476d1ce4e5b9, uint64(i+7)*0x94d049bb133111eb)
	}
	return out
}

// BenchmarkManySecrets redacts a 4 KiB error body, with an escape, among
// 300 tokens: the cost of a client that renewed its token many times.
func BenchmarkManySecrets(b *testing.B) {
	for _, n := range []int{3, 300} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tokens := manyTokens(n)
			r := &Redactor{Secrets: func() []string { return tokens }}
			in := `{"error":"bad \u0074oken ` + tokens[n-1] + `"} ` + strings.Repeat("lorem ipsum ", 4<<10/12)
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				r.String(in)
			}
		})
	}
}
