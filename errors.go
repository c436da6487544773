package workforce

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sentinels an *APIError matches with errors.Is, by its status code.
var (
	// ErrUnauthorized matches a 401: a missing, invalid or expired token, or
	// wrong keys.
	ErrUnauthorized = errors.New("workforce: unauthorized")
	// ErrForbidden matches a 403: the key pair's access level (Public Pool)
	// does not allow the call.
	ErrForbidden = errors.New("workforce: forbidden")
	// ErrNotFound matches a 404: no such record, or one the key cannot see.
	ErrNotFound = errors.New("workforce: not found")
	// ErrUnprocessable matches a 422: invalid parameters or a state move the
	// API does not allow.
	ErrUnprocessable = errors.New("workforce: unprocessable")
	// ErrRateLimited matches a 429; APIError.RetryAfter says how long the
	// server asked to wait.
	ErrRateLimited = errors.New("workforce: rate limited")
	// ErrServer matches any 5xx.
	ErrServer = errors.New("workforce: server error")
)

// ErrOutcomeUnknown is matched by the error of a write (a create, an
// update, an action) that may have been done although the caller was not
// told. Sending it again could do it twice: settle it first (each create
// has a Settle). An error that does not match it means nothing was done.
// docs/OUTCOME.md says when each case arises.
var ErrOutcomeUnknown = errors.New("workforce: the write may or may not have been done")

// ErrInvalidArgument is matched by every *ArgumentError: a call refused
// before anything was sent.
var ErrInvalidArgument = errors.New("workforce: invalid argument")

// How much of an error response's body an APIError keeps, and of the
// message it reads from the body.
const (
	maxErrorBody = 4 << 10
	maxMessage   = 1 << 10
)

// ErrOtherRecord is matched by the *DecodeError of a call on one record by
// its ID (a get, an update, an action) whose answer is another record,
// holds no usable ID (none, null, 0, or one that fits no form, as Decode
// refuses), or names two IDs (in any case: "ID" is "id"): nothing of it is
// returned.
var ErrOtherRecord = errors.New("workforce: the answer is another record")

// An APIError is an answer of the API with a status other than 2xx.
type APIError struct {
	// StatusCode is the HTTP status, such as 404.
	StatusCode int
	// Method and Path name the call, e.g. "GET" and "/api_v2/jobs/42".
	// Path never holds the query.
	Method, Path string
	// Message is the server's description of the error, if it gave one.
	Message string
	// FieldErrors holds the messages of a 422 by parameter name.
	FieldErrors map[string][]string
	// Errors holds messages that name no field.
	Errors []string
	// RequestID is the server's ID for the request, from the X-Request-Id
	// or Request-Id header, if any.
	RequestID string
	// RetryAfter is the wait a 429 or 503 asked for, or zero.
	RetryAfter time.Duration
	// Body is the start of the response body (at most 4 KiB), secrets removed.
	Body []byte
	// OutcomeUnknown is true for a write that may have been done all the
	// same: this answer is a 5xx other than a 503 with a Retry-After (a
	// router answers 503 after passing the request on), or an earlier attempt may
	// have reached the server without an answer. It makes the error match
	// ErrOutcomeUnknown.
	OutcomeUnknown bool
	// Started is when the call began, by the local clock, on a create's error
	// that matches ErrOutcomeUnknown (else zero): the services' Settle
	// methods read it to tell the record the call may have made from
	// older ones.
	Started time.Time
	// Sent is when the last attempt that may have done the write was
	// sent (its connection made, its request written), by the local
	// clock, on an error that matches ErrOutcomeUnknown: a Settle counts
	// its horizon from it.
	Sent time.Time
}

// Error describes the error in one line, e.g.
// "workforce: GET /api_v2/jobs/42: 404 Not Found: no such job".
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "workforce: %s %s: %d %s", e.Method, e.Path, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	for _, field := range sortedKeys(e.FieldErrors) {
		text := field + " " + strings.Join(e.FieldErrors[field], ", ")
		if !strings.Contains(e.Message, text) { // servers often say it in the message already
			b.WriteString("; " + text)
		}
	}
	if e.OutcomeUnknown {
		b.WriteString("; the write may or may not have been done")
	}
	if e.RequestID != "" {
		b.WriteString(" (request " + e.RequestID + ")")
	}
	return b.String()
}

// Is reports whether target is the sentinel for e's status code.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrUnprocessable:
		return e.StatusCode == http.StatusUnprocessableEntity
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests
	case ErrServer:
		return e.StatusCode >= 500 && e.StatusCode <= 599
	case ErrOutcomeUnknown:
		return e.OutcomeUnknown
	}
	return false
}

// ErrRedirect is matched by every *RedirectError.
var ErrRedirect = errors.New("workforce: redirect refused")

// A RedirectError is an answer with a 3xx status. The client follows no
// redirect: the API needs none, and following one could carry the keys, the
// token or a request body to wherever it points. It matches ErrRedirect.
type RedirectError struct {
	// StatusCode is the HTTP status, such as 307.
	StatusCode int
	// Method and Path name the call.
	Method, Path string
	// Location is the scheme and host the answer pointed to, such as
	// "https://other.example.com", never its path or query; "" when the
	// answer named no valid Location.
	Location string
	// RequestID is the server's ID for the request, if it sent one.
	RequestID string
	// OutcomeUnknown is true for a write: a redirect may answer a write
	// that was done (see ErrOutcomeUnknown).
	OutcomeUnknown bool
	// Started is when the call began, by the local clock, on a create's error
	// that matches ErrOutcomeUnknown (else zero): the services' Settle
	// methods read it to tell the record the call may have made from
	// older ones.
	Started time.Time
	// Sent is when the last attempt that may have done the write was
	// sent (its connection made, its request written), by the local
	// clock, on an error that matches ErrOutcomeUnknown: a Settle counts
	// its horizon from it.
	Sent time.Time
}

