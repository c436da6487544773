package feed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/webhook"
)

// A Handler reacts to one change. Returning nil acknowledges it: the feed
// records that, and hands over the resource's next change. An error (or a
// panic) leaves it unacknowledged, to be handed over again after a backoff;
// the resource's later changes wait for it. ctx ends when Run's context
// does, or when the change's lease was lost to another claim (a renewal
// came too late: the change is handed over again, maybe to another Feed
// sharing the store): context.Cause(ctx) then matches ErrLeaseLost, and
// what the handler answers is ignored.
type Handler func(ctx context.Context, c *Change) error

// Feed hands every state change of Jobs and Job Requests to a Handler, once
// per change, in order per resource, from the copies it ingests: webhook
// deliveries (ServeHTTP), the sync Run makes, and copies the caller passes.
// See the package documentation for what it guarantees. Its methods are
// safe for concurrent use.
type Feed struct {
	handler   Handler
	client    *workforce.Client
	store     Store
	webhooks  http.Handler
	workers   int
	lease     time.Duration
	poll      time.Duration
	syncEvery time.Duration
	syncOpts  *workforce.SyncOptions
	retryMin  time.Duration
	retryMax  time.Duration
	logger    *slog.Logger
	now       func() time.Time

	fromNow   bool // WithStartFromNow
	startMu   sync.Mutex
	startedAt time.Time // the stored start, once read
	firstUse  time.Time // when Run began, or the first ingest or sync before it: the local instant the start stands for

	wakeup   chan struct{}
	running  atomic.Bool
	syncing  chan struct{}                   // holds a token while this Feed syncs: one sync at a time
	progress map[string]*workforce.SyncState // by mark, while syncing holds its token (WithSyncOptions' Progress)
	stats    counters
}

// An Option configures New.
type Option func(*Feed)

// WithStore keeps the feed's state in s; by default it is a new
// MemoryStore.
func WithStore(s Store) Option { return func(f *Feed) { f.store = s } }

// WithWorkers sets how many changes are handled at once, each of another
// resource; 4 by default.
func WithWorkers(n int) Option { return func(f *Feed) { f.workers = n } }

// WithLease sets how long a claimed change stays with this Feed without
// news from it: a Feed that stops (a crash) leaves its changes to others
// after this long. The lease is renewed while a handler runs. One minute
// by default.
func WithLease(d time.Duration) Option { return func(f *Feed) { f.lease = d } }

// WithPoll sets how often Run looks for changes that no wakeup announced
// (leases that expired, retries that fell due); one second by default.
func WithPoll(d time.Duration) Option { return func(f *Feed) { f.poll = d } }

// WithSyncInterval sets how often Run syncs Jobs and Job Requests from the
// API, the safety net that finds changes whose deliveries were lost: the
// longest such a change waits. One minute by default (a sync that finds
// nothing new costs four requests); never when d is negative (Sync still
// may be called).
func WithSyncInterval(d time.Duration) Option { return func(f *Feed) { f.syncEvery = d } }

// WithSyncOptions tunes the sync (see workforce.SyncOptions). A Progress
// set in o asks the Feed to resume a sync cut short: the Feed keeps one
// state per resource of its own in its place (o.Progress itself is left
// alone), for the life of the Feed.
func WithSyncOptions(o *workforce.SyncOptions) Option { return func(f *Feed) { f.syncOpts = o } }

// WithRetry sets the backoff of a change whose handler failed: min after
// the first failure, doubling up to max; by default one second and five
// minutes.
func WithRetry(minWait, maxWait time.Duration) Option {
	return func(f *Feed) { f.retryMin, f.retryMax = minWait, maxWait }
}

// WithStartFromNow makes the feed hand over only the changes made from the
// time it first ran on its store (kept in the store, so that restarts and
// the Feeds sharing it agree): Job transitions and Job Request copies of
// earlier times are recorded, never handed over, and the first sync reads
// from that time instead of every record. Without it, a new store hands
// over every change the first sync finds.
//
// The start is read from the API's clock (GET /info), the clock that
// stamps the changes, so that a receiver whose clock is off loses none
// and takes no earlier ones; a Feed without a client (no sync) takes its
// own clock, and then loses the changes of as long as it is ahead.
func WithStartFromNow() Option { return func(f *Feed) { f.fromNow = true } }

// WithLogger makes the feed log handler errors, refused deliveries and
// failures of its own; nothing secret is logged. None by default.
func WithLogger(l *slog.Logger) Option { return func(f *Feed) { f.logger = l } }

