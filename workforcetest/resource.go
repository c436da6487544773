package workforcetest

import (
	"net/http"
	"reflect"
	"time"
)

// stored is what every stored resource has: its id and timestamps.
type stored struct {
	id                   int64
	createdAt, updatedAt time.Time
}

// resource serves list, show, create and update of a resource without states (Customers,
// Badges, Multi-day Job Requests) from its table, its reader and its renderer.
type resource[T, J any] struct {
	st        *store
	one, many string // the singular and plural names, "customer" and "customers"
	rows      *table[T]
	meta      func(*T) *stored
	render    func(*T) J
	// read reads the write parameters into v and checks them; id is 0 on create. It runs
	// inside st.run.
	read func(f fields, v *T, id int64)
	// filter reads the list's filters (nil: none).
	filter func(p params, fe fieldErrors) func(*T) bool
	// publicWrites tells whether Public Pool keys may create and update.
	publicWrites bool
	// visible tells whether a token of pool p may see v (nil: every token sees every record).
	// A record a token may not see is left out of lists and is a 404 to it.
	visible func(v *T, p pool) bool
}

// sees tells whether a token of pool p may see v.
func (r resource[T, J]) sees(v *T, p pool) bool { return r.visible == nil || r.visible(v, p) }

// list serves GET /<many>: one page, newest first.
func (r resource[T, J]) list(c *call) (any, error) {
	fe := fieldErrors{}
	pg := readPage(c.p, fe)
	filter := func(*T) bool { return true }
	if r.filter != nil {
		filter = r.filter(c.p, fe)
	}
	if err := fe.err(); err != nil {
		return nil, err
	}
	keep := func(v *T) bool { return r.sees(v, c.pool) && filter(v) }
	var out []J
	err := r.st.run(func() error {
		out = listPage(r.rows.order, pg, keep, r.render)
		return nil
	})
	return map[string][]J{r.many: out}, err
}

// find answers the record of the path, or a 404. The caller holds st.mu.
func (r resource[T, J]) find(c *call) (*T, error) {
	id, err := c.pathID()
	if err != nil {
		return nil, err
	}
	v, ok := r.rows.rows[id]
	if !ok || !r.sees(v, c.pool) {
		return nil, errorf(http.StatusNotFound, "%s %d not found", r.one, id)
	}
	return v, nil
}

// answer runs fn inside st.run and answers the record it returns as {"<one>": {...}}.
func (r resource[T, J]) answer(fn func() (*T, error)) (any, error) {
	return answerOne(r.st, r.one, fn, r.render)
}

// answerOne runs find inside st.run and answers the record it finds rendered and wrapped in its
// singular name, {"<key>": {...}}: the answer of show, create, update and actions.
func answerOne[T, J any](st *store, key string, find func() (*T, error), render func(*T) J) (any, error) {
	var out J
	err := st.run(func() error {
		v, err := find()
		if err == nil {
			out = render(v)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return map[string]J{key: out}, nil
}

// get serves GET /<many>/:id.
func (r resource[T, J]) get(c *call) (any, error) {
	return r.answer(func() (*T, error) { return r.find(c) })
}

// create serves POST /<many> with <one>[…] parameters.
func (r resource[T, J]) create(c *call) (any, error) {
	if !r.publicWrites {
		if err := c.forbidPublic(); err != nil {
			return nil, err
		}
	}
	return r.answer(func() (*T, error) {
		f := fields{p: c.p, prefix: r.one, fe: fieldErrors{}, pool: c.pool}
		v := new(T)
		r.read(f, v, 0)
		if err := f.fe.err(); err != nil {
			return nil, err
		}
		m := r.meta(v)
		m.createdAt = r.st.now()
		m.updatedAt = m.createdAt
		m.id = r.rows.insert(v)
		return v, nil
	})
}

// update serves PATCH (and PUT) /<many>/:id with <one>[…] parameters: all or nothing;
// updated_at moves only when something changes. A body without <one>[…] is a 422.
func (r resource[T, J]) update(c *call) (any, error) {
	if !r.publicWrites {
		if err := c.forbidPublic(); err != nil {
			return nil, err
		}
	}
	return r.answer(func() (*T, error) {
		v, err := r.find(c)
		if err != nil {
			return nil, err
		}
		f := fields{p: c.p, prefix: r.one, fe: fieldErrors{}, pool: c.pool}
		if !f.any() {
			return nil, invalid(r.one, "nothing to update: send "+r.one+"[…] fields")
		}
		next := *v
		r.read(f, &next, r.meta(v).id)
		if err := f.fe.err(); err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(next, *v) {
			r.meta(&next).updatedAt = r.st.now()
			*v = next
		}
		return v, nil
	})
}
