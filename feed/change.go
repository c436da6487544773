package feed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/workforce-marketplace/workforce-go"
)

// Kind says which resource a change is about.
type Kind string

// The kinds of resource whose changes the feed hands over.
const (
	KindJob        Kind = "job"
	KindJobRequest Kind = "job_request"
)

// Source says how the feed first learned of a change.
type Source string

// The sources of a change: a webhook delivery, the sync, or a copy the
// caller ingested itself (IngestJob, IngestJobRequest).
const (
	SourceWebhook Source = "webhook"
	SourceSync    Source = "sync"
	SourceCaller  Source = "caller"
)

// A Change is one state change of a Job or a Job Request, as the feed
// hands it to the Handler.
type Change struct {
	// Kind and ResourceID name the Job or Job Request that changed.
	Kind       Kind
	ResourceID int64
	// Seq numbers the resource's changes from 1, in the order they are
	// handed over: a resource's change Seq is handed over only after its
	// change Seq-1 was acknowledged.
	Seq int64
	// TransitionID is the id of the Job's transition (0 for a Job Request).
	TransitionID int64
	// From is the state before the change, as the Job's transitions say
	// (a Job) or as the feed last knew it (a Job Request); "" when there is
	// none: a Job's first transition, or a Job Request first seen.
	From string
	// To is the state entered.
	To string
	// At is when the change happened: the transition's created_at (a Job),
	// or the updated_at of the copy that revealed it (a Job Request).
	At time.Time
	// Job is the copy of the Job that revealed the change (Kind KindJob),
	// as received, with its Raw document; it may be newer than the change
	// (a copy in state approved reveals its filled transition too).
	Job *workforce.Job
	// JobRequest is the copy of the Job Request that revealed the change
	// (Kind KindJobRequest), with its Raw document.
	JobRequest *workforce.JobRequest
	// Source is how the feed first learned of the change, and Seen when.
	Source Source
	Seen   time.Time
	// Attempt counts the times the change was handed over, from 1: more
	// than 1 after a Handler error or a lost lease.
	Attempt int
	// Err, when not nil, matches ErrCorrupt: the stored change or its copy
	// cannot be decoded, and only Kind, ResourceID, Seq, Attempt and what
	// else could be read are set (Job and JobRequest are nil). Returning
	// nil acknowledges it, so that the resource's later changes follow; an
	// error keeps it, to be handed over again after the backoff.
	Err error
}

// wireChange is a Change as the feed stores it (encodeWire).
type wireChange struct {
	Kind         Kind            `json:"kind"`
	ID           int64           `json:"id"`
	Seq          int64           `json:"seq"`
	TransitionID int64           `json:"transition_id,omitempty"`
	From         string          `json:"from"`
	To           string          `json:"to"`
	At           time.Time       `json:"at"`
	Source       Source          `json:"source"`
	Seen         time.Time       `json:"seen"`
	Copy         json.RawMessage `json:"copy,omitempty"` // last: see encodeWire
}

// copyMember joins a stored change's header and its copy (encodeWire).
var copyMember = []byte(`,"copy":`)

// encodeWire answers c as the feed stores it: one JSON object, c's fields
// with its copy last, as it came (a JSON object: decoded by the SDK, or
// checked by checkRaw), so that storing the change does not go over the
// copy. It is what json.Marshal made of c in earlier versions (the copy
// was last there too, compacted), so that they read it, and decodeWire
// reads theirs.
func encodeWire(c wireChange) ([]byte, error) {
	doc := c.Copy
	c.Copy = nil
	head, err := json.Marshal(c) // {"kind":…,"seen":…}
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(head)+len(copyMember)+len(doc))
	b = append(append(append(b, head[:len(head)-1]...), copyMember...), doc...)
	return append(b, '}'), nil
}

// cutCopy splits a stored change into its header (a JSON object of its
// other fields) and its copy, without going over the copy: the copy is
// its last member, and the first ,"copy": is where it starts, since
// json.Marshal escapes every quote in the header's strings. It answers
// data and no copy when data is not of that form.
func cutCopy(data []byte) (head, doc []byte) {
	i := bytes.Index(data, copyMember)
	t := bytes.TrimRight(data, " \t\r\n")
	if i < 0 || len(t) <= i+len(copyMember) || t[len(t)-1] != '}' {
		return data, nil
	}
	return append(data[:i:i], '}'), t[i+len(copyMember) : len(t)-1]
}