// New returns a Feed that hands changes to h. client is used by the sync
// (nil: no sync, webhooks and IngestJob only); secretKey verifies webhook
// deliveries (see ServeHTTP): a key workforce.New would refuse is an error
// matching workforce.ErrConfig, and "" makes a feed that takes no webhooks
// (ServeHTTP answers 500 to every delivery).
func New(client *workforce.Client, secretKey string, h Handler, opts ...Option) (*Feed, error) {
	f := &Feed{handler: h, client: client, workers: 4, lease: time.Minute, poll: time.Second,
		syncEvery: time.Minute, retryMin: time.Second, retryMax: 5 * time.Minute,
		now: time.Now, wakeup: make(chan struct{}, 1), syncing: make(chan struct{}, 1)}
	for _, o := range opts {
		if o != nil {
			o(f)
		}
	}
	switch {
	case h == nil:
		return nil, errors.New("feed: the handler is nil")
	case f.workers < 1:
		return nil, fmt.Errorf("feed: workers must be at least 1, got %d", f.workers)
	case f.lease <= 0 || f.poll <= 0:
		return nil, errors.New("feed: the lease and the poll interval must be positive")
	case f.retryMin <= 0 || f.retryMax < f.retryMin:
		return nil, errors.New("feed: the retry backoff must be positive, its maximum at least its minimum")
	}
	if f.store == nil {
		f.store = NewMemoryStore()
	}
	var hopts []webhook.HandlerOption
	if f.logger != nil {
		hopts = append(hopts, webhook.WithLogger(f.logger))
	}
	f.webhooks = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "this feed takes no webhooks: it was made without a secret key", http.StatusInternalServerError)
	})
	if secretKey != "" {
		wh, err := webhook.Handler(secretKey, f.ingestEvent, hopts...)
		if err != nil {
			return nil, fmt.Errorf("feed: %w", err)
		}
		f.webhooks = wh
	}
	return f, nil
}

// ServeHTTP receives webhook deliveries: it verifies each one (see
// webhook.Handler), ingests it durably and only then answers 204, so that
// the API delivers again a copy the feed could not keep. A delivery of
// another kind of resource is answered 204 and ignored; one the feed can
// never ingest (ErrMalformed: an id not above 0, say) is answered 422.
func (f *Feed) ServeHTTP(w http.ResponseWriter, r *http.Request) { f.webhooks.ServeHTTP(w, r) }

// ingestEvent ingests a verified delivery; one the feed can never ingest
// (ErrMalformed) is refused as webhook.ErrMalformedEvent (422), not as a
// failure of the receiver.
func (f *Feed) ingestEvent(ctx context.Context, ev *webhook.Event) error {
	var err error
	switch ev.Kind {
	case webhook.KindJob:
		err = f.ingestJob(ctx, ev.Job, SourceWebhook)
	case webhook.KindJobRequest:
		err = f.ingestJobRequest(ctx, ev.JobRequest, SourceWebhook)
	default:
		f.stats.ignored.Add(1)
	}
	if errors.Is(err, ErrMalformed) {
		return fmt.Errorf("%w: %w", webhook.ErrMalformedEvent, err)
	}
	return err
}

// IngestJob ingests a copy of a Job obtained some other way (the answer of
// an API call, say): the changes its transitions reveal are queued, once.
// It answers when they are stored. The Job's Raw, kept with its changes,
// must be empty (the Job is then encoded) or read back as this Job, as the
// SDK decodes it (an error matching ErrMalformed otherwise).
func (f *Feed) IngestJob(ctx context.Context, job *workforce.Job) error {
	if job != nil {
		if err := checkRaw(job.Raw, job.ID, func(j *workforce.Job) int64 { return j.ID }); err != nil {
			return fmt.Errorf("%w: job %d: %w", ErrMalformed, job.ID, err)
		}
	}
	return f.ingestJob(ctx, job, SourceCaller)
}

// IngestJobRequest ingests a copy of a Job Request obtained some other
// way, as IngestJob does.
func (f *Feed) IngestJobRequest(ctx context.Context, jr *workforce.JobRequest) error {
	if jr != nil {
		if err := checkRaw(jr.Raw, jr.ID, func(r *workforce.JobRequest) int64 { return r.ID }); err != nil {
			return fmt.Errorf("%w: job request %d: %w", ErrMalformed, jr.ID, err)
		}
	}
	return f.ingestJobRequest(ctx, jr, SourceCaller)
}

func (f *Feed) ingestJob(ctx context.Context, job *workforce.Job, src Source) error {
	if job == nil || job.ID <= 0 {
		return fmt.Errorf("%w: a Job without an id", ErrMalformed)
	}
	for _, t := range job.Transitions {
		if t.ID <= 0 {
			return fmt.Errorf("%w: job %d has a transition without an id", ErrMalformed, job.ID)
		}
	}
	horizon, err := f.start(ctx)
	if err != nil {
		return err
	}
	stale := false
	err = f.update(ctx, Resource{KindJob, job.ID}, func(rec record) (record, []wireChange, bool, error) {
		n := len(rec.Known)
		rec, out, err := revealJob(rec, job, src, f.now(), horizon)
		// Older: fewer transitions than known, every one of them known.
		stale = len(rec.Known) == n && len(job.Transitions) < n
		if len(out) == 0 && len(rec.Known) > n {
			return rec, nil, true, err // transitions before the start, recorded
		}
		return rec, out, len(out) > 0, err
	})
	if err == nil && stale {
		f.stats.stale.Add(1)
	}
	return err
}

