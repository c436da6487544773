package workforce

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/workforce-marketplace/workforce-go/internal/auth"
)

// How the request path turns what went wrong with a call into the error
// its caller gets: each error names the call, holds no secret, and says
// whether a write may have been done (docs/OUTCOME.md).

// redirectError describes a 3xx answer to the call cs, naming the host of
// its Location.
func (c *Client) redirectError(cs *callState, hr *http.Response) *RedirectError {
	e := &RedirectError{StatusCode: hr.StatusCode, Method: cs.method, Path: cs.path, RequestID: cs.requestID(hr.Header),
		OutcomeUnknown: cs.outcomeUnknown()} // an attempt may have acted
	if loc, err := url.Parse(hr.Header.Get("Location")); err == nil && hr.Header.Get("Location") != "" {
		if hr.Request != nil && hr.Request.URL != nil {
			loc = hr.Request.URL.ResolveReference(loc)
		}
		if loc.Host != "" {
			e.Location = cs.redactor.String(loc.Scheme + "://" + loc.Host)
		}
	}
	return e
}

// transportError turns an error of the call cs that got no answer into the
// error the caller gets: a *TransportError naming the call and the
// context's error when it ended (with the last status seen); why
// authentication failed; or a *TransportError, its text cleared of
// secrets.
func (c *Client) transportError(cs *callState, err error) error {
	if cs.ctx.Err() != nil { // the caller's deadline or cancel: named with the call
		return &TransportError{Method: cs.method, Path: cs.path, Err: cs.ctx.Err(), LastStatus: cs.lastStatus,
			OutcomeUnknown: cs.outcomeUnknown()}
	}
	var fetchErr *auth.FetchError
	if errors.As(err, &fetchErr) {
		var apiErr *APIError
		var transportErr *TransportError
		var redirectErr *RedirectError
		if errors.As(fetchErr.Err, &apiErr) || errors.As(fetchErr.Err, &transportErr) || errors.As(fetchErr.Err, &redirectErr) {
			return fetchErr.Err // they name POST /api_v2/authenticate already
		}
		return fmt.Errorf("workforce: %s %s: authenticating: %w", cs.method, cs.path, fetchErr.Err)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	e := &TransportError{Method: cs.method, Path: cs.path, Err: cs.redactor.Error(err), OutcomeUnknown: cs.outcomeUnknown()}
	var bodyErr *bodyError
	if errors.As(err, &bodyErr) {
		e.LastStatus = bodyErr.status // answered, but its body was lost
	}
	return e
}

// decodeError describes an answer to the call cs that could not be
// decoded. A value quoted in err may be a secret a server echoed: it is
// hidden whole before the message cuts it short, and the message is
// redacted again, starts of secrets included. A write answered 2xx was
// done, so what it made is lost.
func decodeError(cs *callState, err error) *DecodeError {
	var ve *valueError
	if errors.As(err, &ve) {
		ve.value = cs.redactor.String(ve.value)
	}
	return &DecodeError{Method: cs.method, Path: cs.path, Err: cs.redactor.Error(err), OutcomeUnknown: cs.write}
}

// encodingError returns the *ArgumentError behind a failure to encode the
// request's query or body, or else an *ArgumentError naming the part (a
// channel, a function, NaN, a MarshalJSON that fails): nothing is sent.
func (c *Client) encodingError(part string, err error) error {
	var argErr *ArgumentError
	if errors.As(err, &argErr) {
		return argErr
	}
	return &ArgumentError{Name: part, Reason: "cannot be encoded: " + c.redactor.String(err.Error())}
}

// markStarted records on err, when it matches ErrOutcomeUnknown, when its
// call began and when its last attempt that may have acted was sent.
func markStarted(err error, start, sent time.Time) {
	if at, sentAt := startedOf(err); at != nil {
		*at, *sentAt = start, sent
	}
}

// callStarted returns when the call that failed with err began, and when
// its last attempt that may have acted was sent (never before it began),
// for an err that matches ErrOutcomeUnknown and says so.
func callStarted(err error) (started, sent time.Time, ok bool) {
	at, sentAt := startedOf(err)
	if at == nil || at.IsZero() {
		return time.Time{}, time.Time{}, false
	}
	sent = *sentAt
	if sent.IsZero() || elapsedSince(*at, sent) < 0 {
		sent = *at
	}
	return *at, sent, true
}

// startedOf returns the Started and Sent fields of err when it matches
// ErrOutcomeUnknown, else nils.
func startedOf(err error) (started, sent *time.Time) {
	if !errors.Is(err, ErrOutcomeUnknown) {
		return nil, nil
	}
	var apiErr *APIError
	var redirectErr *RedirectError
	var transportErr *TransportError
	var decodeErr *DecodeError
	var unsettledErr *UnsettledError
	switch { // a typed nil in the chain tells nothing
	case errors.As(err, &unsettledErr) && unsettledErr != nil:
		return &unsettledErr.Started, &unsettledErr.Sent
	case errors.As(err, &apiErr) && apiErr != nil:
		return &apiErr.Started, &apiErr.Sent
	case errors.As(err, &redirectErr) && redirectErr != nil:
		return &redirectErr.Started, &redirectErr.Sent
	case errors.As(err, &transportErr) && transportErr != nil:
		return &transportErr.Started, &transportErr.Sent
	case errors.As(err, &decodeErr) && decodeErr != nil:
		return &decodeErr.Started, &decodeErr.Sent
	}
	return nil, nil
}

// apiError reads a non-2xx answer to the call cs into an *APIError.
func (c *Client) apiError(cs *callState, hr *http.Response) *APIError {
	e := &APIError{StatusCode: hr.StatusCode, Method: cs.method, Path: cs.path, RequestID: cs.requestID(hr.Header),
		OutcomeUnknown: cs.outcomeUnknown()}
	if wait, ok := c.policy.RetryAfter(hr); ok {
		e.RetryAfter = wait
	}
	// Read more than is kept, so that a secret is redacted whole before the
	// body is cut and a long JSON body still yields its message. The body
	// is decoded as it came, and every string read from it redacted after
	// its escapes are undone: "\u0073k_…" is a secret key too.
	raw, _ := io.ReadAll(io.LimitReader(hr.Body, 16*maxErrorBody))
	rd := cs.redactor // with the call's own secrets, if it has any
	body := []byte(rd.String(string(raw)))
	e.Body = body[:min(len(body), maxErrorBody)]
	clean := rd.String
	var doc struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Errors  json.RawMessage `json:"errors"`
	}
	switch list := stringsOf(raw); {
	case json.Unmarshal(raw, &doc) == nil:
		e.Message = clean(firstString(doc.Error, doc.Message))
		var fields map[string]json.RawMessage
		if json.Unmarshal(doc.Errors, &fields) == nil {
			e.FieldErrors = make(map[string][]string, len(fields))
			for name, raw := range fields {
				e.FieldErrors[cs.fieldName(name)] = cleanAll(clean, stringsOf(raw))
			}
		} else {
			e.Errors = cleanAll(clean, stringsOf(doc.Errors))
		}
	case list != nil: // a bare JSON string, or a list of them
		e.Errors = cleanAll(clean, list)
	default: // text; an HTML page or a long text says nothing the status does not
		if text := strings.TrimSpace(string(e.Body)); len(text) <= 200 && !strings.HasPrefix(text, "<") {
			e.Message = text
		}
	}
	if e.Message == "" && len(e.Errors) > 0 {
		e.Message = strings.Join(e.Errors, "; ")
	}
	if len(e.Message) > maxMessage {
		e.Message = strings.ToValidUTF8(e.Message[:maxMessage], "") + "…"
	}
	return e
}

