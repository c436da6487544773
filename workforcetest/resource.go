package workforcetest

import (
	"net/http"
	"reflect"
)

// resource serves list, show, create and update of a resource without states (Customers,
// Badges, Users, Messages, Multi-day Job Requests) from its table, filters, reader and renderer.
type resource[T, J any] struct {
	st        *store
	one, many string // the singular and plural names, "customer" and "customers"
	table     *table[T]
	filters   []filter[T] // the filters of its list
	// read reads the write parameters into x and checks them; id is 0 on create.
	read func(tx *tx, f fields, x *T, id int64)
	// render writes x as a token of pool p sees it; listed, when set, writes x as its list and
	// its create's answer do (a list's records may carry other keys than a shown one's, and a
	// create's answer, of which no capture exists, keeps the fuller form).
	render, listed func(v view, x *T, p pool) J
	// publicWrites tells whether Public Pool keys may create and update.
	publicWrites bool
	// visible tells whether a token of pool p may see x (nil: every token sees every record).
	// A record a token may not see is left out of lists and is a 404 to it.
	visible func(v view, x *T, p pool) bool
}

// plain lifts a renderer that needs neither the store nor the pool.
func plain[T, J any](render func(*T) J) func(view, *T, pool) J {
	return func(_ view, x *T, _ pool) J { return render(x) }
}

// sees tells whether a token of pool p may see x.
func (r resource[T, J]) sees(v view, x *T, p pool) bool {
	return r.visible == nil || r.visible(v, x, p)
}

// list serves GET /<many>: one page, newest first.
func (r resource[T, J]) list(c *call) (any, error) {
	fe := fieldErrors{}
	pg := readPage(c.p, fe)
	sels := readFilters(r.filters, c.p, fe)
	if err := fe.err(); err != nil {
		return nil, err
	}
	out := []J{}
	err := r.st.read(func(v view) error {
		if r.visible != nil {
			sels = append(sels, only(func(x *T) bool { return r.visible(v, x, c.pool) }))
		}
		render := r.listOrRender()
		for _, x := range pageOf(v, r.table, nil, sels, pg) {
			out = append(out, render(v, x, c.pool))
		}
		return nil
	})
	return map[string][]J{r.many: out}, err
}

// find returns a copy of the record of the path, or a 404.
func (r resource[T, J]) find(v view, c *call) (*T, error) {
	id, err := c.pathID()
	if err != nil {
		return nil, err
	}
	x, ok := get(v, r.table, id)
	if !ok || !r.sees(v, x, c.pool) {
		return nil, errorf(http.StatusNotFound, "%s %d not found", r.one, id)
	}
	return x, nil
}

// get serves GET /<many>/:id.
func (r resource[T, J]) get(c *call) (any, error) {
	var out J
	err := r.st.read(func(v view) error {
		x, err := r.find(v, c)
		if err == nil {
			out = r.render(v, x, c.pool)
		}
		return err
	})
	return wrap(r.one, out, err)
}

// wrap returns v wrapped in its singular name, {"<key>": {...}}, or err.
func wrap[J any](key string, v J, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return map[string]J{key: v}, nil
}

// create serves POST /<many> with <one>[…] parameters.
func (r resource[T, J]) create(c *call) (any, error) {
	if !r.publicWrites {
		if err := c.forbidPublic(); err != nil {
			return nil, err
		}
	}
	var out J
	err := r.st.write(func(tx *tx) error {
		f := fields{p: c.p, prefix: r.one, fe: fieldErrors{}, pool: c.pool}
		x := new(T)
		r.read(tx, f, x, 0)
		if err := f.fe.err(); err != nil {
			return err
		}
		m := r.table.meta(x)
		m.createdAt = tx.now()
		m.updatedAt = m.createdAt
		id := insert(tx, r.table, x)
		x, _ = get(tx.view, r.table, id)
		out = r.listOrRender()(tx.view, x, c.pool)
		return nil
	})
	return wrap(r.one, out, err)
}

// listOrRender returns listed when it is set, else render.
func (r resource[T, J]) listOrRender() func(view, *T, pool) J {
	if r.listed != nil {
		return r.listed
	}
	return r.render
}

// update serves PATCH (and PUT) /<many>/:id with <one>[…] parameters: all or nothing;
// updated_at moves only when something changes. A body without <one>[…] is a 422.
func (r resource[T, J]) update(c *call) (any, error) {
	if !r.publicWrites {
		if err := c.forbidPublic(); err != nil {
			return nil, err
		}
	}
	var out J
	err := r.st.write(func(tx *tx) error {
		current, err := r.find(tx.view, c)
		if err != nil {
			return err
		}
		f := fields{p: c.p, prefix: r.one, fe: fieldErrors{}, pool: c.pool}
		if !f.any() {
			return invalid(r.one, "nothing to update: send "+r.one+"[…] fields")
		}
		id := r.table.meta(current).id
		next := r.table.clone(current)
		r.read(tx, f, next, id)
		if err := f.fe.err(); err != nil {
			return err
		}
		if !reflect.DeepEqual(next, current) {
			r.table.meta(next).updatedAt = tx.now()
			x, _ := edit(tx, r.table, id)
			*x = *next
		}
		x, _ := get(tx.view, r.table, id)
		out = r.render(tx.view, x, c.pool)
		return nil
	})
	return wrap(r.one, out, err)
}