func (f *Feed) ingestJobRequest(ctx context.Context, jr *workforce.JobRequest, src Source) error {
	switch {
	case jr == nil || jr.ID <= 0:
		return fmt.Errorf("%w: a Job Request without an id", ErrMalformed)
	case jr.State == "" || jr.UpdatedAt.IsZero():
		return fmt.Errorf("%w: job request %d has no state or no updated_at", ErrMalformed, jr.ID)
	case jr.UpdatedAt.After(f.now().Add(maxAhead)):
		// Taken, it would make every real later copy look older, and mute
		// the Job Request for good.
		return fmt.Errorf("%w: job request %d is updated at %s, more than %v ahead of this clock",
			ErrMalformed, jr.ID, jr.UpdatedAt.UTC().Format(time.RFC3339), maxAhead)
	}
	horizon, err := f.start(ctx)
	if err != nil {
		return err
	}
	stale := false
	err = f.update(ctx, Resource{KindJobRequest, jr.ID}, func(rec record) (record, []wireChange, bool, error) {
		at, state := jr.UpdatedAt.UTC(), string(jr.State)
		stale = (rec.Seq > 0 || !rec.Updated.IsZero()) && (at.Before(rec.Updated) ||
			at.Equal(rec.Updated) && jobRequestRank(state) < jobRequestRank(rec.State))
		return revealJobRequest(rec, jr, src, f.now(), horizon)
	})
	if err == nil && stale {
		f.stats.stale.Add(1)
	}
	return err
}

// maxAhead is how far a Job Request copy's updated_at may be ahead of the
// feed's clock: clocks disagree by seconds or minutes, never by a day.
const maxAhead = 24 * time.Hour

// update runs reveal on r's record in the store, and wakes the dispatch
// when changes were queued.
func (f *Feed) update(ctx context.Context, r Resource, reveal func(record) (record, []wireChange, bool, error)) error {
	queued := 0
	err := f.store.Update(ctx, r, func(b []byte) ([]byte, []Queued, error) {
		queued = 0
		rec, err := readRecord(b)
		if err != nil {
			return nil, nil, err
		}
		rec, changes, write, err := reveal(rec)
		if err != nil || !write {
			return nil, nil, err
		}
		next, err := json.Marshal(rec)
		if err != nil {
			return nil, nil, err
		}
		queue := make([]Queued, len(changes))
		for i, c := range changes {
			if queue[i].Data, err = encodeWire(c); err != nil {
				return nil, nil, err
			}
			queue[i].Seq = c.Seq
		}
		queued = len(queue)
		return next, queue, nil
	})
	if err != nil {
		return fmt.Errorf("feed: ingesting %s %d: %w", r.Kind, r.ID, err)
	}
	f.stats.copies.Add(1)
	f.stats.queued.Add(int64(queued))
	if queued > 0 {
		f.wake()
	}
	return nil
}

// wake tells the dispatch that changes may be ready.
func (f *Feed) wake() {
	select {
	case f.wakeup <- struct{}{}:
	default:
	}
}

// Stats are counts of what one Feed did since New.
type Stats struct {
	// Copies is the copies ingested (deliveries, synced records, the
	// caller's), Queued the changes they revealed, Ignored the deliveries
	// of other kinds of resource. Stale is the copies older than what the
	// store had (a late delivery): ingested, revealing nothing; a resource
	// whose every copy is stale shows here.
	Copies, Queued, Ignored, Stale int64
	// Handled is the changes acknowledged, Failed the handler errors and
	// panics, LeaseLost the claims whose lease went to another claim before
	// their acknowledgment (a renewal, an Ack or a Release refused: those
	// changes are handed over again). Corrupt is the changes handed over
	// with Change.Err set, because what the store kept of them cannot be
	// decoded (each attempt counts).
	Handled, Failed, LeaseLost, Corrupt int64
	// Syncs is the syncs completed, SyncsSkipped those skipped because
	// another Feed sharing the store was syncing (ErrSyncBusy).
	Syncs, SyncsSkipped int64
}

type counters struct {
	copies, queued, ignored, stale, handled, failed, leaseLost, corrupt, syncs, syncsSkipped atomic.Int64
}

// Stats answers the counts so far.
func (f *Feed) Stats() Stats {
	s := &f.stats
	return Stats{Copies: s.copies.Load(), Queued: s.queued.Load(), Ignored: s.ignored.Load(), Stale: s.stale.Load(),
		Handled: s.handled.Load(), Failed: s.failed.Load(), LeaseLost: s.leaseLost.Load(), Corrupt: s.corrupt.Load(), Syncs: s.syncs.Load(),
		SyncsSkipped: s.syncsSkipped.Load()}
}

// log logs a failure when a logger is set.
func (f *Feed) log(ctx context.Context, msg string, attrs ...slog.Attr) {
	if f.logger != nil {
		f.logger.LogAttrs(ctx, slog.LevelWarn, msg, attrs...)
	}
}
