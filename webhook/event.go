package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/workforce-marketplace/workforce-go"
)

// Kind says which resource a delivery is about.
type Kind string

// The kinds of event. A delivery whose resource key is none of these has
// the kind KindUnknown; its Key says what it was.
const (
	KindJob        Kind = "job"
	KindJobRequest Kind = "job_request"
	KindUnknown    Kind = "unknown"
)

// An Event is one delivery: a resource as it is after a change of state,
// wrapped in its singular name ({"job": {...}}).
type Event struct {
	// Kind is the resource's kind.
	Kind Kind
	// Key is the name the resource was wrapped in, such as "job"; for an
	// event of unknown kind it says what arrived.
	Key string
	// ID and State are the resource's id and its new state, read for every
	// kind that has them.
	ID    int64
	State string
	// Job is the decoded Job when Kind is KindJob.
	Job *workforce.Job
	// JobRequest is the decoded Job Request when Kind is KindJobRequest.
	JobRequest *workforce.JobRequest
	// Resource is the resource's JSON document, the value under Key.
	Resource json.RawMessage
	// Warnings lists the values of the resource that fit no form of their
	// field, each left zero (see workforce.Warning); empty when every
	// value fit.
	Warnings []workforce.Warning
	// Body is the delivery's body as received.
	Body []byte
}

// Format prints the event readably whatever the verb: its kind, ID and
// state, its warnings, and its JSON documents as their sizes, never their
// bytes. Its record prints on its own (ev.Job, ev.JobRequest).
func (e Event) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "webhook.Event{Kind:%q Key:%q ID:%d State:%q Resource:<%d bytes of JSON> Warnings:%d Body:<%d bytes>}",
		e.Kind, e.Key, e.ID, e.State, len(e.Resource), len(e.Warnings), len(e.Body))
}

// ErrMalformedEvent is matched by the errors of Parse: a body that is not
// one JSON object wrapping one resource object. A Handler's fn answers an
// error matching it to refuse a delivery it can never take (422).
var ErrMalformedEvent = errors.New("webhook: malformed event")

// Parse reads a verified delivery body into an Event. The body must be a
// JSON object with one member, the resource wrapped in its singular name;
// a name that is not known is an event of kind KindUnknown, not an error.
// The resource is decoded as the client decodes answers (see
// workforce.Decode): a value that fits no form of its field is a warning,
// not an error. The Event keeps body; the decoded resource's Raw is a copy
// of its part.
func Parse(body []byte) (*Event, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformedEvent, err)
	}
	if len(doc) != 1 {
		return nil, fmt.Errorf("%w: the body holds %d members, not one resource", ErrMalformedEvent, len(doc))
	}
	ev := &Event{Body: body, Kind: KindUnknown}
	for key, raw := range doc {
		ev.Key, ev.Resource = key, bytes.TrimSpace(raw)
	}
	var head struct {
		ID    int64  `json:"id"`
		State string `json:"state"`
	}
	if len(ev.Resource) == 0 || ev.Resource[0] != '{' {
		return nil, fmt.Errorf("%w: %q does not hold an object", ErrMalformedEvent, ev.Key)
	}
	var err error
	switch ev.Key {
	case string(KindJob):
		ev.Kind = KindJob
		if ev.Warnings, err = workforce.Decode(ev.Resource, &ev.Job); err == nil {
			ev.ID, ev.State = ev.Job.ID, string(ev.Job.State)
		}
	case string(KindJobRequest):
		ev.Kind = KindJobRequest
		if ev.Warnings, err = workforce.Decode(ev.Resource, &ev.JobRequest); err == nil {
			ev.ID, ev.State = ev.JobRequest.ID, string(ev.JobRequest.State)
		}
	default: // unknown: what every resource has, read leniently
		if json.Unmarshal(ev.Resource, &head) == nil {
			ev.ID, ev.State = head.ID, head.State
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrMalformedEvent, ev.Key, err)
	}
	return ev, nil
}