// cleanAll applies clean to every string of list, in place.
func cleanAll(clean func(string) string, list []string) []string {
	for i, v := range list {
		list[i] = clean(v)
	}
	return list
}

// firstString returns the first of raws that holds a string (or a list of
// them, joined).
func firstString(raws ...json.RawMessage) string {
	for _, raw := range raws {
		if s := strings.Join(stringsOf(raw), "; "); s != "" {
			return s
		}
	}
	return ""
}

// stringsOf reads a JSON string, or an array of strings, as a list. Other
// values inside an array are kept in their JSON form.
func stringsOf(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if one == "" {
			return nil
		}
		return []string{one}
	}
	var many []json.RawMessage
	if json.Unmarshal(raw, &many) != nil {
		return nil
	}
	out := make([]string, 0, len(many))
	for _, m := range many {
		if json.Unmarshal(m, &one) != nil {
			one = string(m)
		}
		out = append(out, one)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// requestID returns the request ID an answer to the call carries, if
// any, with any secret a server echoed in it redacted.
func (cs *callState) requestID(h http.Header) string {
	return cs.redactor.String(rawRequestID(h))
}

// fieldName returns the name of a field of a 422 to the call, its secrets
// hidden, unless the name is one the call sent: a password such as
// "password" must not take the name of its field.
func (cs *callState) fieldName(name string) string {
	clean := cs.redactor.String(name)
	if clean != name && cs.sentMember(name) {
		return name
	}
	return clean
}

// sentMember tells whether the JSON body the call sent has a member of
// that name, at any depth.
func (cs *callState) sentMember(name string) bool {
	if cs.body == nil {
		return false
	}
	body := cs.body()
	defer body.Close()
	dec := json.NewDecoder(io.LimitReader(body, maxOneBody))
	var stack []bool // for each open value: whether it is an object
	key := false     // whether the next token is a member's name
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				stack, key = append(stack, v == '{'), v == '{'
				continue
			}
			stack = stack[:len(stack)-1]
		case string:
			if key {
				if v == name {
					return true
				}
				key = false
				continue
			}
		}
		key = len(stack) > 0 && stack[len(stack)-1] // a value ended: a name may follow
	}
}

// rawRequestID reads the request ID header as the server sent it.
func rawRequestID(h http.Header) string {
	for _, name := range []string{"X-Request-Id", "Request-Id", "X-Correlation-Id"} {
		if v := h.Get(name); v != "" {
			return v
		}
	}
	return ""
}
