package feed

import (
	"context"
	"errors"
	"time"
)

// A Resource names one Job or Job Request.
type Resource struct {
	Kind Kind
	ID   int64
}

// Queued is a change a Store keeps until it is acknowledged: its number
// among its resource's changes, from 1, and its encoding, opaque to the
// Store.
type Queued struct {
	Seq  int64
	Data []byte
}

// A Claim is a queued change leased to one Feed, as Store.Claim answers it.
type Claim struct {
	Resource Resource
	Seq      int64
	Data     []byte
	// Attempt counts the claims of this change, this one included.
	Attempt int
	// Token tells this claim from any other of the same change; the Store
	// makes it and checks it on Ack and Release.
	Token string
}

// A Store keeps what a Feed knows durably: a record of each resource, the
// queue of changes not yet acknowledged, and named marks (the sync's
// watermarks). Feeds sharing a Store share one stream: each change is
// claimed by one of them at a time. Implementations are safe for
// concurrent use. feedtest.TestStore checks an implementation.
type Store interface {
	// Update reads the record of r (nil when there is none), calls fn with
	// it, and, unless fn fails, stores in one atomic step the record fn
	// answers (nil keeps the old one) and the changes it queues, whose Seq
	// follow the resource's last. Updates of one resource are serialized,
	// across every Feed sharing the Store. fn may be called again when the
	// Store retries, and must do nothing but compute.
	Update(ctx context.Context, r Resource, fn func(record []byte) (next []byte, queue []Queued, err error)) error
	// Claim leases up to n changes for lease, each the first unacknowledged
	// change of its resource, not claimed by a live lease and not held back
	// by Release, oldest first. It answers fewer, or none, when fewer are
	// ready.
	Claim(ctx context.Context, n int, lease time.Duration) ([]Claim, error)
	// Ack records that c was handled: the change is removed, and the next
	// change of its resource may be claimed. It answers an error matching
	// ErrLeaseLost when c's lease was taken over by another claim.
	Ack(ctx context.Context, c Claim) error
	// Extend renews c's lease for lease from now, while its handler runs.
	// It answers an error matching ErrLeaseLost when c's lease was taken
	// over by another claim.
	Extend(ctx context.Context, c Claim, lease time.Duration) error
	// Release ends c's lease without acknowledging it: the change may be
	// claimed again from retryAt on. It answers an error matching
	// ErrLeaseLost when c's lease was taken over by another claim.
	Release(ctx context.Context, c Claim, retryAt time.Time) error
	// Mark answers the time stored under name, or the zero time.
	Mark(ctx context.Context, name string) (time.Time, error)
	// SetMark stores t under name, unless a later time is stored there.
	SetMark(ctx context.Context, name string, t time.Time) error
}

// A Waker is a Store that learns of changes queued by other processes
// sharing it (PostgreSQL's LISTEN, say). Feed.Run runs Wake until its
// context ends; Wake calls wake each time changes may be ready.
type Waker interface {
	Wake(ctx context.Context, wake func()) error
}

// A SyncLocker is a Store shared between processes that lets one Feed at
// a time sync from the API (PostgreSQL's advisory lock, say): the others
// skip their sync meanwhile, since what it ingests and the watermark it
// advances are theirs too.
type SyncLocker interface {
	// TryLockSync takes the store's sync lock when no one holds it, and
	// answers ok and the func that releases it; ok is false when another
	// holds it. A lock whose holder dies (its connection ends) is released.
	TryLockSync(ctx context.Context) (unlock func(), ok bool, err error)
}

// A SyncWaiter is a SyncLocker that can wait for its lock (Feed.SyncNow),
// as PostgreSQL's advisory lock can.
type SyncWaiter interface {
	SyncLocker
	// LockSync takes the store's sync lock, waiting while another holds
	// it, until ctx ends; it answers the func that releases it. A lock
	// whose holder dies is released.
	LockSync(ctx context.Context) (unlock func(), err error)
}

// A BacklogReader is a Store that tells an operator what it holds
// unhandled (Feed.Backlog). The stores of this module's packages are.
type BacklogReader interface {
	// Backlog answers what the Store holds now, for every Feed sharing it.
	Backlog(ctx context.Context) (StoreBacklog, error)
}

// StoreBacklog is what a BacklogReader holds: the changes queued and not
// acknowledged.
type StoreBacklog struct {
	// Waiting counts them, those under a lease included.
	Waiting int64
	// Oldest is the first of them in the order they were queued, nil when
	// there is none: its Resource, Seq, Data and Attempt (the claims of it
	// so far); no Token.
	Oldest *Claim
	// Held counts those under a live lease, by the instance that holds
	// them, as the Store names it (the process, for the stores of this
	// module's packages: its host name and pid, and for PostgreSQL the
	// Store's id after them); nil when none is held.
	Held map[string]int64
}

// ErrLeaseLost is matched by the error of Ack or Release when the claim's
// lease expired and another claim of the same change took it over: the
// change will be (or was) handed over again.
var ErrLeaseLost = errors.New("feed: the claim's lease was lost to another claim")

// ErrCorrupt is matched by errors about stored data that cannot be read.
var ErrCorrupt = errors.New("feed: stored data cannot be read")

// ErrMalformed is matched by the errors of an ingest of a copy that tells
// nothing the feed can order: an id not above 0, a Job Request without a
// state or updated_at, or updated more than a day ahead of the feed's
// clock (which would make every later copy look older).
var ErrMalformed = errors.New("feed: the copy cannot be ingested")