// decodeChange reads back the stored change c claimed, with its copy
// decoded; one that cannot be read comes with Err set.
func decodeChange(c Claim) *Change {
	ch, err := decodeWire(c.Data, c.Attempt)
	if err != nil {
		if ch == nil {
			ch = &Change{Kind: c.Resource.Kind, ResourceID: c.Resource.ID, Seq: c.Seq, Attempt: c.Attempt}
		}
		ch.Job, ch.JobRequest, ch.Err = nil, nil, err
	}
	return ch
}

// decodeWire decodes a stored change; when only its copy cannot be
// decoded, it answers the change read so far too.
func decodeWire(data []byte, attempt int) (*Change, error) {
	var w wireChange
	head, doc := cutCopy(data)
	if err := json.Unmarshal(head, &w); err != nil {
		return nil, fmt.Errorf("%w: a stored change: %v", ErrCorrupt, err)
	}
	if doc != nil {
		w.Copy = doc
	}
	c := &Change{Kind: w.Kind, ResourceID: w.ID, Seq: w.Seq, TransitionID: w.TransitionID, From: w.From, To: w.To,
		At: w.At, Source: w.Source, Seen: w.Seen, Attempt: attempt}
	// The copy is decoded as the SDK decoded it when it was ingested
	// (workforce.Decode: lenient forms, Raw, IDs filled in from embedded
	// objects), so that a copy ingested is never refused here; its
	// warnings were the ingest's to tell.
	var err error
	switch w.Kind {
	case KindJob:
		_, err = workforce.Decode(w.Copy, &c.Job)
	case KindJobRequest:
		_, err = workforce.Decode(w.Copy, &c.JobRequest)
	default:
		err = fmt.Errorf("unknown kind %q", w.Kind)
	}
	if err != nil {
		return c, fmt.Errorf("%w: stored change %s %d #%d: %v", ErrCorrupt, w.Kind, w.ID, w.Seq, err)
	}
	return c, nil
}

// record is what the feed keeps of one resource: enough to tell which
// changes a copy reveals that it has not queued already.
type record struct {
	// Seq is the number of changes queued so far.
	Seq int64 `json:"seq"`
	// Known holds the ids of a Job's transitions queued so far.
	Known []int64 `json:"known,omitempty"`
	// State and Updated are a Job Request's state and updated_at as the
	// newest copy ingested told them.
	State   string    `json:"state,omitempty"`
	Updated time.Time `json:"updated,omitzero"`
}

// readRecord decodes a stored record; nil or empty is a resource never seen.
func readRecord(b []byte) (record, error) {
	var r record
	if len(b) == 0 {
		return r, nil
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%w: a stored record: %v", ErrCorrupt, err)
	}
	return r, nil
}

// copyOf answers a resource's JSON document: Raw as received (decoded by
// the SDK, or checked by checkRaw), or the resource encoded when it has
// none (one built by the caller).
func copyOf(raw json.RawMessage, v any) (json.RawMessage, error) {
	if len(raw) > 0 {
		return raw, nil
	}
	return json.Marshal(v)
}

// checkRaw answers an error unless raw (the Raw of a copy the caller
// passes) is empty or reads back, as the feed reads a stored copy, as a
// record of id (idOf tells a record's id): a Raw that does not would reach
// the handler as a corrupt change, or as another resource's copy.
func checkRaw[T any](raw json.RawMessage, id int64, idOf func(*T) int64) error {
	if len(raw) == 0 {
		return nil
	}
	var v *T
	if _, err := workforce.Decode(raw, &v); err != nil {
		return fmt.Errorf("its Raw cannot be read back: %w", err)
	}
	if v == nil || idOf(v) != id {
		return errors.New("its Raw is a copy of another record")
	}
	return nil
}

// history answers a Job's transitions oldest first: the API lists them
// newest first; they are put in time order, transitions of the same second
// keeping the order the copy gave them.
func history(job *workforce.Job) []workforce.Transition {
	ts := slices.Clone(job.Transitions)
	slices.Reverse(ts)
	slices.SortStableFunc(ts, func(a, b workforce.Transition) int { return a.CreatedAt.Compare(b.CreatedAt.Time) })
	return ts
}

