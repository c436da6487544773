package workforce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/workforce-marketplace/workforce-go/internal/jsonscan"
)

// SearchService finds Users, Customers, Job Requests and Badges by a piece
// of their names or emails. It is a service, used as c.Search.Query, like
// every other area of the API, so that the Client's fields stay the one
// list of what the API offers.
type SearchService service

// A SearchResult holds what one search found, at most 50 of each kind.
// Every record carries its own JSON document in Raw.
type SearchResult struct {
	Users       []*User       `json:"users"`
	Customers   []*Customer   `json:"customers"`
	JobRequests []*JobRequest `json:"job_requests"`
	Badges      []*Badge      `json:"badges"`

	// Raw is the whole answer, with any kind this type does not model.
	Raw json.RawMessage `json:"-"`
}

func (r *SearchResult) setRaw(b json.RawMessage) { r.Raw = b }

// UnmarshalJSON decodes each kind's list, handing every record its own
// JSON in Raw. A missing or null list is empty; a null record is an error.
func (r *SearchResult) UnmarshalJSON(b []byte) error {
	var lists struct {
		Users       json.RawMessage `json:"users"`
		Customers   json.RawMessage `json:"customers"`
		JobRequests json.RawMessage `json:"job_requests"`
		Badges      json.RawMessage `json:"badges"`
	}
	if err := json.Unmarshal(b, &lists); err != nil {
		return err
	}
	var err error
	if r.Users, err = decodeRecords[User]("users", lists.Users); err != nil {
		return err
	}
	if r.Customers, err = decodeRecords[Customer]("customers", lists.Customers); err != nil {
		return err
	}
	if r.JobRequests, err = decodeRecords[JobRequest]("job_requests", lists.JobRequests); err != nil {
		return err
	}
	r.Badges, err = decodeRecords[Badge]("badges", lists.Badges)
	return err
}

// decodeRecords decodes a JSON array of records, each with its own JSON in
// Raw; absent or null is an empty list.
func decodeRecords[T any, PT interface {
	*T
	document
}](key string, data json.RawMessage) ([]PT, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(data, &parts); err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	records := make([]PT, len(parts))
	for i, part := range parts {
		if string(part) == "null" {
			return nil, fmt.Errorf("%s: element %d: null where a resource is due", key, i)
		}
		records[i] = new(T)
		if err := json.Unmarshal(part, records[i]); err != nil {
			return nil, fmt.Errorf("%s: element %d: %w", key, i, err)
		}
		records[i].setRaw(part)
		if f, ok := any(records[i]).(finisher); ok {
			f.finish()
		}
	}
	return records, nil
}

// decodeLenient decodes each kind's list record by record (see
// decodeLenient), each record with its own JSON in Raw. A null record is
// an error, as it is to UnmarshalJSON.
func (r *SearchResult) decodeLenient(d *lenient, data []byte, at path) {
	*r = SearchResult{}
	r.Users = lenientRecords[User](d, data, at, "users")
	r.Customers = lenientRecords[Customer](d, data, at, "customers")
	r.JobRequests = lenientRecords[JobRequest](d, data, at, "job_requests")
	r.Badges = lenientRecords[Badge](d, data, at, "badges")
}

// lenientRecords decodes the records of the list under key in data as
// decodeRecords does, leniently.
func lenientRecords[T any, PT interface {
	*T
	document
}](d *lenient, data []byte, at path, key string) []PT {
	list, ok := jsonscan.Member(data, key)
	if !ok || string(list) == "null" {
		return nil
	}
	parts := jsonscan.Elements(list)
	if parts == nil {
		d.warn(list, reflect.ValueOf(new([]PT)).Elem(), at.to(key))
		return nil
	}
	records := make([]PT, len(parts))
	name := at.to(key).String()
	for i, part := range parts {
		if string(part) == "null" && d.err == nil {
			d.err = fmt.Errorf("%s: element %d: null where a resource is due", key, i)
		}
		records[i] = new(T)
		d.record(part, reflect.ValueOf(records[i]).Elem(), path{parent: name, index: i, elem: true})
		records[i].setRaw(bytes.Clone(part))
		if f, ok := any(records[i]).(finisher); ok {
			f.finish()
		}
	}
	return records
}

// Query searches the names and emails of Users, the names of Customers and
// Badges and the request names of Job Requests for q, a piece of text
// matched without regard to case. q may not be empty or only spaces.
//
// API: GET /search
func (s *SearchService) Query(ctx context.Context, q string) (*SearchResult, *Response, error) {
	return call[*SearchResult](ctx, s.client, searches.find(&searchQuery{q}))
}

// searchQuery is the query of GET /search.
type searchQuery struct {
	Q string `url:"q"`
}

func (q *searchQuery) check() error { return checkRequired("q", q.Q) }
