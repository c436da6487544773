package workforcetest

import (
	"time"

	workforce "github.com/workforce-marketplace/workforce-go"
)

// Client returns an SDK client for the Private Pool keys, pointed at the fake. It retries as the
// SDK does, but waits milliseconds instead of seconds between attempts: from 1 to 50 ms, and a
// millisecond for each second of Retry-After, and it settles at once (workforce.WithSettleHorizon(0):
// the fake acts on a request before it answers, so a create it dropped is over when the call is), so
// that injected faults cost a test no real time. A client of one's own pointed at the fake (built
// with workforce.New and workforce.WithBaseURL(s.URL)) should take workforce.WithSettleHorizon(0)
// too, or a Settle after a dropped create waits out workforce.DefaultSettleHorizon (2 minutes).
// opts are applied after those and after workforce.WithBaseURL(s.URL), so a test may set its own
// (an HTTP client, a retry policy, a horizon).
func (s *Server) Client(opts ...workforce.Option) (*workforce.Client, error) {
	return s.newClient(s.Private, opts)
}

// PublicClient returns an SDK client for the Public Pool keys, pointed at the fake, set as Client
// sets its own.
func (s *Server) PublicClient(opts ...workforce.Option) (*workforce.Client, error) {
	return s.newClient(s.Public, opts)
}

// newClient builds an SDK client for keys.
func (s *Server) newClient(keys KeyPair, opts []workforce.Option) (*workforce.Client, error) {
	all := append([]workforce.Option{workforce.WithBaseURL(s.URL),
		workforce.WithRetry(3, time.Millisecond, 50*time.Millisecond),
		workforce.WithRetryAfterUnit(time.Millisecond), workforce.WithSettleHorizon(0)}, opts...)
	return workforce.New(keys.APIKey, keys.SecretKey, all...)
}

// Ready is the first line cmd/workforce-fake writes to standard output, as JSON: where the fake
// listens, its two key pairs and the ids of its seeded records. A test in Go decodes the line into
// it; tests in other languages read the same JSON names.
type Ready struct {
	// BaseURL is the root the API is served under, e.g. "http://127.0.0.1:43123"; the API is
	// at BaseURL + "/api_v2".
	BaseURL string `json:"base_url"`
	// Private and Public are the Private Pool and Public Pool key pairs.
	Private KeyPair `json:"private"`
	Public  KeyPair `json:"public"`
	// Seed holds the ids of the seeded records.
	Seed Seed `json:"seed"`
}

// Ready returns the line cmd/workforce-fake announces s with.
func (s *Server) Ready() Ready {
	return Ready{BaseURL: s.URL, Private: s.Private, Public: s.Public, Seed: s.Seed()}
}
