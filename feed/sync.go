package feed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/workforce-marketplace/workforce-go"
)

// The marks under which the sync keeps its watermarks in the store.
const (
	markJobs        = "sync/jobs"
	markJobRequests = "sync/job_requests"
)

// ErrNoClient is answered by Sync when the Feed has no client.
var ErrNoClient = errors.New("feed: no client to sync with")

// ErrSyncBusy is answered by Sync when another Feed sharing the store (a
// SyncLocker) is syncing: this one skipped its sync, which the other's
// makes for both.
var ErrSyncBusy = errors.New("feed: another Feed sharing the store is syncing")

// Sync reads every Job and Job Request changed since the last sync (every
// one, the first time) from the API and ingests each copy, then stores the
// new watermark, so that a sync cut short is done again from the same
// point. Run calls it on its interval; a caller may too. Syncs of one Feed
// run one at a time. On a store that is a SyncLocker (PostgreSQL), one
// Feed of all those sharing it syncs at a time: Sync answers ErrSyncBusy,
// having read nothing, while another does.
//
// This is the one place the feed uses the SDK's Sync.
func (f *Feed) Sync(ctx context.Context) error {
	if f.client == nil {
		return ErrNoClient
	}
	if err := f.takeSyncing(ctx); err != nil {
		return err
	}
	defer f.releaseSyncing()
	if l, ok := f.store.(SyncLocker); ok {
		unlock, ok, err := l.TryLockSync(ctx)
		switch {
		case err != nil:
			return fmt.Errorf("feed: taking the sync lock: %w", err)
		case !ok:
			f.stats.syncsSkipped.Add(1)
			return ErrSyncBusy
		}
		defer unlock()
	}
	return f.sync(ctx)
}

// SyncNow makes a sync as Sync does, but one under way (this Feed's, or
// another's sharing the store) is waited for instead of answered
// ErrSyncBusy: when SyncNow answers nil, a sync that began after it was
// called has read every record changed before then. It is for an operator
// (after an outage of the webhooks, say) and for tests; Run keeps to Sync.
// A SyncLocker that is no SyncWaiter is asked again every poll interval
// (WithPoll) until ctx ends.
func (f *Feed) SyncNow(ctx context.Context) error {
	if f.client == nil {
		return ErrNoClient
	}
	if err := f.takeSyncing(ctx); err != nil {
		return err
	}
	defer f.releaseSyncing()
	unlock, err := f.waitSyncLock(ctx)
	if err != nil {
		return fmt.Errorf("feed: taking the sync lock: %w", err)
	}
	defer unlock()
	return f.sync(ctx)
}

// takeSyncing waits for this Feed's syncs before it to end, or for ctx to.
func (f *Feed) takeSyncing(ctx context.Context) error {
	select {
	case f.syncing <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// releaseSyncing lets the next of this Feed's syncs begin.
func (f *Feed) releaseSyncing() { <-f.syncing }

// waitSyncLock takes the store's sync lock when it has one, waiting for
// it; it answers the func that releases it.
func (f *Feed) waitSyncLock(ctx context.Context) (func(), error) {
	switch l := f.store.(type) {
	case SyncWaiter:
		return l.LockSync(ctx)
	case SyncLocker:
		t := time.NewTicker(f.poll)
		defer t.Stop()
		for {
			unlock, ok, err := l.TryLockSync(ctx)
			if err != nil || ok {
				return unlock, err
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-t.C:
			}
		}
	}
	return func() {}, nil
}

// sync syncs every resource, under the sync lock when the store has one.
func (f *Feed) sync(ctx context.Context) error {
	if err := f.syncKind(ctx, markJobs, func(wm *time.Time, yield func(ingest func() error) error) error {
		for job, err := range f.client.Jobs.Sync(ctx, wm, f.syncOptions(markJobs)) {
			if err != nil {
				return err
			}
			if err := yield(func() error { return f.ingestJob(ctx, job, SourceSync) }); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := f.syncKind(ctx, markJobRequests, func(wm *time.Time, yield func(ingest func() error) error) error {
		for jr, err := range f.client.JobRequests.Sync(ctx, wm, f.syncOptions(markJobRequests)) {
			if err != nil {
				return err
			}
			if err := yield(func() error { return f.ingestJobRequest(ctx, jr, SourceSync) }); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	f.stats.syncs.Add(1)
	return nil
}

// syncKind runs one resource's sync from the watermark stored under mark,
// ingesting every record it yields, and stores the new watermark once all
// are ingested. A malformed record is logged and skipped (it can never be
// ingested); any other error stops the sync with the watermark where it
// was.
func (f *Feed) syncKind(ctx context.Context, mark string, sync func(wm *time.Time, yield func(ingest func() error) error) error) error {
	s := f.store
	wm, err := s.Mark(ctx, mark)
	if err != nil {
		return fmt.Errorf("feed: reading the watermark %s: %w", mark, err)
	}
	if wm.IsZero() {
		if wm, err = f.start(ctx); err != nil { // WithStartFromNow: from the start
			return err
		}
	}
	start := wm
	err = sync(&wm, func(ingest func() error) error {
		if err := ingest(); errors.Is(err, ErrMalformed) {
			f.log(ctx, "feed: sync: a record skipped", slog.String("error", err.Error()))
		} else if err != nil {
			return err
		}
		return nil
	})
	if errors.Is(err, workforce.ErrSyncState) && f.progress[mark] != nil {
		// Of another watermark (a Feed sharing the store advanced it):
		// the next sync starts afresh.
		*f.progress[mark] = workforce.SyncState{}
	}
	if err != nil {
		return fmt.Errorf("feed: %s: %w", mark, err)
	}
	if wm.After(start) {
		if err := s.SetMark(ctx, mark, wm); err != nil {
			return fmt.Errorf("feed: storing the watermark %s: %w", mark, err)
		}
	}
	return nil
}

// syncOptions answers the options of the sync kept under mark: those of
// WithSyncOptions, with a Progress of that resource's own (kept in memory
// by the Feed) when they have one, since a state serves one resource and
// watermark. The caller holds f.syncing's token.
func (f *Feed) syncOptions(mark string) *workforce.SyncOptions {
	if f.syncOpts == nil || f.syncOpts.Progress == nil {
		return f.syncOpts
	}
	o := *f.syncOpts
	if f.progress == nil {
		f.progress = map[string]*workforce.SyncState{}
	}
	if f.progress[mark] == nil {
		f.progress[mark] = new(workforce.SyncState)
	}
	o.Progress = f.progress[mark]
	return &o
}
