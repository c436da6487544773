package workforce

import (
	"context"
	"testing"
)

// TestDecodeErrorRedactsBeforeItCuts checks the order: the secret in a
// quoted value is hidden first, so what the 40 characters show is the
// value around it, not a start of the secret.
func TestDecodeErrorRedactsBeforeItCuts(t *testing.T) {
	t.Parallel()
	const tok = "tok_3f9a1c7e5b2d4068a1b3c5d7e9f02468ace13579bdf0"
	c, err := New("", "", WithToken(tok), WithBaseURL("https://api.example.com"))
	if err != nil {
		t.Fatal(err)
	}
	e := decodeError(c.newCall(context.Background(), request{method: "GET", path: "jobs/1"}),
		&valueError{format: "workforce: %.40q is not a decimal number", value: "ab " + tok + " cd"})
	const want = `workforce: GET /api_v2/jobs/1: decoding the answer: workforce: "ab [REDACTED] cd" is not a decimal number`
	if got := e.Error(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