// Error names the call, the status and where it pointed.
func (e *RedirectError) Error() string {
	to := ""
	if e.Location != "" {
		to = " to " + strconv.QuoteToASCII(e.Location) // no bidi or look-alike text in a log line
	}
	return fmt.Sprintf("workforce: %s %s: %d %s%s refused: the client follows no redirects",
		e.Method, e.Path, e.StatusCode, http.StatusText(e.StatusCode), to)
}

// Is reports whether target is ErrRedirect, or ErrOutcomeUnknown when the
// write may have been done.
func (e *RedirectError) Is(target error) bool {
	return target == ErrRedirect || (target == ErrOutcomeUnknown && e.OutcomeUnknown)
}

// A TransportError is a call that got no answer it could use: the
// connection failed, the body could not be read (it was cut short, or
// stalled: nothing arrived for Timeouts.BodyStall, and Err matches
// os.ErrDeadlineExceeded), or the caller's context ended (then Err is the
// context's error, so errors.Is(err, context.DeadlineExceeded) holds, and
// LastStatus says what the last attempt, if any, was answered). A timeout
// of Timeouts makes Err report Timeout() true, as a net.Error does.
type TransportError struct {
	// Method and Path name the call.
	Method, Path string
	// Err is the network error, or the context's.
	Err error
	// LastStatus is the HTTP status of the last answer the call got and
	// could not use: one whose body was cut short or stalled (Err then
	// names its request ID, if any), or the last before the context ended,
	// such as 503 while waiting to retry; 0 when none came.
	LastStatus int
	// OutcomeUnknown is true for a write that may have reached the server
	// with no answer that says what was done (see ErrOutcomeUnknown). It
	// makes the error match ErrOutcomeUnknown. When false, no attempt had a
	// connection, or every one was answered that nothing was done.
	OutcomeUnknown bool
	// Started is when the call began, by the local clock, on a create's error
	// that matches ErrOutcomeUnknown (else zero): the services' Settle
	// methods read it to tell the record the call may have made from
	// older ones.
	Started time.Time
	// Sent is when the last attempt that may have done the write was
	// sent (its connection made, its request written), by the local
	// clock, on an error that matches ErrOutcomeUnknown: a Settle counts
	// its horizon from it.
	Sent time.Time
}

// Error names the call, the error and the last status seen, and says when
// the write may have been done.
func (e *TransportError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "workforce: %s %s: %v", e.Method, e.Path, e.Err)
	if e.LastStatus != 0 {
		fmt.Fprintf(&b, " (last answer: %d %s)", e.LastStatus, http.StatusText(e.LastStatus))
	}
	if e.OutcomeUnknown {
		b.WriteString("; the write may or may not have been done")
	}
	return b.String()
}

// Unwrap returns the underlying network error.
func (e *TransportError) Unwrap() error { return e.Err }

// Is reports whether target is ErrOutcomeUnknown and the write may have
// been done.
func (e *TransportError) Is(target error) bool {
	return target == ErrOutcomeUnknown && e.OutcomeUnknown
}

// A DecodeError is a 2xx answer whose body is not the JSON the call expects.
type DecodeError struct {
	// Method and Path name the call.
	Method, Path string
	// Err is the JSON error.
	Err error
	// OutcomeUnknown is true for a write: its 2xx says it was done, but
	// what it made is lost. It makes the error match ErrOutcomeUnknown.
	OutcomeUnknown bool
	// Started is when the call began, by the local clock, on a create's error
	// that matches ErrOutcomeUnknown (else zero): the services' Settle
	// methods read it to tell the record the call may have made from
	// older ones.
	Started time.Time
	// Sent is when the last attempt that may have done the write was
	// sent (its connection made, its request written), by the local
	// clock, on an error that matches ErrOutcomeUnknown: a Settle counts
	// its horizon from it.
	Sent time.Time
}

// Error names the call and what could not be decoded.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("workforce: %s %s: decoding the answer: %v", e.Method, e.Path, e.Err)
}

// Unwrap returns the JSON error.
func (e *DecodeError) Unwrap() error { return e.Err }

// Is reports whether target is ErrOutcomeUnknown and the write was done.
func (e *DecodeError) Is(target error) bool { return target == ErrOutcomeUnknown && e.OutcomeUnknown }

// A valueError is a value of an answer that could not be decoded. It keeps
// the value whole, so that the client hides the secrets in it before the
// message cuts it short (a start of a secret is a secret too).
type valueError struct {
	format string // the message, with one verb for the value, such as "%.40q is not a number"
	value  string
}

// Error describes the value, cut short by the format.
func (e *valueError) Error() string { return fmt.Sprintf(e.format, e.value) }

// An ArgumentError is a call refused before any I/O because an argument is
// missing or out of range. It matches ErrInvalidArgument.
type ArgumentError struct {
	// Name is the argument or field, e.g. "id" or "WorkerID".
	Name string
	// Reason says what is wrong, e.g. "must be positive".
	Reason string
}

// Error names the argument and what is wrong with it.
func (e *ArgumentError) Error() string { return "workforce: " + e.Name + " " + e.Reason }

// Is reports whether target is ErrInvalidArgument.
func (e *ArgumentError) Is(target error) bool { return target == ErrInvalidArgument }
