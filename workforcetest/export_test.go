package workforcetest

import "time"

// WithTimeouts sets the server's read and write timeouts (30 s and 1 min by default), for tests
// that cannot wait that long.
func WithTimeouts(read, write time.Duration) Option {
	return func(c *config) { c.readTimeout, c.writeTimeout = read, write }
}

// Change is one state change as the commit point hands it on, for tests.
type Change struct {
	Kind  string
	ID    int64
	State string
}

// OnCommit sets the function the commit point calls after each commit with its state changes.
func (s *Server) OnCommit(fn func([]Change)) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	s.st.committed = func(changes []change) {
		out := make([]Change, len(changes))
		for i, c := range changes {
			out[i] = Change{Kind: c.kind, ID: c.id, State: c.state}
		}
		fn(out)
	}
}

// RoutePatterns returns the patterns of the route table, in its order.
func (s *Server) RoutePatterns() []string {
	var out []string
	for _, rt := range s.routes() {
		out = append(out, rt.pattern)
	}
	return out
}

// ListFilters returns the query parameters each list's filters read, by the list's path.
func (s *Server) ListFilters() map[string][]string {
	return map[string][]string{
		"/api_v2/jobs":         filterNames(jobFilters),
		"/api_v2/job_requests": filterNames(jobRequestFilters),
		"/api_v2/users":        filterNames(s.users().filters),
		"/api_v2/messages":     filterNames(s.messages().filters),
		"/api_v2/badges":       filterNames(s.badges().filters),
		"/api_v2/customers":    filterNames(s.customers().filters),
	}
}

// filterNames returns the parameters filters read.
func filterNames[T any](filters []filter[T]) []string {
	var out []string
	for _, f := range filters {
		out = append(out, f.names...)
	}
	return out
}
