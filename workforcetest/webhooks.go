package workforcetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/workforce-marketplace/workforce-go/webhook"
)

// Webhook delivery (CONTRACT §9). Every state change of a Job or a Job Request is delivered to
// every registered receiver: POST with the resource wrapped in its singular name, signed in the
// X-Service-Webhook-Token header with the secret key of the key pair that owns the resource. A
// delivery that does not get a 2xx within webhookTimeout is tried again 60, 120 and 240 seconds
// later on the fake's clock, so a test moves the clock (Advance) instead of waiting.
//
// A fixed set of senders makes first attempts in the order of the changes of each resource
// (a resource always goes to the same sender); the API call that caused a change never waits
// for its delivery. A retry may reach a receiver after the first attempt of a later change of
// the same resource: receivers compare updated_at, as they must with the real platform.

// webhookTimeout bounds one delivery attempt, in real time.
const webhookTimeout = 5 * time.Second

// webhookRetries is how many times a failed delivery is tried again, after retryWait(1),
// retryWait(2), … on the fake clock.
const webhookRetries = 3

// retryWait returns the wait before retry n (from 1): 60, 120 and 240 seconds.
func retryWait(n int) time.Duration { return time.Minute << (n - 1) }

// webhookSenders is how many deliveries may be in flight at once.
const webhookSenders = 4

// WebhookAttempt is one delivery attempt, as Server.WebhookAttempts reports it.
type WebhookAttempt struct {
	// URL is the receiver's URL.
	URL string `json:"url"`
	// Resource is "job" or "job_request"; ID is the resource's id and State its new state.
	Resource string `json:"resource"`
	ID       int64  `json:"id"`
	State    string `json:"state"`
	// Attempt counts from 1 (the first delivery) to 4 (the last retry).
	Attempt int `json:"attempt"`
	// Status is the receiver's HTTP status, or 0 when it gave none (Error says why).
	Status int `json:"status"`
	// Error says why an attempt got no status, or is empty.
	Error string `json:"error,omitempty"`
	// Time is when the attempt was made, on the fake clock.
	Time time.Time `json:"time"`
	// Body is the body that was sent; Signature its X-Service-Webhook-Token header.
	Body      []byte `json:"body"`
	Signature string `json:"signature"`
}

// OK tells whether the receiver answered 2xx.
func (a WebhookAttempt) OK() bool { return a.Status >= 200 && a.Status <= 299 }

// String describes a in one line, its body as the text it is, such as `attempt 1 of job 1001
// filled to http://127.0.0.1:8080/hooks at 2026-05-01T09:00:00-07:00: 200; body {"job":{...}}`
// (a body cut after 160 bytes: the whole is in Body). It leaves out the Signature, which a test
// compares on its own, and the user, password and query values of the receiver's URL.
func (a WebhookAttempt) String() string {
	outcome := strconv.Itoa(a.Status)
	if a.Error != "" {
		outcome += " (" + a.Error + ")"
	}
	body := a.Body
	cut := ""
	if len(body) > attemptBodyShown {
		body, cut = body[:attemptBodyShown], fmt.Sprintf("… (%d bytes)", len(a.Body))
	}
	return fmt.Sprintf("attempt %d of %s %d %s to %s at %s: %s; body %s%s", a.Attempt, a.Resource, a.ID, a.State,
		shownURL(a.URL), a.Time.Format(time.RFC3339), outcome, strings.ToValidUTF8(string(body), ""), cut)
}

// attemptBodyShown is how much of its body a WebhookAttempt prints: enough to tell the record,
// short enough for a test's log (the whole body is in Body).
const attemptBodyShown = 160

// shownURL is a receiver's URL without a user or password in it, nor its query's values (a
// receiver may take a secret there).
func shownURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a URL that does not parse)"
	}
	u.User = nil
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{"…"}
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// delivery is one change to deliver to one receiver.
type delivery struct {
	url       string
	resource  string
	id        int64
	state     string
	body      []byte
	signature string
	attempt   int       // the next attempt's number, from 1
	due       time.Time // when a retry is due, on the fake clock
}

