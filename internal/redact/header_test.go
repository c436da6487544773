package redact

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

const headerToken = "tok0123456789abcdef0123456789abcdef"

func headerRedactor() *Redactor {
	return &Redactor{Secrets: func() []string { return []string{headerToken, "pk_test_4eC39HqLyjWDarjtT1zdp7dc"} }}
}

func TestHeaderMasksEchoedSecrets(t *testing.T) {
	t.Parallel()
	h := http.Header{
		"X-Request-Id":     {"req-" + headerToken},
		"Location":         {"https://api.example.com/api_v2/jobs/1?token=" + headerToken},
		"Set-Cookie":       {"session=" + headerToken[:12] + "; Path=/", "theme=dark"},
		"X-Debug":          {`{"api_key":"pk_test_4eC39HqLyjWDarjtT1zdp7dc"}`, `"\u0074ok0123456789abcdef"`},
		"X-" + headerToken: {"1"},
		"Content-Type":     {"application/json"},
		"Etag":             {`W/"5f2b"`},
	}
	headerRedactor().Header(h)
	var all strings.Builder
	for name, vs := range h {
		all.WriteString(name + ": " + strings.Join(vs, ", ") + "\n")
	}
	assert.NotContains(t, all.String(), "tok0123456789", "no start of the token")
	assert.NotContains(t, all.String(), "4eC39HqLyjWD")
	assert.Equal(t, []string{"application/json"}, h["Content-Type"])
	assert.Equal(t, []string{`W/"5f2b"`}, h["Etag"])
	assert.Equal(t, []string{"theme=dark"}, h["Set-Cookie"][1:])
	assert.Equal(t, []string{"1"}, h["X-"+Mask])
}

// The whole-header pass finds a secret wherever String on its own line
// would: the two ways agree on headers made of secrets' pieces, escapes
// and the patterns' literals.
func TestHeaderAgreesWithStringOnEachLine(t *testing.T) {
	t.Parallel()
	pieces := []string{headerToken, headerToken[:9], "pk_test_", "4eC39HqLyjWDarjtT1zdp7dc", "sk_live_", "token=", `"token"`,
		`"api_key"`, ":", `"`, "%", "+", "\\u0074", "\\/", "&", " ", "abc", "k_test", "okay", "tok", "=", ";", "_"}
	rng := rand.New(rand.NewPCG(1, 2))
	r := headerRedactor()
	for range 5000 {
		h := http.Header{}
		for range 1 + rng.IntN(3) {
			var v strings.Builder
			for range rng.IntN(6) {
				v.WriteString(pieces[rng.IntN(len(pieces))])
			}
			h.Add("X-"+pieces[rng.IntN(len(pieces))], v.String())
		}
		want := http.Header{}
		for name, vs := range h {
			for _, v := range vs {
				want[r.String(name)] = append(want[r.String(name)], r.String(v))
			}
		}
		got := h.Clone()
		r.Header(got)
		if !assert.Equal(t, want, got, "header %q", h) {
			return
		}
	}
}

func BenchmarkHeader(b *testing.B) {
	r := headerRedactor()
	h := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Date": {"Tue, 24 Nov 2026 09:00:00 GMT"},
		"Content-Length": {"1234"}, "X-Request-Id": {"5f2b6c1e-8d3a-4f7b-9e2c-1a2b3c4d5e6f"}, "Etag": {`W/"5f2b"`}}
	b.ReportAllocs()
	for b.Loop() {
		r.Header(h)
	}
}
