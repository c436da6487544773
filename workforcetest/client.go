package workforcetest

import (
	"time"

	workforce "github.com/workforce-marketplace/workforce-go"
)

// Client answers an SDK client for the Private Pool keys, pointed at the fake. It retries as the
// SDK does, but waits milliseconds instead of seconds between attempts: from 1 to 50 ms, and a
// millisecond for each second of Retry-After, so that injected faults cost a test no real time.
// opts are applied after those and after workforce.WithBaseURL(s.URL), so a test may set its own
// (an HTTP client, a retry policy).
func (s *Server) Client(opts ...workforce.Option) (*workforce.Client, error) {
	return s.newClient(s.Private, opts)
}

// PublicClient answers an SDK client for the Public Pool keys, pointed at the fake.
func (s *Server) PublicClient(opts ...workforce.Option) (*workforce.Client, error) {
	return s.newClient(s.Public, opts)
}

// newClient builds an SDK client for keys.
func (s *Server) newClient(keys KeyPair, opts []workforce.Option) (*workforce.Client, error) {
	all := append([]workforce.Option{workforce.WithBaseURL(s.URL),
		workforce.WithRetry(3, time.Millisecond, 50*time.Millisecond),
		workforce.WithRetryAfterUnit(time.Millisecond)}, opts...)
	return workforce.New(keys.APIKey, keys.SecretKey, all...)
}