// hooks is the webhook sender of one server.
type hooks struct {
	clock     *clock
	exchanges *exchangeLog // nil: no exchange log
	client    *http.Client
	ctx       context.Context // ends when the server closes
	wg        sync.WaitGroup

	mu        sync.Mutex
	receivers []string
	queues    [webhookSenders][]*delivery // first attempts and due retries, per sender, in order
	wake      [webhookSenders]chan struct{}
	busy      int // deliveries queued or in flight
	retries   []*delivery
	attempts  []WebhookAttempt
	changed   chan struct{} // closed and replaced whenever attempts or busy change
	faults    webhookFaults // see webhook_faults.go
}

// newHooks starts the senders, which log each attempt in exchanges (if not nil); they stop when
// ctx ends.
func newHooks(ctx context.Context, c *clock, exchanges *exchangeLog) *hooks {
	h := &hooks{clock: c, ctx: ctx, exchanges: exchanges, changed: make(chan struct{}),
		client: &http.Client{Timeout: webhookTimeout, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
	for i := range h.wake {
		h.wake[i] = make(chan struct{}, 1)
		h.wg.Add(1)
		go h.send(i)
	}
	if c.ticking { // retries fall due as the wall clock moves
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					h.dueRetries()
					h.flushHeld()
				}
			}
		}()
	}
	return h
}

// wait waits for the senders to stop, after ctx ended.
func (h *hooks) wait() { h.wg.Wait() }

// checkReceiver refuses a receiver URL that is not http or https to a loopback host.
func checkReceiver(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("workforcetest: webhook receiver %q is not an absolute http or https URL", raw)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && !strings.EqualFold(host, "localhost") {
		return fmt.Errorf("workforcetest: webhook receiver %q is not on a loopback host", raw)
	}
	return nil
}

// register adds a receiver; registering one twice is the same as once.
func (h *hooks) register(raw string) error {
	if err := checkReceiver(raw); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.receivers {
		if r == raw {
			return nil
		}
	}
	h.receivers = append(h.receivers, raw)
	return nil
}

// event is a change to deliver: the resource wrapped in its singular name, signed with secret.
type event struct {
	resource string
	id       int64
	state    string
	body     []byte
	secret   string
}

// emit queues ev for every receiver. It never blocks on a delivery.
func (h *hooks) emit(evs ...event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.receivers) == 0 || h.ctx.Err() != nil {
		return
	}
	held := h.takeHeld() // reordered deliveries go after these
	for _, ev := range evs {
		sig := webhook.Sign(ev.body, ev.secret)
		for _, r := range h.receivers {
			h.route(&delivery{url: r, resource: ev.resource, id: ev.id, state: ev.state, body: ev.body,
				signature: sig, attempt: 1})
		}
	}
	h.release(held)
}

// queue hands d to the sender of its resource. The caller holds h.mu.
func (h *hooks) queue(d *delivery) {
	f := fnv.New32a()
	fmt.Fprintf(f, "%s/%d", d.resource, d.id)
	i := int(f.Sum32() % webhookSenders)
	h.queues[i] = append(h.queues[i], d)
	h.busy++
	select {
	case h.wake[i] <- struct{}{}:
	default:
	}
}

// send is sender i: it delivers its queue in order until the server closes.
func (h *hooks) send(i int) {
	defer h.wg.Done()
	for {
		h.mu.Lock()
		var d *delivery
		if len(h.queues[i]) > 0 {
			d = h.queues[i][0]
			h.queues[i] = h.queues[i][1:]
		}
		h.mu.Unlock()
		if d == nil {
			select {
			case <-h.ctx.Done():
				return
			case <-h.wake[i]:
				continue
			}
		}
		a := h.attempt(d)
		h.mu.Lock()
		h.attempts = append(h.attempts, a)
		if !a.OK() && d.attempt <= webhookRetries {
			d.due = a.Time.Add(retryWait(d.attempt))
			d.attempt++
			h.retries = append(h.retries, d)
		}
		h.busy--
		h.notify()
		h.mu.Unlock()
	}
}

