package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
)

// body answers the delivery body of c, as the platform sends a webhook: the record wrapped in
// its singular name, as the API answers it after the change.
//
// A Job Request's change is revealed by the copy that shows it, so its document is sent as
// received. A Job's change comes with the copy that revealed it, which may be newer (a copy in
// state approved reveals the filled transition too, when the sync saw no copy between them).
// The document is then sent as received when the change is the copy's latest transition, and
// otherwise rebuilt as it stood at the change: state set to the change's, transitions cut to
// those up to it, updated_at its time, and every other top-level time later than the change
// (started_at, completed_at, …) null. Fields without a time (hours worked, a note) keep the
// later copy's values, which the API does not tell for the past; rebuilt is then true.
func body(c *feed.Change) (b []byte, rebuilt bool, err error) {
	switch {
	case c.Err != nil:
		return nil, false, c.Err
	case c.Kind == feed.KindJob && c.Job != nil:
		doc, rebuilt, err := jobAt(c.Job, c)
		if err != nil {
			return nil, false, err
		}
		return wrap("job", doc), rebuilt, nil
	case c.Kind == feed.KindJobRequest && c.JobRequest != nil:
		doc := []byte(c.JobRequest.Raw)
		if len(doc) == 0 {
			if doc, err = json.Marshal(c.JobRequest); err != nil {
				return nil, false, err
			}
		}
		if string(c.JobRequest.State) == c.To {
			return wrap("job_request", doc), false, nil
		}
		doc, err = edit(doc, func(m map[string]json.RawMessage) error { // not expected: the copy shows the change
			m["state"], _ = json.Marshal(c.To)
			return nil
		})
		return wrap("job_request", doc), true, err
	}
	return nil, false, fmt.Errorf("a change of kind %q without its record", c.Kind)
}

// wrap makes {"name": doc}.
func wrap(name string, doc []byte) []byte {
	var b bytes.Buffer
	b.WriteString(`{"` + name + `":`)
	b.Write(bytes.TrimSpace(doc))
	b.WriteByte('}')
	return b.Bytes()
}

// rawTransition is the part of a transition's document that orders it.
type rawTransition struct {
	ID        int64          `json:"id"`
	CreatedAt workforce.Time `json:"created_at"`
	doc       json.RawMessage
}

// jobAt answers job's document as it stood at the change c (see body).
func jobAt(job *workforce.Job, c *feed.Change) ([]byte, bool, error) {
	doc := []byte(job.Raw)
	if len(doc) == 0 {
		var err error
		if doc, err = json.Marshal(job); err != nil {
			return nil, false, err
		}
	}
	var top struct {
		Transitions []json.RawMessage `json:"transitions"`
	}
	if err := json.Unmarshal(doc, &top); err != nil {
		return nil, false, fmt.Errorf("the Job %d's document: %w", job.ID, err)
	}
	trs := make([]rawTransition, len(top.Transitions))
	for i, d := range top.Transitions {
		if err := json.Unmarshal(d, &trs[i]); err != nil {
			return nil, false, fmt.Errorf("a transition of the Job %d: %w", job.ID, err)
		}
		trs[i].doc = d
	}
	// The API lists transitions newest first; in time order, those of one second keep the
	// copy's order, as the feed orders them.
	byTime := slices.Clone(trs)
	slices.Reverse(byTime)
	slices.SortStableFunc(byTime, func(a, b rawTransition) int { return a.CreatedAt.Compare(b.CreatedAt.Time) })
	at := slices.IndexFunc(byTime, func(t rawTransition) bool { return t.ID == c.TransitionID })
	if at < 0 {
		return nil, false, fmt.Errorf("the Job %d's copy lacks the transition %d", job.ID, c.TransitionID)
	}
	if at == len(byTime)-1 && string(job.State) == c.To {
		return doc, false, nil // the copy is the Job as it was right after the change
	}
	keep := map[int64]bool{}
	for _, t := range byTime[:at+1] {
		keep[t.ID] = true
	}
	this := byTime[at]
	doc, err := edit(doc, func(m map[string]json.RawMessage) error {
		var kept []json.RawMessage
		for _, t := range trs {
			if keep[t.ID] {
				kept = append(kept, t.doc)
			}
		}
		var err error
		if m["transitions"], err = json.Marshal(kept); err != nil {
			return err
		}
		m["state"], _ = json.Marshal(c.To)
		var tr map[string]json.RawMessage
		if err := json.Unmarshal(this.doc, &tr); err == nil && tr["created_at"] != nil {
			m["updated_at"] = tr["created_at"] // in the API's own form
		}
		for k, v := range m {
			if !strings.HasSuffix(k, "_at") || k == "created_at" || k == "updated_at" {
				continue
			}
			var t workforce.Time
			if json.Unmarshal(v, &t) == nil && t.After(this.CreatedAt.Time) {
				m[k] = json.RawMessage("null")
			}
		}
		return nil
	})
	return doc, true, err
}

// edit decodes an object, lets fn change its members, and encodes it again.
func edit(doc []byte, fn func(map[string]json.RawMessage) error) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		return nil, err
	}
	if err := fn(m); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// deliveryLine is the line printed for one delivery attempt.
func deliveryLine(at time.Time, c *feed.Change, status string, latency time.Duration, rebuilt, failed bool) string {
	from := cmp.Or(c.From, "(new)")
	line := fmt.Sprintf("%s  %-11s %-8d %s → %s  %s  %s", at.UTC().Format(time.RFC3339), c.Kind, c.ResourceID,
		from, c.To, status, latency.Round(time.Millisecond))
	if rebuilt {
		line += "  (rebuilt from a later copy)"
	}
	if c.Attempt > 1 {
		line += fmt.Sprintf("  attempt %d", c.Attempt)
	}
	if failed {
		line += "  will retry"
	}
	return oneLine(line)
}
