package workforcetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Webhook delivery faults: the platform's deliveries are at least once, unordered, and dropped
// after their retries, and a receiver is proved right only against a sender that does all of
// that. A fault acts on the first attempt of a delivery (one change to one receiver); retries
// of a delivery that was made are not faulted.

// WebhookFault changes the delivery of the next Times changes it matches, one receiver each.
// The JSON names are those of the control API (POST /_fake/webhooks/faults), which takes Delay
// as delay_seconds.
type WebhookFault struct {
	// Resource is "job" or "job_request"; "" matches both.
	Resource string `json:"resource"`
	// ID is the resource's id; 0 matches any.
	ID int64 `json:"id"`
	// State is the state the change entered; "" matches any.
	State string `json:"state"`
	// Times is how many deliveries the fault applies to; less than 1 counts as 1.
	Times int `json:"times"`
	// Drop loses the delivery: it is never attempted nor retried, as when the platform gives up.
	// WebhookAttempts logs it with Error "dropped by a webhook fault".
	Drop bool `json:"drop"`
	// Duplicate delivers it twice: once as usual, and again later, as Reorder sends.
	Duplicate bool `json:"duplicate"`
	// Reorder holds the delivery back and sends it after the deliveries of the next change, or
	// when WaitWebhooks is called (or a second later, with WithTickingClock), whichever comes
	// first.
	Reorder bool `json:"reorder"`
	// Delay holds the delivery back until the fake clock has moved this far past the change.
	Delay time.Duration `json:"-"`
}

// WebhookChaos makes a share of all deliveries misbehave at random. Each delivery draws once:
// a share Drop of them is dropped, Duplicate duplicated, Reorder reordered and Delay delayed by
// DelayBy, as a WebhookFault with that field set does; the rest are delivered as usual. The
// shares are from 0 to 1 and add up to 1 at most. A WebhookFault that matches a delivery is
// played instead of the chaos.
type WebhookChaos struct {
	Drop      float64       `json:"drop"`
	Duplicate float64       `json:"duplicate"`
	Reorder   float64       `json:"reorder"`
	Delay     float64       `json:"delay"`
	DelayBy   time.Duration `json:"-"`
	// Seed makes the draws repeatable; 0 draws a random seed.
	Seed uint64 `json:"seed"`
}

// check refuses shares out of range.
func (c WebhookChaos) check() error {
	sum := 0.0
	for _, x := range []float64{c.Drop, c.Duplicate, c.Reorder, c.Delay} {
		if !(x >= 0 && x <= 1) {
			return fmt.Errorf("workforcetest: a webhook chaos share must be from 0 to 1, got %v", x)
		}
		sum += x
	}
	if sum > 1+1e-9 {
		return fmt.Errorf("workforcetest: the webhook chaos shares add up to %v, more than 1", sum)
	}
	if c.DelayBy < 0 {
		return fmt.Errorf("workforcetest: the webhook chaos delay must not be negative")
	}
	return nil
}

// webhookFaults is the fault state of a server's webhook sender, guarded by hooks.mu.
type webhookFaults struct {
	chaos  WebhookChaos
	rng    *rand.Rand
	faults []*WebhookFault // Times counts down to 0
	held   []*delivery     // reordered, to be queued after the next change's deliveries
}

// WithWebhookChaos makes a share of the deliveries misbehave from the start (see
// Server.SetWebhookChaos). Start fails when the shares are out of range.
func WithWebhookChaos(c WebhookChaos) Option { return func(cfg *config) { cfg.chaos = &c } }

// SetWebhookChaos makes a share of the later deliveries misbehave (see WebhookChaos); the zero
// WebhookChaos turns it off. It returns an error, and changes nothing, when the shares are out
// of range.
func (s *Server) SetWebhookChaos(c WebhookChaos) error {
	if err := c.check(); err != nil {
		return err
	}
	seed := c.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	s.hooks.faults.chaos, s.hooks.faults.rng = c, rand.New(rand.NewPCG(seed, seed>>1|1))
	return nil
}

// InjectWebhookFault schedules f for the next f.Times deliveries it matches. Faults are matched
// in the order they were injected.
func (s *Server) InjectWebhookFault(f WebhookFault) {
	f.Times = max(f.Times, 1)
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	s.hooks.faults.faults = append(s.hooks.faults.faults, &f)
}

