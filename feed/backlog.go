package feed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

// A Backlog is what a Feed's store holds unhandled, and how far its sync
// has come, as Feed.Backlog answers it for an operator: the same on every
// store of this module's packages.
type Backlog struct {
	// Waiting counts the changes queued and not acknowledged, by every
	// Feed sharing the store, those held included.
	Waiting int64
	// Oldest is the first of them queued, nil when there is none, as the
	// handler is (or will be) handed it: its resource, Seq, Attempt (the
	// claims of it so far), Seen and copy; Err set when it cannot be read.
	// OldestAge is how long ago it was first seen (Change.Seen), by this
	// receiver's clock: how long the backlog has been waiting.
	Oldest    *Change
	OldestAge time.Duration
	// Held counts the changes under a live lease, by the instance holding
	// them (see StoreBacklog.Held): a name holding changes long after its
	// instance died is a crash, whose changes others take when the lease
	// ends.
	Held map[string]int64
	// Jobs and JobRequests are the sync's watermarks: every record the API
	// changed before them (by its clock) is ingested.
	Jobs, JobRequests Watermark
}

// A Watermark is how far one resource's sync has come: At, by the API's
// clock (zero before the first sync completed), and Age, how long before
// now that is by this receiver's clock (0 when At is zero): about the
// time since the last sync began, plus the skew of the two clocks (so
// negative when the API's clock is ahead by more).
type Watermark struct {
	At  time.Time
	Age time.Duration
}

// Backlog answers what the Feed's store holds unhandled, for every Feed
// sharing it, and its sync's watermarks: a view for an operator, read
// without taking anything. The store must be a BacklogReader (those of
// this module's packages are); another answers an error matching
// errors.ErrUnsupported.
func (f *Feed) Backlog(ctx context.Context) (Backlog, error) {
	r, ok := f.store.(BacklogReader)
	if !ok {
		return Backlog{}, fmt.Errorf("feed: the store %T tells no backlog: %w", f.store, errors.ErrUnsupported)
	}
	sb, err := r.Backlog(ctx)
	if err != nil {
		return Backlog{}, fmt.Errorf("feed: reading the backlog: %w", err)
	}
	now := f.now()
	b := Backlog{Waiting: sb.Waiting, Held: sb.Held}
	if sb.Oldest != nil {
		b.Oldest = decodeChange(*sb.Oldest)
		if !b.Oldest.Seen.IsZero() {
			b.OldestAge = max(now.Sub(b.Oldest.Seen), 0)
		}
	}
	for _, w := range []struct {
		mark string
		to   *Watermark
	}{{markJobs, &b.Jobs}, {markJobRequests, &b.JobRequests}} {
		at, err := f.store.Mark(ctx, w.mark)
		if err != nil {
			return Backlog{}, fmt.Errorf("feed: reading the watermark %s: %w", w.mark, err)
		}
		w.to.At = at
		if !at.IsZero() {
			w.to.Age = now.Sub(at)
		}
	}
	return b, nil
}

// processName names this process as a holder of leases: its host name
// and pid.
func processName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return host + "/" + strconv.Itoa(os.Getpid())
}
