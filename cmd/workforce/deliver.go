package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
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
// otherwise rebuilt as it stood at the change (see jobAt); rebuilt is then true.
func body(c *feed.Change) (b []byte, rebuilt bool, err error) { return bodyAfter(c, time.Time{}) }

// bodyAfter is body, where a rebuilt Job's updated_at is no earlier than floor: the updated_at of
// the Job's delivery before (a copy sent as received may stand later in the same second as the
// change rebuilt after it).
func bodyAfter(c *feed.Change, floor time.Time) (b []byte, rebuilt bool, err error) {
	switch {
	case c.Err != nil:
		return nil, false, c.Err
	case c.Kind == feed.KindJob && c.Job != nil:
		doc, rebuilt, err := jobAt(c.Job, c, floor)
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
		state, _ := json.Marshal(c.To) // not expected: the copy shows the change
		doc, err = edit(doc, func(key string, _ json.RawMessage) (json.RawMessage, bool) {
			return state, key == "state"
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

// jobAt answers job's document as it stood at the change c. The copy is edited in place: its
// keys keep their order and every value not named here keeps its bytes. state becomes the
// change's; transitions is cut to those up to it; a top-level time (…_at, but created_at and
// updated_at) surely after the change becomes null: one at or past the transition's stamp
// plus its precision (a second: the API cuts transitions' created_at to the second, so a
// started_at of 09:00:48.201 is not after a transition stamped 09:00:48Z). updated_at becomes
// the transition's instant in the copy's own form (offset and digits of fraction), or a kept
// time of the record within that second if later (the record was updated at least then), so
// that it never precedes a time the body shows. Two changes of one second may then carry one
// updated_at: the delivery's X-Workforce-Cli-Transition header tells them apart. Fields
// without a time (hours worked, a note) keep the later copy's values, which the API does not
// tell for the past.
func jobAt(job *workforce.Job, c *feed.Change, floor time.Time) ([]byte, bool, error) {
	doc := []byte(job.Raw)
	if len(doc) == 0 {
		var err error
		if doc, err = json.Marshal(job); err != nil {
			return nil, false, err
		}
	}
	var top struct {
		Transitions []json.RawMessage `json:"transitions"`
		UpdatedAt   workforce.Time    `json:"updated_at"`
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
	after := this.CreatedAt.Add(max(this.CreatedAt.Precision(), time.Second)) // surely after the change from here
	updated := this.CreatedAt.Time
	if floor.After(updated) && floor.Before(after) {
		updated = floor // never before the Job's delivery before, within the change's second
	}
	var kept [][]byte
	for _, t := range trs {
		if keep[t.ID] {
			kept = append(kept, t.doc)
		}
	}
	transitions := append(append([]byte("["), bytes.Join(kept, []byte(","))...), ']')
	state, _ := json.Marshal(c.To)
	// A first pass finds the latest kept time of the record, for updated_at.
	isTime := func(key string, v json.RawMessage) (workforce.Time, bool) {
		var t workforce.Time
		if !strings.HasSuffix(key, "_at") || key == "created_at" || key == "updated_at" ||
			json.Unmarshal(v, &t) != nil || t.IsZero() {
			return t, false
		}
		return t, true
	}
	if _, err := edit(doc, func(key string, v json.RawMessage) (json.RawMessage, bool) {
		if t, ok := isTime(key, v); ok && t.Before(after) && t.After(updated) {
			updated = t.Time
		}
		return nil, false
	}); err != nil {
		return nil, false, fmt.Errorf("the Job %d's document: %w", job.ID, err)
	}
	doc, err := edit(doc, func(key string, v json.RawMessage) (json.RawMessage, bool) {
		switch key {
		case "state":
			return state, true
		case "transitions":
			return transitions, true
		case "updated_at":
			return json.RawMessage(strconv.Quote(formatLike(top.UpdatedAt, updated))), true
		}
		if t, ok := isTime(key, v); ok && !t.Before(after) {
			return json.RawMessage("null"), true
		}
		return nil, false
	})
	return doc, true, err
}

// formatLike writes t as sample is written: in its offset, with as many digits of fraction.
// A zero sample (no updated_at) gives the API's usual form: Pacific time is not known here, so
// UTC to the millisecond.
func formatLike(sample workforce.Time, t time.Time) string {
	layout, p := "2006-01-02T15:04:05", sample.Precision()
	if sample.IsZero() {
		return t.UTC().Format(layout + ".000Z07:00")
	}
	if p > 0 && p < time.Second {
		layout += "."
		for ; p < time.Second; p *= 10 {
			layout += "0"
		}
	}
	return t.In(sample.Location()).Format(layout + "Z07:00")
}

// edit walks the top-level members of the object doc in order and answers doc with the value
// of each member for which fn answers true replaced by fn's value; every other byte is kept.
func edit(doc []byte, fn func(key string, v json.RawMessage) (json.RawMessage, bool)) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []byte
	done := 0
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset())
		if nv, ok := fn(key, v); ok {
			start := end - len(v)
			out = append(append(out, doc[done:start]...), nv...)
			done = end
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return append(out, doc[done:]...), nil
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
