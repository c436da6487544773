package workforce

import (
	"fmt"
	"net/http"
)

// Response is the HTTP response of a call, its body already read and closed.
// Every secret a server echoed in its status or headers (a request ID, a
// Location, a cookie) is masked, its Request holds neither body nor token,
// and it prints (any verb) its request, status, request ID, NextPage and
// the number of warnings.
type Response struct {
	*http.Response

	// RequestID is the server's ID for the request, if it sent one.
	RequestID string

	// NextPage is the number of the page after the one a list answered, or 0
	// when that page was the last: it held fewer records than the page size
	// (Per, or MaxPerPage when Per is 0, which the client then sends), or
	// none. A full page may be the last one too: the next is then empty.
	NextPage int

	// Warnings lists the values of the answer that fit no form of their
	// field: each field was left at its zero value, and its record kept
	// with the value in its Raw. Empty when every value fit. It holds at
	// most MaxWarnings; MoreWarnings counts those beyond.
	Warnings []Warning

	// MoreWarnings is the number of values that fit no form of their field
	// beyond the MaxWarnings listed in Warnings.
	MoreWarnings int
}

// MaxWarnings is the most warnings a Response lists: an answer whose every
// value fits no form costs no more than one of a hundred such values.
const MaxWarnings = 100

// newResponse wraps hr. Its Request is replaced by a copy that cannot give
// back what was sent: no body, no GetBody (a POST /authenticate body holds
// the keys) and no token in its URL.
func newResponse(hr *http.Response, requestID string) *Response {
	if req := hr.Request; req != nil {
		clean := req.WithContext(req.Context())
		clean.Body, clean.GetBody = http.NoBody, nil
		if clean.URL != nil && clean.URL.Query().Has("token") {
			u := *clean.URL
			q := u.Query()
			q.Del("token")
			u.RawQuery = q.Encode()
			clean.URL = &u
		}
		hr.Request = clean
	}
	return &Response{Response: hr, RequestID: requestID}
}

// Format prints the call and what answered it, such as
// workforce.Response{GET /api_v2/jobs?per=50: 200 OK RequestID:"r-1" NextPage:2 Warnings:0}.
func (r Response) Format(f fmt.State, _ rune) {
	fmt.Fprint(f, "workforce.Response{")
	if hr := r.Response; hr != nil {
		if req := hr.Request; req != nil && req.URL != nil {
			fmt.Fprintf(f, "%s %s: ", req.Method, req.URL.RequestURI())
		}
		fmt.Fprint(f, hr.Status)
	}
	fmt.Fprintf(f, " RequestID:%q NextPage:%d Warnings:%d}", r.RequestID, r.NextPage, len(r.Warnings))
}

// setNextPage fills in NextPage for a page of n records fetched with o.
// When o.Per is 0 (list sends MaxPerPage instead: only a page asked for
// otherwise) the page size is the server's, unknown, so any non-empty page
// may have a successor.
func (r *Response) setNextPage(o ListOptions, n int) {
	if r == nil || n == 0 || (o.Per > 0 && n < min(o.Per, MaxPerPage)) {
		return
	}
	r.NextPage = max(o.Page, 1) + 1
}
