package workforcetest

import workforce "github.com/workforce-marketplace/workforce-go"

// Client answers an SDK client for the Private Pool keys, pointed at the fake. opts are applied
// after workforce.WithBaseURL(s.URL), so a test may add its own (an HTTP client, a retry policy).
func (s *Server) Client(opts ...workforce.Option) (*workforce.Client, error) {
	return s.newClient(s.Private, opts)
}

// PublicClient answers an SDK client for the Public Pool keys, pointed at the fake.
func (s *Server) PublicClient(opts ...workforce.Option) (*workforce.Client, error) {
	return s.newClient(s.Public, opts)
}

// newClient builds an SDK client for keys.
func (s *Server) newClient(keys KeyPair, opts []workforce.Option) (*workforce.Client, error) {
	all := append([]workforce.Option{workforce.WithBaseURL(s.URL)}, opts...)
	return workforce.New(keys.APIKey, keys.SecretKey, all...)
}
