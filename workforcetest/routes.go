package workforcetest

import (
	"net/http"
	"strconv"
	"strings"
)

// call is one request as a handler sees it.
type call struct {
	r     *http.Request
	p     params
	body  []byte            // the raw request body
	files map[string][]byte // the files of a multipart/form-data body, by field name
	pool  pool              // the token's access level; 0 on routes that need no token
	id    string            // the {id} segment of the path, if the route has one
}

// pathID answers the {id} of the path, or a 404 for one that is not a positive integer.
func (c *call) pathID() (int64, error) {
	id, err := strconv.ParseInt(c.id, 10, 64)
	if err != nil || id < 1 {
		return 0, errorf(http.StatusNotFound, "no record with id %q", c.id)
	}
	return id, nil
}

// forbidPublic answers a 403 for a Public Pool token.
func (c *call) forbidPublic() error {
	if c.pool == poolPublic {
		return errorf(http.StatusForbidden, "not allowed with Public Pool keys")
	}
	return nil
}

// privateID answers the {id} of the path for a write that Public Pool keys may not make: a 403
// for them, a 404 for an id that is not a positive integer.
func (c *call) privateID() (int64, error) {
	if err := c.forbidPublic(); err != nil {
		return 0, err
	}
	return c.pathID()
}

// route binds a method and a path pattern (segments, "{id}" for any one) to a handler.
type route struct {
	method  string
	pattern string
	open    bool // true when the route needs no token
	handle  func(*call) (any, error)
}

// routes is the API the fake serves, one group per resource. Literal paths come before patterns
// that could also match.
func (s *Server) apiRoutes() []route {
	groups := [][]route{s.customerRoutes(), s.badgeRoutes(), s.jobRequestRoutes(), s.multiDayRoutes(),
		s.userRoutes(), s.messageRoutes(), s.searchRoutes()}
	routes := []route{
		{http.MethodPost, "/api_v2/authenticate", true, s.authenticate},
		{http.MethodGet, "/api_v2/info", true, s.info},
		{http.MethodGet, "/api_v2/jobs", false, s.listJobs},
		{http.MethodPost, "/api_v2/jobs", false, s.createJob},
		{http.MethodPost, "/api_v2/jobs/assign", false, s.createJob},
		{http.MethodGet, "/api_v2/jobs/{id}", false, s.getJob},
		{http.MethodPatch, "/api_v2/jobs/{id}", false, s.updateJob},
	}
	for _, g := range groups {
		routes = append(routes, g...)
	}
	return routes
}

// match answers the route for method and path with its {id} segment. When there is none, it
// answers the methods path allows (none for an unknown path).
func match(routes []route, method, path string) (*route, string, []string) {
	var allowed []string
	for i := range routes {
		id, ok := matchPattern(routes[i].pattern, path)
		switch {
		case !ok:
		case routes[i].method == method:
			return &routes[i], id, nil
		default:
			allowed = append(allowed, routes[i].method)
		}
	}
	return nil, "", allowed
}

// matchPattern tells whether path fits pattern, and answers the segment matched by "{id}".
func matchPattern(pattern, path string) (string, bool) {
	want, got := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(want) != len(got) {
		return "", false
	}
	var id string
	for i := range want {
		switch {
		case want[i] == "{id}" && got[i] != "":
			id = got[i]
		case want[i] != got[i]:
			return "", false
		}
	}
	return id, true
}
