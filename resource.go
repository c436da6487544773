package workforce

import (
	"fmt"
	"net/http"
)

// Every service method is one statement of one shape:
//
//	return call[*Badge](ctx, s.client, badges.get(id))
//
// where a verb of this file describes the call as a request, and call
// sends it through the request path (request.go). A verb refuses bad
// arguments by setting the request's err, which the request path returns
// before any I/O; the checks it runs are those of check.go and of the
// parameters' own check methods.

// A resource names an endpoint of the API: its path below /api_v2/, which
// is also the key its lists are wrapped in, and its singular key, which
// wraps one record in answers and in write bodies.
type resource struct {
	path, key string
	public    bool // needs no token
}

// The resources.
var (
	jobs                = resource{path: "jobs", key: "job"}
	jobAssignments      = resource{path: "jobs/assign", key: "job"}
	jobRequests         = resource{path: "job_requests", key: "job_request"}
	multiDayJobRequests = resource{path: "multi_day_job_requests", key: "multi_day_job_request"}
	badges              = resource{path: "badges", key: "badge"}
	customers           = resource{path: "customers", key: "customer"}
	customerNames       = resource{path: "customers/exists"}
	timesheetImports    = resource{path: "customers/timesheet_import", key: "timesheet_import"}
	users               = resource{path: "users", key: "user"}
	userInvitations     = resource{path: "users/invite", key: "user"}
	messages            = resource{path: "messages", key: "message"}
	searches            = resource{path: "search", key: "search"}
	info                = resource{path: "info", key: "info", public: true}
	authentication      = resource{path: "authenticate", public: true}
)

// at is the path of the record id, followed by the action, if any.
func (r resource) at(id int64, action ...string) string {
	path := fmt.Sprintf("%s/%d", r.path, id)
	for _, a := range action {
		path += "/" + a
	}
	return path
}

// params are write parameters; check refuses them before any I/O, those
// of a create (create true) or of an update.
type params interface{ check(create bool) error }

// secretParams are write parameters holding secrets of their own (a
// password): wire returns the body that carries them, and the secrets,
// which no error or log line of the call may show.
type secretParams interface {
	params
	wire() (body any, secrets []string)
}

// queryParams are the query of a call that reads one answer; check refuses
// them before any I/O.
type queryParams interface{ check() error }

// listOptions select a page of a list.
type listOptions interface {
	check() error
	paging() *ListOptions
}

// get describes GET r/id: the record.
func (r resource) get(id int64) request {
	return request{method: http.MethodGet, path: r.at(id), key: r.key, id: id, public: r.public, err: checkID("id", id)}
}

// find describes GET r with the query q (nil for none): one answer,
// wrapped in r's key when it has one.
func (r resource) find(q queryParams) request {
	req := request{method: http.MethodGet, path: r.path, key: r.key, public: r.public}
	if q != nil {
		req.query, req.err = q, q.check()
	}
	return req
}

// list describes GET r: the page of its list that opts selects, nil for
// the first page, MaxPerPage records a page when opts leaves Per 0 (sent,
// so that NextPage is exact). The answer's NextPage is set.
func list[O any, P interface {
	*O
	listOptions
}](r resource, opts P) request {
	if opts == nil {
		opts = new(O)
	}
	if opts.paging().Per == 0 {
		sent := *opts // a copy: the caller's options are left as they were
		opts = P(&sent)
		opts.paging().Per = MaxPerPage
	}
	page := *opts.paging()
	return request{method: http.MethodGet, path: r.path, query: opts, key: r.path, page: &page, err: opts.check()}
}

// nested describes GET r/id/name: a list the record id holds (a Job
// Request's rankings, a User's tracking), wrapped in name.
func (r resource) nested(id int64, name string) request {
	return request{method: http.MethodGet, path: r.at(id, name), key: name, err: checkID("id", id)}
}

// create describes POST r with p wrapped in r's key: a create, sent again
// only where the server provably did not act.
func (r resource) create(p params) request {
	req := r.write(http.MethodPost, r.path, p, true, p.check(true))
	req.create = true
	return req
}

// update describes PATCH r/id with p wrapped in r's key.
func (r resource) update(id int64, p params) request {
	req := r.write(http.MethodPatch, r.at(id), p, true, firstError(checkID("id", id), p.check(false)))
	req.id = id
	return req
}

// updateUnwrapped describes PATCH r/id with p's fields at the top level,
// as PATCH /jobs/:id takes them, and PATCH /job_requests/:id its state.
func (r resource) updateUnwrapped(id int64, p params) request {
	req := r.write(http.MethodPatch, r.at(id), p, false, firstError(checkID("id", id), p.check(false)))
	req.id = id
	return req
}

// Whether doing an action twice does it twice.
const (
	idempotent    = false // sent again as an update is
	notIdempotent = true  // sent again only where the server provably did not act, as a create is
)

// act describes POST r/id/name, an action on the record id answered by
// it, with p's fields (none when p is nil) at the top level.
func (r resource) act(id int64, name string, p params, once bool) request {
	err := checkID("id", id)
	if p != nil && err == nil {
		err = p.check(false)
	}
	req := r.write(http.MethodPost, r.at(id, name), p, false, err)
	req.create, req.id = once, id
	return req
}

// post describes POST r with p at the top level, answered whole: an
// exchange that creates no record (POST /authenticate).
func (r resource) post(p params) request {
	return r.write(http.MethodPost, r.path, p, false, p.check(true))
}

// upload describes POST r with the streamed body s: a create, sent again
// only where the server provably did not act, and s can be rewound.
func (r resource) upload(s stream) request {
	return request{method: http.MethodPost, path: r.path, stream: s, key: r.key, create: true}
}

// delete describes DELETE r/id: the record, as it was.
func (r resource) delete(id int64) request {
	return request{method: http.MethodDelete, path: r.at(id), key: r.key, id: id, err: checkID("id", id)}
}

// write describes method on path with the body p (none when p is nil),
// wrapped in r's key when wrap is set, or the refusal err.
func (r resource) write(method, path string, p params, wrap bool, err error) request {
	req := request{method: method, path: path, key: r.key, public: r.public, err: err}
	if p == nil || err != nil {
		return req
	}
	var body any = p
	if sp, ok := p.(secretParams); ok {
		body, req.secrets = sp.wire()
	}
	if wrap {
		body = map[string]any{r.key: body}
	}
	req.body = body
	return req
}
