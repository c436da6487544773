package workforce

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
)

// MaxPerPage is the most records the API returns in one page, whatever
// ListOptions.Per asks for.
const MaxPerPage = 50

// ListOptions selects one page of a list. The zero value asks for the first
// page of MaxPerPage records.
type ListOptions struct {
	// Page is the 1-based page number; 0 means the first.
	Page int `url:"page,omitempty"`
	// Per is the page size, at most MaxPerPage; 0 means MaxPerPage, which
	// the client sends, so that Response.NextPage is exact.
	Per int `url:"per,omitempty"`
}

func (o *ListOptions) check() error {
	if err := checkNotNegative("Page", o.Page); err != nil {
		return err
	}
	if o.Per < 0 || o.Per > MaxPerPage {
		return &ArgumentError{Name: "Per", Reason: fmt.Sprintf("must be from 0 (MaxPerPage) to %d, got %d", MaxPerPage, o.Per)}
	}
	return nil
}

// ErrPageRepeated is yielded by an iterator when the server answers a page
// with the same records as the page before, as a server that ignores the
// page parameter would: the iteration stops instead of looping forever.
var ErrPageRepeated = errors.New("workforce: the server answered the same page twice")

// A listed resource has the ID that lists are ordered by.
type listed interface{ listID() int64 }

// lister fetches one page of a list with the given paging.
type lister[T listed] func(ctx context.Context, page ListOptions) ([]T, *Response, error)

// all iterates over every record of a list from the page start.Page on,
// MaxPerPage at a time; start.Per is ignored. Records come in list order.
//
// Pages are asked for ahead as the walk proves long: the first page alone;
// once it comes back full, the next one while its records are yielded;
// then twice as many each time a page comes back full, up to window pages
// ahead beside the one being yielded (window is the client's,
// WithPageWindow; 1 fetches each page after the one before is done). The
// pages asked for are sent, in order, as the client's limiter lets them:
// no more in flight than the server sustains (see limiter). A loop that
// breaks within the first page so costs one request more than a walk page
// by page, and a long walk keeps the link busy. At most window + 1 pages
// are held at once.
//
// The walk stops after the first page that is not full, at the first error
// (yielded with the zero T), or when the loop breaks; then the requests
// still in flight are cancelled and waited for, so no goroutine outlives
// the loop. It stops with ErrPageRepeated when a page repeats the one
// before, as from a server that ignores the page parameter.
func all[T listed](ctx context.Context, c *Client, start ListOptions, list lister[T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		if err := c.ready(); err != nil {
			yield(zero, err)
			return
		}
		if ctx == nil {
			yield(zero, errNilContext())
			return
		}
		if err := (&ListOptions{Page: start.Page}).check(); err != nil {
			yield(zero, err)
			return
		}
		ctx, cancel := context.WithCancelCause(c.limiter.watch(ctx))
		var wg sync.WaitGroup
		defer func() {
			cancel(errIterationOver)
			wg.Wait()
		}()
		fetch := func(number int) <-chan fetched[T] {
			ch := make(chan fetched[T], 1)
			s := c.limiter.reserve() // here, so that pages are sent in order
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := s.wait(ctx); err != nil {
					ch <- fetched[T]{number: number, err: err}
					return
				}
				items, resp, err := gauged(s.hold(ctx), c.limiter, func(ctx context.Context) ([]T, *Response, error) {
					return list(ctx, ListOptions{Page: number, Per: MaxPerPage})
				})
				s.release()
				ch <- fetched[T]{number: number, items: items, resp: resp, err: err}
			}()
			return ch
		}

		next := max(start.Page, 1)
		ahead := []<-chan fetched[T]{fetch(next)} // pages in flight, in order
		next++
		width := 1 // pages to keep in flight while a full page is yielded
		var prev []T
		for len(ahead) > 0 {
			p := <-ahead[0]
			ahead = ahead[1:]
			switch {
			case p.err != nil:
				yield(zero, p.err)
				return
			case samePage(prev, p.items):
				yield(zero, fmt.Errorf("%w: page %d", ErrPageRepeated, p.number))
				return
			}
			full := p.resp != nil && p.resp.NextPage > p.number
			if full {
				for c.window > 1 && len(ahead) < min(width, c.window) {
					ahead = append(ahead, fetch(next))
					next++
				}
				width = min(width*2, c.window)
			} else {
				ahead = nil // the last page: what is in flight is past the end
			}
			for _, item := range p.items {
				if !yield(item, nil) {
					return
				}
			}
			if full && len(ahead) == 0 { // no window: the next page once this one is done
				ahead = append(ahead, fetch(next))
				next++
			}
			prev = p.items
		}
	}
}

// fetched is one page of a walk, as its request answered.
type fetched[T any] struct {
	number int
	items  []T
	resp   *Response
	err    error
}

// samePage reports whether two pages hold the same records, judged by the
// IDs at both ends.
func samePage[T listed](a, b []T) bool {
	return len(a) > 0 && len(a) == len(b) &&
		a[0].listID() == b[0].listID() && a[len(a)-1].listID() == b[len(b)-1].listID()
}

// paged is an options struct that embeds ListOptions.
type paged interface{ paging() *ListOptions }

func (o *ListOptions) paging() *ListOptions { return o }

// allPages iterates, as all does, over every record that fetch lists for
// opts (nil for none), from opts.Page on. Each page is fetched with a copy
// of the options of its own, so that the sequence may be ranged over
// concurrently.
func allPages[T listed, O any, P interface {
	*O
	paged
}](ctx context.Context, c *Client, opts P, fetch func(context.Context, P) ([]T, *Response, error)) iter.Seq2[T, error] {
	var o O
	if opts != nil {
		o = *opts
	}
	return all(ctx, c, *P(&o).paging(), func(ctx context.Context, page ListOptions) ([]T, *Response, error) {
		q := o
		*P(&q).paging() = page
		return fetch(ctx, &q)
	})
}
