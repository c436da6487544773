package workforce

import (
	"context"
	"fmt"
	"net/http"
)

// A resource names a kind of record: its path below /api_v2/, which is
// also the key its lists are wrapped in, and its singular key, which wraps
// one record in answers and in write bodies.
type resource struct{ path, key string }

// The resources.
var (
	jobs                = resource{"jobs", "job"}
	jobRequests         = resource{"job_requests", "job_request"}
	multiDayJobRequests = resource{"multi_day_job_requests", "multi_day_job_request"}
	badges              = resource{"badges", "badge"}
	customers           = resource{"customers", "customer"}
	users               = resource{"users", "user"}
	messages            = resource{"messages", "message"}
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

// byID sends method to the record id of r and answers the record.
func byID[T any](ctx context.Context, c *Client, method string, r resource, id int64) (T, *Response, error) {
	if err := checkID("id", id); err != nil {
		var zero T
		return zero, nil, err
	}
	return call[T](ctx, c, request{method: method, path: r.at(id), key: r.key})
}

// create creates a record of r from p, wrapped in r's key.
func create[T any](ctx context.Context, c *Client, r resource, p params) (T, *Response, error) {
	if err := p.check(true); err != nil {
		var zero T
		return zero, nil, err
	}
	body := map[string]params{r.key: p}
	return call[T](ctx, c, request{method: http.MethodPost, path: r.path, body: body, key: r.key, create: true})
}

// update changes the record id of r with p, wrapped in r's key.
func update[T any](ctx context.Context, c *Client, r resource, id int64, p params) (T, *Response, error) {
	err := checkID("id", id)
	if err == nil {
		err = p.check(false)
	}
	if err != nil {
		var zero T
		return zero, nil, err
	}
	body := map[string]params{r.key: p}
	return call[T](ctx, c, request{method: http.MethodPatch, path: r.at(id), body: body, key: r.key})
}