// timePrecision is the coarsest precision of the API's timestamps
// (transitions' created_at is cut to the second, CONTRACT §10).
const timePrecision = time.Second

// beforeStart tells whether a change stamped at was surely made before
// horizon (WithStartFromNow): one stamped in the start's second may have
// been made after it, and is handed over (at least once).
func beforeStart(at, horizon time.Time) bool {
	return !at.Add(timePrecision).After(horizon)
}

// revealJob answers the changes a copy of a Job reveals beyond rec: its
// transitions that rec does not know, in time order, each from the state
// of the transition before it in the copy. It answers the record to keep,
// or changed false when there is nothing new. A transition made before
// horizon is recorded as known and not handed over.
func revealJob(rec record, job *workforce.Job, src Source, now, horizon time.Time) (record, []wireChange, error) {
	known := make(map[int64]bool, len(rec.Known))
	for _, id := range rec.Known {
		known[id] = true
	}
	var out []wireChange
	var doc json.RawMessage
	from := ""
	for _, t := range history(job) {
		if t.ID > 0 && !known[t.ID] && beforeStart(t.CreatedAt.Time, horizon) {
			known[t.ID] = true
			rec.Known = append(rec.Known, t.ID)
		} else if t.ID > 0 && !known[t.ID] {
			if doc == nil {
				var err error
				if doc, err = copyOf(job.Raw, job); err != nil {
					return rec, nil, err
				}
			}
			known[t.ID] = true
			rec.Seq++
			rec.Known = append(rec.Known, t.ID)
			out = append(out, wireChange{Kind: KindJob, ID: job.ID, Seq: rec.Seq, TransitionID: t.ID,
				From: from, To: string(t.Name), At: t.CreatedAt.UTC(), Source: src, Seen: now, Copy: doc})
		}
		from = string(t.Name)
	}
	return rec, out, nil
}

// jobRequestRank orders the states of a Job Request along its life, for
// copies of the same updated_at: the platform may move a Job Request
// through several states in one instant (in_progress, completed and
// approved as its last Job is approved), and only the furthest along is
// taken as the newest. A state this package does not know ranks lowest.
func jobRequestRank(state string) int {
	switch workforce.JobRequestState(state) {
	case workforce.JobRequestDraft:
		return 1
	case workforce.JobRequestUnassigned, workforce.JobRequestPosted:
		return 2
	case workforce.JobRequestFilled:
		return 3
	case workforce.JobRequestInProgress:
		return 4
	case workforce.JobRequestCompleted:
		return 5
	case workforce.JobRequestApproved:
		return 6
	case workforce.JobRequestCancelled, workforce.JobRequestUnfilled:
		return 7
	}
	return 0
}

// revealJobRequest answers the change a copy of a Job Request reveals
// beyond rec, and the record to keep (write false: keep the old one). A
// copy is newer than rec when its updated_at is later, or the same and its
// state further along the Job Request's life (jobRequestRank); an older
// copy reveals nothing, and a newer one a change when its state differs
// from the last known. A copy updated before horizon only sets the record.
func revealJobRequest(rec record, jr *workforce.JobRequest, src Source, now, horizon time.Time) (record, []wireChange, bool, error) {
	state, at := string(jr.State), jr.UpdatedAt.UTC()
	if rec.Seq > 0 || !rec.Updated.IsZero() {
		switch c := at.Compare(rec.Updated); {
		case c < 0, c == 0 && jobRequestRank(state) <= jobRequestRank(rec.State):
			return rec, nil, false, nil // not newer than what is known
		case state == rec.State: // newer, the state unchanged: an edit
			rec.Updated = at
			return rec, nil, true, nil
		}
	}
	if beforeStart(at, horizon) {
		rec.State, rec.Updated = state, at
		return rec, nil, true, nil
	}
	doc, err := copyOf(jr.Raw, jr)
	if err != nil {
		return rec, nil, false, err
	}
	from := rec.State
	rec.Seq++
	rec.State, rec.Updated = state, at
	return rec, []wireChange{{Kind: KindJobRequest, ID: jr.ID, Seq: rec.Seq, From: from, To: state, At: at,
		Source: src, Seen: now, Copy: doc}}, true, nil
}
