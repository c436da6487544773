package workforce

import (
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
// Raw is the whole answer, and each record's Raw its part of it.
type SearchResult struct {
	Users       []*User       `json:"users"`
	Customers   []*Customer   `json:"customers"`
	JobRequests []*JobRequest `json:"job_requests"`
	Badges      []*Badge      `json:"badges"`

	// Raw is the whole answer, with any kind this type does not model.
	Raw json.RawMessage `json:"-"`
}

func (r *SearchResult) setRaw(b json.RawMessage) { r.Raw = b }

// keepRecords hands each record its part of the result's Raw, one copy of
// the answer for all: a null record is an error.
func (r *SearchResult) keepRecords() error {
	return firstError(keepRecords(r.Raw, "users", r.Users), keepRecords(r.Raw, "customers", r.Customers),
		keepRecords(r.Raw, "job_requests", r.JobRequests), keepRecords(r.Raw, "badges", r.Badges))
}

// keepRecords hands each of records its part of the list under key in
// data, and finishes it.
func keepRecords[PT interface {
	comparable
	document
}](data []byte, key string, records []PT) error {
	var zero PT
	for i, rec := range records {
		if rec == zero {
			return fmt.Errorf("%s: element %d: null where a resource is due", key, i)
		}
	}
	list, _ := lastMember(data, key)
	parts := jsonscan.Elements(list)
	if len(parts) != len(records) {
		return nil // a shape the scan does not follow: nothing to hand out
	}
	for i, rec := range records {
		rec.setRaw(parts[i])
		if f, ok := any(rec).(finisher); ok {
			f.finish()
		}
		if err := checkIsRecord(reflect.ValueOf(rec), parts[i]); err != nil {
			return fmt.Errorf("%s: element %d: %w", key, i, err)
		}
	}
	return nil
}

// decodeLenient decodes each kind's list record by record (see
// decodeLenient), so that each warning names its record; a list sent
// twice is decoded into the first, as encoding/json does.
func (r *SearchResult) decodeLenient(d *lenient, data []byte, at path) {
	*r = SearchResult{}
	table := d.table(reflect.TypeFor[SearchResult]())
	jsonscan.Members(data, func(name, list []byte) bool {
		f, ok := table.find(name)
		if !ok {
			return true
		}
		switch at := at.to(f.name); f.name {
		case "users":
			r.Users = lenientRecords(d, list, at, r.Users)
		case "customers":
			r.Customers = lenientRecords(d, list, at, r.Customers)
		case "job_requests":
			r.JobRequests = lenientRecords(d, list, at, r.JobRequests)
		case "badges":
			r.Badges = lenientRecords(d, list, at, r.Badges)
		}
		return true
	})
}

// lenientRecords decodes the records of list, which at names, leniently,
// into those of records as encoding/json decodes an array into a slice: a
// null record is left nil.
func lenientRecords[T any, PT interface {
	*T
	document
}](d *lenient, list []byte, at path, records []PT) []PT {
	if string(list) == "null" {
		return nil
	}
	parts := jsonscan.Elements(list)
	if parts == nil {
		d.warn(list, reflect.ValueOf(new([]PT)).Elem(), at)
		return nil
	}
	if len(parts) == 0 || records == nil {
		records = make([]PT, 0, len(parts))
	}
	name := at.String()
	for i, part := range parts {
		if i == cap(records) {
			records = append(records[:i], nil)
		}
		records = records[:i+1]
		if string(part) == "null" {
			records[i] = nil // which keepRecords refuses
			continue
		}
		if records[i] == nil {
			records[i] = new(T)
		}
		d.record(part, reflect.ValueOf(records[i]).Elem(), path{parent: name, index: i, elem: true})
	}
	return records[:len(parts)]
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
