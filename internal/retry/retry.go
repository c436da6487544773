// Package retry is the client's retry policy: which failed attempts are
// sent again, and how long to wait first. The client's retry loop asks
// Decide after each attempt and waits Wait before the next.
//
// Requests whose repetition cannot create a second record are retried on
// transport errors and on 429, 502, 503 and 504; reads also on 500, which a
// server answers to a read that failed for a moment (a lock, a timeout).
// A transport error is a connection that failed or timed out, and, for a
// GET, whose answer the client reads within the attempt, a body cut short
// or stalled. A create is retried only where the server provably did not
// act on it: a 429, or a connection that was never established. Waits have
// full jitter.
package retry

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/workforce-marketplace/workforce-go/internal/auth"
)

// Policy holds the bounds of the retries.
type Policy struct {
	// Retries is how many times a request may be sent again.
	Retries int
	// MinWait and MaxWait bound the exponential backoff. MaxWait is also
	// the longest Retry-After the policy waits for: a longer one ends the
	// retries, and the caller gets the answer that asked for it.
	MinWait, MaxWait time.Duration
	// Second is how long one second of Retry-After lasts; it is
	// time.Second except for a fake server with a clock of its own.
	Second time.Duration
	// Now tells the time for Retry-After dates.
	Now func() time.Time
	// Jitter returns a wait from 0 to d, both included; nil draws it
	// uniformly at random. Tests set it to be deterministic.
	Jitter func(d time.Duration) time.Duration
}

// Kind says what sending a request a second time could do.
type Kind int

const (
	// Read changes nothing: a GET.
	Read Kind = iota
	// Write changes a record, to the same end each time: an update, an
	// action, a delete.
	Write
	// Create could create a second record.
	Create
)

// Decide reports whether an attempt of a request of kind that got resp, or
// failed with err, may be sent again, and why. The context and the number
// of retries left are the caller's to judge.
func (p *Policy) Decide(kind Kind, resp *http.Response, err error) (retry bool, reason string) {
	create := kind == Create
	if err != nil {
		switch {
		case !transient(err):
			return false, "the error would happen again"
		case create && !NeverConnected(err):
			return false, "a create that may have reached the server"
		}
		return true, "the attempt failed: " + err.Error()
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
	case http.StatusInternalServerError:
		if kind != Read {
			return false, "the answer is final"
		}
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		if create {
			return false, "a create answered " + status(resp) + ": the server may have acted"
		}
	default:
		return false, "the answer is final" // the common case, which costs no allocation
	}
	if wait, ok := p.RetryAfter(resp); ok && wait > p.MaxWait {
		return false, "Retry-After is longer than the longest wait"
	}
	return true, "answered " + status(resp)
}

// status names the status of resp, such as "503 Service Unavailable".
func status(resp *http.Response) string {
	return strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode)
}

// Wait returns how long to wait before retry attempt (from 0): the
// response's Retry-After when it has one, else an exponential backoff with
// full jitter: a wait drawn from 0 to MinWait·2^attempt, capped at
// MaxWait, so that clients that failed together do not retry together.
func (p *Policy) Wait(attempt int, resp *http.Response) time.Duration {
	if wait, ok := p.RetryAfter(resp); ok {
		return wait
	}
	ceiling := p.MaxWait
	if wait := float64(p.MinWait) * math.Pow(2, float64(attempt)); wait < float64(p.MaxWait) {
		ceiling = time.Duration(wait)
	}
	if ceiling <= 0 {
		return 0
	}
	if p.Jitter != nil {
		return p.Jitter(ceiling)
	}
	return rand.N(ceiling + 1)
}

// RetryAfter reads the Retry-After header of a 429 or 503 response, in
// seconds or as an HTTP date.
func (p *Policy) RetryAfter(resp *http.Response) (time.Duration, bool) {
	if resp == nil || (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable) {
		return 0, false
	}
	return ParseRetryAfter(resp.Header.Get("Retry-After"), p.Second, p.Now())
}

// ParseRetryAfter reads a Retry-After value: whole seconds, each lasting
// second (time.Second when not positive), or an HTTP date compared with now.
// A date in the past is zero; a number too large to hold is the longest
// duration.
func ParseRetryAfter(v string, second time.Duration, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if second <= 0 {
		second = time.Second
	}
	if strings.Trim(v, "0123456789") != "" { // not delay-seconds (1*DIGIT): "+3", "-1", "1.5", a date
		t, err := http.ParseTime(v)
		if err != nil {
			return 0, false
		}
		return max(t.Sub(now), 0), true
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n > int64(math.MaxInt64/second) {
			return math.MaxInt64, true
		}
		return time.Duration(n) * second, true
	}
	return math.MaxInt64, true // digits too many for an int64: longer than any cap
}

// transient reports whether a transport error may pass if the request is
// sent again: not a failed authentication (already retried on its own), a
// certificate that does not verify, a redirect loop or a malformed request.
func transient(err error) bool {
	var fetchErr *auth.FetchError
	var certErr *tls.CertificateVerificationError
	var authorityErr x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidErr x509.CertificateInvalidError
	if errors.As(err, &fetchErr) || errors.As(err, &certErr) || errors.As(err, &authorityErr) ||
		errors.As(err, &hostErr) || errors.As(err, &invalidErr) {
		return false
	}
	msg := err.Error()
	return !strings.Contains(msg, "stopped after") && !strings.Contains(msg, "unsupported protocol scheme") &&
		!strings.Contains(msg, "invalid header")
}

// NeverConnected reports whether err shows that the request never reached
// a server: the dial failed.
func NeverConnected(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
