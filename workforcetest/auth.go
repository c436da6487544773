package workforcetest

import (
	"crypto/subtle"
	"net/http"
	"sync"
	"time"
)

// pool is the access level a key pair, a token or a record belongs to.
type pool int

// The two access levels of CONTRACT §7.
const (
	poolPrivate pool = iota + 1
	poolPublic
)

// key returns the pool's name, as the indexes file records by it.
func (p pool) key() string {
	switch p {
	case poolPrivate:
		return "private"
	case poolPublic:
		return "public"
	}
	return ""
}

// title returns the pool's name in a sentence: "Private" or "Public".
func (p pool) title() string {
	if p == poolPublic {
		return "Public"
	}
	return "Private"
}

// tokenLifetime is how long a token lives on the fake clock.
const tokenLifetime = 24 * time.Hour

// tokens are the tokens a server issued, each with its pool and its expiry on the fake clock.
type tokens struct {
	mu     sync.Mutex
	issued map[string]authToken
}

// authToken is an issued token.
type authToken struct {
	pool      pool
	expiresAt time.Time
}

// authenticate serves POST /api_v2/authenticate: api_key and secret_key from a JSON body, a
// form body or the query string. 422 if either is missing, 401 if the pair is not known.
func (s *Server) authenticate(c *call) (any, error) {
	fe := fieldErrors{}
	apiKey, ok := c.p.str("api_key")
	if !ok {
		fe.add("api_key", "can't be blank")
	}
	secretKey, ok := c.p.str("secret_key")
	if !ok {
		fe.add("secret_key", "can't be blank")
	}
	if err := fe.err(); err != nil {
		return nil, err
	}
	for p, pair := range s.keys {
		if equal(apiKey, pair.APIKey) && equal(secretKey, pair.SecretKey) {
			token, expiresAt := s.tokens.issue(p, s.clock.now())
			return map[string]string{"token": token, "expires_at": utcTime(expiresAt)}, nil
		}
	}
	return nil, errorf(http.StatusUnauthorized, "invalid api_key or secret_key")
}

// equal compares two secrets in constant time.
func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// issue makes a token of pool p that lives tokenLifetime from now, and forgets expired ones.
func (ts *tokens) issue(p pool, now time.Time) (string, time.Time) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.issued == nil {
		ts.issued = map[string]authToken{}
	}
	for token, t := range ts.issued {
		if !now.Before(t.expiresAt) {
			delete(ts.issued, token)
		}
	}
	token := randomHex(24)
	expiresAt := now.Add(tokenLifetime).Truncate(time.Second)
	ts.issued[token] = authToken{pool: p, expiresAt: expiresAt}
	return token, expiresAt
}

// check returns the pool of the request's token (query, JSON body or form body), or a 401 for a
// missing, unknown or expired one.
func (ts *tokens) check(p params, now time.Time) (pool, error) {
	token, ok := p.str("token")
	if !ok {
		return 0, errorf(http.StatusUnauthorized, "token is missing")
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, ok := ts.issued[token]
	if !ok || !now.Before(t.expiresAt) {
		return 0, errorf(http.StatusUnauthorized, "token is invalid or expired")
	}
	return t.pool, nil
}

// ExpireTokens makes every token issued so far expired, as if its 24 hours had passed, without
// moving the clock: the API answers 401 to them, and clients fetch new ones. (Advancing the clock
// expires them too, but also moves every time the fake tells.)
func (s *Server) ExpireTokens() {
	s.tokens.mu.Lock()
	defer s.tokens.mu.Unlock()
	clear(s.tokens.issued)
}

// infoJSON is the answer of GET /api_v2/info: exactly the live API's keys (CONTRACT §10.1), its
// release and deploy null as the live API sends them.
type infoJSON struct {
	UTCTimeNow       string  `json:"utc_time_now"`
	Environment      string  `json:"environment"`
	RailsEnvironment string  `json:"rails_environment"`
	RackEnvironment  string  `json:"rack_environment"`
	ReleaseVersion   *string `json:"release_version"`
	Deploy           *string `json:"deploy"`
}

// info serves GET /api_v2/info, which needs no token.
func (s *Server) info(*call) (any, error) {
	env := "test"
	return infoJSON{
		UTCTimeNow:  s.clock.now().UTC().Format("2006-01-02T15:04:05.000Z07:00"), // the precision of the records' times
		Environment: env, RailsEnvironment: env, RackEnvironment: env,
	}, nil
}
