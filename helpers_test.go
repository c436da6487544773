package workforce_test

import (
	"encoding/json"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// Made-up keys of the right shape; nothing real.
const (
	testAPIKey    = "pk_test_4eC39HqLyjWDarjtT1zdp7dc"
	testSecretKey = "sk_test_BQokikJOvBiI2HlWgH4olfQ2"
	testToken     = "tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	mockBase      = "https://api.workforce.test"
)

// mockAPI is an httpmock transport under a client, with /authenticate
// answering testToken and counting its calls.
type mockAPI struct {
	*httpmock.MockTransport
	auths atomic.Int64
}

// newMock returns a client whose requests go to a fresh mock transport.
// Retries wait no more than a millisecond.
func newMock(t *testing.T, opts ...workforce.Option) (*workforce.Client, *mockAPI) {
	t.Helper()
	m := &mockAPI{MockTransport: httpmock.NewMockTransport()}
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", func(req *http.Request) (*http.Response, error) {
		m.auths.Add(1)
		return httpmock.NewJsonResponse(200, map[string]any{
			"token": testToken, "expires_at": time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339),
		})
	})
	base := []workforce.Option{
		workforce.WithBaseURL(mockBase),
		workforce.WithHTTPClient(&http.Client{Transport: m}),
		workforce.WithRetry(3, time.Millisecond, time.Millisecond),
	}
	c, err := workforce.New(testAPIKey, testSecretKey, append(base, opts...)...)
	require.NoError(t, err)
	return c, m
}

// capture records the last request a responder saw, body included.
type capture struct {
	req  *http.Request
	body []byte
}

// respond returns a responder that records the request in c and answers
// status with body.
func (c *capture) respond(status int, body string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		c.req = req
		if req.Body != nil {
			c.body, _ = io.ReadAll(req.Body)
		}
		resp := httpmock.NewStringResponse(status, body)
		resp.Header.Set("Content-Type", "application/json")
		return resp, nil
	}
}

// jsonBody decodes the captured body.
func (c *capture) jsonBody(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(c.body, &m), "body: %s", c.body)
	return m
}

// assertKept checks that the document raw holds the field name as the
// JSON text want: a field the SDK does not model stays reachable.
func assertKept(t *testing.T, raw json.RawMessage, name, want string) {
	t.Helper()
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &doc))
	assert.JSONEq(t, want, string(doc[name]), "an unmodelled field stays reachable")
}
