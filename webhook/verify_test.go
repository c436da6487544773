package webhook_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/webhook"
)

// A made-up secret key and known answers computed outside Go:
//
//	printf '%s%s' "$body" "$key" | sha256sum
//	printf '%s%s' "$body" "$key" | openssl dgst -sha256 -binary | base64
const (
	testKey       = "sk_test_51Hfake0000000000000000"
	jobBody       = `{"job":{"id":1001,"state":"in_progress"}}`
	jobDigestHex  = "fc3878741de1a519a0047e76be1fd2224c013eb2f25986dd4e22cf35af7aba50"
	jobDigestB64  = "/Dh4dB3hpRmgBH52vh/SIkwBPrLyWYbdTiLPNa96ulA="
	jrBody        = `{"job_request":{"id":501,"state":"cancelled","request_name":"Caf\u00e9 \"night\" shift"}}`
	jrDigestHex   = "c70fd6b8daf1db02e45f4b0568909f9eac98d1a6568126713c1c83472e2ef61a"
	emptyDigestHx = "37292412d9878952569e858d040af3116ffabd40aa90802f1ecfe53b0eee9020" // empty body
)

func TestSignKnownAnswers(t *testing.T) {
	t.Parallel()
	assert.Equal(t, jobDigestHex, webhook.Sign([]byte(jobBody), testKey))
	assert.Equal(t, jrDigestHex, webhook.Sign([]byte(jrBody), testKey))
	assert.Equal(t, emptyDigestHx, webhook.Sign(nil, testKey))
}

func TestVerifyAcceptsEveryForm(t *testing.T) {
	t.Parallel()
	for name, header := range map[string]string{
		"lowercase hex":          jobDigestHex,
		"uppercase hex":          strings.ToUpper(jobDigestHex),
		"base64":                 jobDigestB64,
		"base64 without padding": strings.TrimRight(jobDigestB64, "="),
		"surrounding spaces":     "  " + jobDigestHex + " ",
	} {
		assert.NoError(t, webhook.Verify([]byte(jobBody), header, testKey), name)
	}
	assert.NoError(t, webhook.Verify([]byte(jrBody), jrDigestHex, testKey))
	assert.NoError(t, webhook.Verify(nil, emptyDigestHx, testKey))
}

func TestVerifyRefuses(t *testing.T) {
	t.Parallel()
	flipped := []byte(jobDigestHex)
	flipped[10] ^= 1 // '1' becomes '0'
	tests := []struct {
		name         string
		body, header string
		key          string
		want         error
	}{
		{"tampered body", strings.Replace(jobBody, "1001", "1002", 1), jobDigestHex, testKey, webhook.ErrMismatch},
		{"body with a trailing newline", jobBody + "\n", jobDigestHex, testKey, webhook.ErrMismatch},
		{"tampered header", jobBody, string(flipped), testKey, webhook.ErrMismatch},
		{"wrong key", jobBody, jobDigestHex, "sk_test_someoneelse", webhook.ErrMismatch},
		{"another body's digest", jobBody, jrDigestHex, testKey, webhook.ErrMismatch},
		{"truncated header", jobBody, jobDigestHex[:63], testKey, webhook.ErrMalformedSignature},
		{"too long header", jobBody, jobDigestHex + "0", testKey, webhook.ErrMalformedSignature},
		{"not hex", jobBody, strings.Repeat("g", 64), testKey, webhook.ErrMalformedSignature},
		{"base64 of something shorter", jobBody, base64.StdEncoding.EncodeToString([]byte("short")), testKey, webhook.ErrMalformedSignature},
		{"sha-1 length", jobBody, jobDigestHex[:40], testKey, webhook.ErrMalformedSignature},
		{"empty header", jobBody, "", testKey, webhook.ErrNoSignature},
		{"blank header", jobBody, "   ", testKey, webhook.ErrNoSignature},
		{"empty secret", jobBody, jobDigestHex, "", webhook.ErrNoSecret},
		{"empty secret, signed with it", jobBody, webhook.Sign([]byte(jobBody), ""), "", webhook.ErrNoSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := webhook.Verify([]byte(tt.body), tt.header, tt.key)
			require.ErrorIs(t, err, tt.want)
			for _, other := range []error{webhook.ErrMismatch, webhook.ErrMalformedSignature, webhook.ErrNoSignature, webhook.ErrNoSecret} {
				if other != tt.want {
					assert.False(t, errors.Is(err, other), "distinct from %v", other)
				}
			}
			assert.NotContains(t, err.Error(), testKey)
		})
	}
}

// TestVerifyDoesNotAllocateForTheBody verifies a 4 MiB body: the memory it
// allocates does not grow with the body.
func TestVerifyDoesNotAllocateForTheBody(t *testing.T) {
	body := []byte(strings.Repeat(`{"job":{"id":1}}`, 4<<16))
	header := webhook.Sign(body, testKey)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 10 {
		require.NoError(t, webhook.Verify(body, header, testKey))
	}
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10), "bytes allocated by 10 verifications of %d bytes", len(body))
	allocs := testing.AllocsPerRun(20, func() { _ = webhook.Verify(body, header, testKey) })
	assert.LessOrEqual(t, allocs, 4.0)
}

// FuzzVerify checks that Verify never panics, and accepts exactly the
// digest of the body and key in one of its written forms.
func FuzzVerify(f *testing.F) {
	f.Add([]byte(jobBody), jobDigestHex, testKey)
	f.Add([]byte(jobBody), jobDigestB64, testKey)
	f.Add([]byte{}, "", "")
	f.Add([]byte("x"), strings.Repeat("=", 44), "k")
	f.Fuzz(func(t *testing.T, body []byte, header, key string) {
		err := webhook.Verify(body, header, key)
		if err != nil {
			return
		}
		sum := sha256.Sum256(append(append([]byte{}, body...), key...))
		h := strings.TrimSpace(header)
		ok := strings.EqualFold(h, hex.EncodeToString(sum[:])) ||
			h == base64.StdEncoding.EncodeToString(sum[:]) || h == base64.RawStdEncoding.EncodeToString(sum[:])
		if !ok {
			t.Fatalf("accepted %q for body %q and key %q", header, body, key)
		}
	})
}
