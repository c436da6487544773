package workforce

import (
	"io"
	"net/http"
	"time"

	"github.com/workforce-marketplace/workforce-go/internal/retry"
)

// send is the retry loop: it sends req, attempt after attempt, until
// shouldRetry says an attempt's end is final, waiting between attempts as
// the policy says or until the call's context ends. It returns the last
// attempt's answer, or its error; never both.
func (c *Client) send(cs *callState, req *http.Request) (*http.Response, error) {
	for {
		sent := time.Now()
		resp, err := c.attempt(cs, req)
		if cs.limiter != nil {
			status := 0
			if resp != nil {
				status = resp.StatusCode
			}
			if cs.gauge != nil && status >= 200 && status <= 299 { // told once its page is counted
				*cs.gauge = gauge{sent: sent, rtt: time.Since(sent), ok: true}
			} else {
				cs.limiter.observe(sent, time.Since(sent), status)
			}
		}
		cs.attempted(resp, err)
		c.logAnswer(cs, resp)
		again, reason := c.shouldRetry(cs, resp, err)
		if !again {
			if cs.ctx.Err() != nil { // whatever the attempt got: the caller has given up
				closeBody(resp)
				return nil, cs.ctx.Err()
			}
			return resp, err
		}
		wait := c.policy.Wait(cs.attempts-1, resp)
		drain(resp) // so that its connection is reused
		c.logRetry(cs, reason, wait)
		if !sleep(cs, wait) {
			return nil, cs.ctx.Err()
		}
		if cs.place != nil && resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
			if err := cs.place.rejoin(cs.ctx); err != nil { // sent again within the window the refusal closed
				return nil, err
			}
		}
	}
}

// shouldRetry reports whether the call may send another attempt after one
// that got resp or failed with err, and why.
func (c *Client) shouldRetry(cs *callState, resp *http.Response, err error) (bool, string) {
	switch {
	case cs.ctx.Err() != nil:
		return false, "the context ended"
	case cs.sendOnce:
		return false, "its body cannot be sent again"
	case cs.attempts > c.policy.Retries:
		return false, "no retries left"
	}
	return c.policy.Decide(cs.kind(), resp, err)
}

// kind says what sending the call again could do, for the retry policy.
func (cs *callState) kind() retry.Kind {
	switch {
	case cs.create:
		return retry.Create
	case cs.method == http.MethodGet:
		return retry.Read
	}
	return retry.Write
}

// attempt sends req once, with a fresh body: through the token transport,
// which may renew the token on a 401 and replay it, unless the call is
// public. The whole body of a GET answered 2xx is read within the attempt,
// so that a body cut short or stalled fails the attempt, to be retried
// like any transient failure. A write's body is read after the loop: a
// write whose answer was cut short was done, and is not sent again.
func (c *Client) attempt(cs *callState, req *http.Request) (*http.Response, error) {
	cs.attempts++
	if cs.body != nil {
		req = req.WithContext(req.Context()) // a copy: the last attempt's transport may still hold the one before
		req.Body = cs.body()
	}
	hc := c.http
	if cs.public {
		hc = c.publicHTTP
	}
	resp, err := hc.Do(req)
	if err != nil || req.Method != http.MethodGet || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp, err
	}
	a, err := readAnswer(resp.Body, resp.ContentLength, cs.limits.body)
	if err != nil {
		return nil, bodyFailed(resp, err)
	}
	resp.Body = a
	return resp, nil
}

// sleep waits d, and reports false when the call's context ends first.
func sleep(cs *callState, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-cs.ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// drain reads what is left of a body that is not wanted, up to a limit, and
// closes it, so that its connection can be reused.
func drain(resp *http.Response) {
	if resp != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
	}
}

// closeBody closes the body of an answer that is not wanted.
func closeBody(resp *http.Response) {
	if resp != nil {
		resp.Body.Close()
	}
}
