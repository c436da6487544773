package workforcetest

import (
	"fmt"
	"net/http"
	"path"
	"strings"
)

// newMux registers every route of the table behind the one request path (serve), and a
// catch-all route that answers 404 or 405.
func (s *Server) newMux() (*http.ServeMux, http.Handler) {
	mux := http.NewServeMux()
	for _, rt := range s.routes() {
		mux.Handle(rt.pattern, s.serve(rt))
	}
	unrouted := s.serve(route{pattern: "/", access: noRoute, maxBody: 1 * mib})
	mux.Handle("/", unrouted)
	return mux, unrouted
}

// serveHTTP stamps a request id on every answer and hands the request to its route. A path that
// is not clean ("/api_v2//jobs", "/api_v2/jobs/") has no route: ServeMux would redirect it. A
// HEAD is answered as a GET without its body, as Rails answers it.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Request-Id", randomHex(16))
	if !cleanPath(r.URL.Path) {
		s.unrouted.ServeHTTP(w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// cleanPath tells whether p is an absolute path that path.Clean leaves as it is.
func cleanPath(p string) bool { return strings.HasPrefix(p, "/") && path.Clean(p) == p }

// serve returns the handler that answers the requests of rt. It reads the body (at most rt.maxBody bytes) and, except on
// the control API, records the request, waits out the latency and plays the fault due, if any;
// then it checks the token and runs the handler, and writes its answer.
func (s *Server) serve(rt route) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		raw, err := readBody(w, r, rt.maxBody)
		var b body
		if err == nil {
			b, err = parseBody(r.Header.Get("Content-Type"), raw)
		}
		query := r.URL.Query()
		p := newParams(query, b)
		var after *Fault
		if !strings.HasPrefix(r.URL.Path, controlPrefix) {
			seq := s.log.add(record(r, query, raw, b, s.clock.now(), s.keepsBody(r, p)))
			w = &statusWriter{ResponseWriter: w, answered: func(status int) { s.log.answered(seq, status) }}
			if !s.wait(w, r) {
				return
			}
			var done bool
			if after, done = s.faults.play(w, r); done {
				return
			}
		}
		v, err := s.dispatch(w, rt, r, p, b, err)
		if after != nil {
			status, body := answerOf(v, err)
			playAfter(w, after, status, body)
			return
		}
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
		if raw, ok := v.(rawJSON); ok {
			s.buffers.put(raw)
		}
	}
}

// dispatch checks what rt asks of the request, whose parameters are p, and runs its handler.
// bodyErr is the error of reading the body, reported once the route is known to exist.
func (s *Server) dispatch(w http.ResponseWriter, rt route, r *http.Request, p params, b body, bodyErr error) (any, error) {
	switch {
	case rt.access == noRoute:
		return nil, s.noRoute(w, r)
	case bodyErr != nil:
		return nil, bodyErr
	}
	c := &call{r: r, p: p, body: b.raw, files: b.files}
	if rt.access == needsToken {
		p, err := s.tokens.check(c.p, s.clock.now())
		if err != nil {
			return nil, err
		}
		c.pool = p
	}
	return rt.handle(c)
}

// noRoute answers the error of a request that no route serves: a 405 naming the methods its path
// allows in its Allow header (HEAD with GET), or a 404 when there are none.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) error {
	var allowed []string
	if cleanPath(r.URL.Path) {
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			if _, pattern := s.mux.Handler(&http.Request{Method: m, URL: r.URL, Host: r.Host}); pattern != "/" {
				allowed = append(allowed, m)
				if m == http.MethodGet {
					allowed = append(allowed, http.MethodHead)
				}
			}
		}
	}
	if len(allowed) == 0 {
		return errorf(http.StatusNotFound, "Not Found") // the live API's words (CONTRACT §10.1)
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	return &apiError{status: http.StatusMethodNotAllowed,
		msg: fmt.Sprintf("method %s not allowed; allowed: %s", r.Method, strings.Join(allowed, ", "))}
}