// take returns the fault to play on d: the first injected one that matches, else a chaos draw.
func (w *webhookFaults) take(d *delivery) WebhookFault {
	for i, f := range w.faults {
		if (f.Resource == "" || f.Resource == d.resource) && (f.ID == 0 || f.ID == d.id) && (f.State == "" || f.State == d.state) {
			f.Times--
			if f.Times == 0 {
				w.faults = append(w.faults[:i], w.faults[i+1:]...)
			}
			return *f
		}
	}
	c := w.chaos
	if w.rng == nil {
		return WebhookFault{}
	}
	switch x := w.rng.Float64(); {
	case x < c.Drop:
		return WebhookFault{Drop: true}
	case x < c.Drop+c.Duplicate:
		return WebhookFault{Duplicate: true}
	case x < c.Drop+c.Duplicate+c.Reorder:
		return WebhookFault{Reorder: true}
	case x < c.Drop+c.Duplicate+c.Reorder+c.Delay && c.DelayBy > 0:
		return WebhookFault{Delay: c.DelayBy}
	}
	return WebhookFault{}
}

// route queues the first attempt of d, playing the fault due for it. The caller holds h.mu.
func (h *hooks) route(d *delivery) {
	f := h.faults.take(d)
	switch {
	case f.Drop:
		h.attempts = append(h.attempts, WebhookAttempt{URL: d.url, Resource: d.resource, ID: d.id, State: d.state,
			Attempt: d.attempt, Error: "dropped by a webhook fault", Time: h.clock.now(), Body: d.body, Signature: d.signature})
		h.notify()
		return
	case f.Delay > 0:
		d.due = h.clock.now().Add(f.Delay)
		h.retries = append(h.retries, d) // due like a retry, as its first attempt
	case f.Reorder:
		h.faults.held = append(h.faults.held, d)
	default:
		h.queue(d)
	}
	if f.Duplicate {
		again := *d
		h.faults.held = append(h.faults.held, &again)
	}
}

// takeHeld returns the held deliveries and forgets them. The caller holds h.mu.
func (h *hooks) takeHeld() []*delivery {
	held := h.faults.held
	h.faults.held = nil
	return held
}

// flushHeld queues the held deliveries now.
func (h *hooks) flushHeld() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.release(h.takeHeld())
}

// release queues held deliveries in a random order. The caller holds h.mu.
func (h *hooks) release(held []*delivery) {
	if h.ctx.Err() != nil {
		return // the senders are gone
	}
	if len(held) > 1 {
		shuffle := rand.Shuffle
		if h.faults.rng != nil {
			shuffle = h.faults.rng.Shuffle
		}
		shuffle(len(held), func(i, j int) { held[i], held[j] = held[j], held[i] })
	}
	for _, d := range held {
		h.queue(d)
	}
}

// webhookFaultJSON is a WebhookFault as the control API takes it, with Delay in seconds.
type webhookFaultJSON struct {
	WebhookFault
	DelaySeconds float64 `json:"delay_seconds"`
}

// webhookChaosJSON is a WebhookChaos as the control API takes it, with DelayBy in seconds.
type webhookChaosJSON struct {
	WebhookChaos
	DelaySeconds float64 `json:"delay_seconds"`
}

// seconds converts a number of seconds from the control API, refusing what is not one.
func seconds(x float64) (time.Duration, bool) {
	if !(x >= 0 && x <= float64(math.MaxInt64/time.Second)) {
		return 0, false
	}
	return time.Duration(x * float64(time.Second)), true
}

// decodeStrict decodes a JSON object into v, refusing unknown fields.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalid("body", "must be a JSON object of the documented fields: "+err.Error())
	}
	return nil
}

// controlWebhookFault serves POST /_fake/webhooks/faults with a JSON WebhookFault, answering {}.
func (s *Server) controlWebhookFault(c *call) (any, error) {
	var in webhookFaultJSON
	if err := decodeStrict(c.body, &in); err != nil {
		return nil, err
	}
	d, ok := seconds(in.DelaySeconds)
	if !ok {
		return nil, invalid("delay_seconds", "must be a number of seconds, 0 or more")
	}
	in.Delay = d
	s.InjectWebhookFault(in.WebhookFault)
	return struct{}{}, nil
}

// controlWebhookChaos serves POST /_fake/webhooks/chaos with a JSON WebhookChaos, answering {}.
func (s *Server) controlWebhookChaos(c *call) (any, error) {
	var in webhookChaosJSON
	if err := decodeStrict(c.body, &in); err != nil {
		return nil, err
	}
	d, ok := seconds(in.DelaySeconds)
	if !ok {
		return nil, invalid("delay_seconds", "must be a number of seconds, 0 or more")
	}
	in.DelayBy = d
	if err := s.SetWebhookChaos(in.WebhookChaos); err != nil {
		return nil, invalid("body", err.Error())
	}
	return struct{}{}, nil
}
