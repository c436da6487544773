package workforce

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
)

// MaxPerPage is the most records the API returns in one page, whatever
// ListOptions.Per asks for.
const MaxPerPage = 50

// ListOptions selects one page of a list. The zero value asks for the first
// page at the server's default size.
type ListOptions struct {
	// Page is the 1-based page number; 0 means the first.
	Page int `url:"page,omitempty"`
	// Per is the page size, at most MaxPerPage; 0 means the server's default.
	Per int `url:"per,omitempty"`
}

func (o *ListOptions) check() error {
	switch {
	case o.Page < 0:
		return &ArgumentError{Name: "Page", Reason: fmt.Sprintf("must not be negative, got %d", o.Page)}
	case o.Per < 0 || o.Per > MaxPerPage:
		return &ArgumentError{Name: "Per", Reason: fmt.Sprintf("must be from 0 (the server's default) to %d, got %d", MaxPerPage, o.Per)}
	}
	return nil
}

// Response is the HTTP response of a call, its body already read and closed.
type Response struct {
	*http.Response

	// RequestID is the server's ID for the request, if it sent one.
	RequestID string

	// NextPage is the number of the page after the one a list answered, or 0
	// when that page was the last: it held fewer records than the page size,
	// or none. When the list left Per at 0 the page size is the server's,
	// which the client cannot know, so only an empty page is known to be the
	// last.
	NextPage int
}

func newResponse(hr *http.Response) *Response {
	return &Response{Response: hr, RequestID: requestID(hr.Header)}
}

// setNextPage fills in NextPage for a page of n records fetched with o.
// When o.Per is 0 the page size is the server's, unknown, so any non-empty
// page may have a successor.
func (r *Response) setNextPage(o ListOptions, n int) {
	if r == nil || n == 0 || (o.Per > 0 && n < min(o.Per, MaxPerPage)) {
		return
	}
	r.NextPage = max(o.Page, 1) + 1
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
// MaxPerPage at a time; start.Per is ignored. It stops after the last page,
// at the first error (yielded with the zero T), or when the loop breaks; it
// never asks for a page number that does not advance, and stops with
// ErrPageRepeated when a page repeats the one before.
func all[T listed](ctx context.Context, start ListOptions, list lister[T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		page := ListOptions{Page: max(start.Page, 1), Per: MaxPerPage}
		err := (&ListOptions{Page: start.Page}).check()
		var prev []T
		for err == nil {
			var items []T
			var resp *Response
			if items, resp, err = list(ctx, page); err != nil {
				break
			}
			if samePage(prev, items) {
				err = fmt.Errorf("%w: page %d", ErrPageRepeated, page.Page)
				break
			}
			for _, item := range items {
				if !yield(item, nil) {
					return
				}
			}
			if resp == nil || resp.NextPage <= page.Page {
				return
			}
			page.Page, prev = resp.NextPage, items
		}
		var zero T
		yield(zero, err)
	}
}

// samePage reports whether two pages hold the same records, judged by the
// IDs at both ends.
func samePage[T listed](a, b []T) bool {
	return len(a) > 0 && len(a) == len(b) &&
		a[0].listID() == b[0].listID() && a[len(a)-1].listID() == b[len(b)-1].listID()
}