// attempt makes one delivery attempt.
func (h *hooks) attempt(d *delivery) WebhookAttempt {
	a := WebhookAttempt{URL: d.url, Resource: d.resource, ID: d.id, State: d.state, Attempt: d.attempt,
		Time: h.clock.now(), Body: d.body, Signature: d.signature}
	req, err := http.NewRequestWithContext(h.ctx, http.MethodPost, d.url, bytes.NewReader(d.body))
	if err != nil {
		a.Error = err.Error()
		return a
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "workforcetest-webhooks")
	req.Header.Set(webhook.Header, d.signature)
	resp, err := h.client.Do(req)
	if err != nil {
		a.Error = err.Error()
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			a.Error = urlErr.Err.Error()
		}
		return a
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	a.Status = resp.StatusCode
	if h.exchanges != nil {
		h.exchanges.write(Exchange{Webhook: true, Method: req.Method, Path: req.URL.Path, RequestHeader: parseHeader(scrubHeader(req.Header)),
			RequestBody: []byte(scrub(string(d.body))), Status: resp.StatusCode, ResponseHeader: resp.Header.Clone()})
	}
	return a
}

// dueRetries queues the retries that are due on the fake clock.
func (h *hooks) dueRetries() {
	now := h.clock.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	kept := h.retries[:0]
	for _, d := range h.retries {
		if d.due.After(now) || h.ctx.Err() != nil {
			kept = append(kept, d)
			continue
		}
		h.queue(d)
	}
	clear(h.retries[len(kept):])
	h.retries = kept
}

// notify wakes those waiting for attempts. The caller holds h.mu.
func (h *hooks) notify() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// log returns a copy of the attempts so far.
func (h *hooks) log() []WebhookAttempt {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]WebhookAttempt, len(h.attempts))
	for i, a := range h.attempts {
		a.Body = bytes.Clone(a.Body)
		out[i] = a
	}
	return out
}

// idle waits until nothing is queued or in flight (retries not yet due do not count).
func (h *hooks) idle(ctx context.Context) error {
	for {
		h.mu.Lock()
		busy, changed := h.busy, h.changed
		h.mu.Unlock()
		if busy == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-h.ctx.Done():
			return errors.New("workforcetest: the server is closed")
		case <-changed:
		}
	}
}

// AddWebhookReceiver registers url (http or https, on a loopback host) to receive every later
// state change of a Job or a Job Request, signed with the secret key of the key pair that owns
// the resource. Registering a URL twice is the same as once.
func (s *Server) AddWebhookReceiver(url string) error {
	if err := s.hooks.register(url); err != nil {
		return err
	}
	s.st.mu.Lock()
	s.st.bodies = true
	s.st.mu.Unlock()
	return nil
}

// deliver is the store's commit hook: it queues a delivery of each change to every receiver.
func (s *Server) deliver(changes []change) {
	evs := make([]event, 0, len(changes))
	for _, c := range changes {
		if c.body == nil {
			continue // no receiver when the change was made
		}
		evs = append(evs, event{resource: c.kind, id: c.id, state: c.state, body: c.body, secret: s.keys[c.owner].SecretKey})
	}
	if len(evs) > 0 {
		s.hooks.emit(evs...)
	}
}

// WebhookAttempts returns every delivery attempt so far, in the order they ended.
func (s *Server) WebhookAttempts() []WebhookAttempt { return s.hooks.log() }

// WaitWebhooks waits until every delivery due now has been attempted, or ctx ends. Retries not
// yet due on the fake clock are not waited for: Advance the clock past them, then wait again.
func (s *Server) WaitWebhooks(ctx context.Context) error {
	s.hooks.dueRetries()
	s.hooks.flushHeld()
	return s.hooks.idle(ctx)
}
