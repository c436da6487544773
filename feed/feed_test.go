package feed_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/webhook"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestWebhooksHandEveryChangeOnceInOrder(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	fake, _, c := setup(t, rec)
	seed := fake.Seed()
	ctx := context.Background()
	j, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)
	for _, move := range []func(int64) error{fake.StartJob, fake.CompleteJob, fake.ApproveJob} {
		require.NoError(t, move(j.ID))
	}
	got := rec.waitFor(t, "the job's four changes", func(cs []*feed.Change) bool { return len(of(cs, feed.KindJob, j.ID)) == 4 })
	assert.Equal(t, []string{">filled", "filled>in_progress", "in_progress>completed", "completed>approved"}, of(got, feed.KindJob, j.ID))
	for _, ch := range got {
		if ch.Kind == feed.KindJob {
			require.NotNil(t, ch.Job)
			assert.Equal(t, j.ID, ch.Job.ID)
			assert.NotEmpty(t, ch.Job.Raw)
			assert.NotZero(t, ch.TransitionID)
			assert.Equal(t, feed.SourceWebhook, ch.Source)
		}
	}
}

func TestStaleAndRepeatedCopiesRevealNothingNew(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	f, err := feed.New(nil, "", rec.handle, feed.WithPoll(10*time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	ctx := context.Background()
	newest := job(7, "1:filled", "2:in_progress", "3:completed")
	older := job(7, "1:filled", "2:in_progress")
	for _, copy := range []*workforce.Job{newest, older, newest, job(7, "1:filled"), older} {
		require.NoError(t, f.IngestJob(ctx, copy))
	}
	assert.Len(t, rec.waitN(t, 3), 3)
	require.NoError(t, f.IngestJob(ctx, job(7, "1:filled", "2:in_progress", "3:completed", "4:approved")))
	got := rec.waitN(t, 4)
	assert.Equal(t, []string{">filled", "filled>in_progress", "in_progress>completed", "completed>approved"}, of(got, feed.KindJob, 7))
	for i, ch := range got {
		assert.EqualValues(t, i+1, ch.Seq)
		assert.EqualValues(t, i+1, ch.TransitionID)
		assert.Equal(t, feed.SourceCaller, ch.Source)
	}
	assert.Equal(t, "approved", string(got[3].Job.State), "each change carries the copy that revealed it")
	assert.Equal(t, "completed", string(got[2].Job.State))
}

func TestASkippedStateIsHandedOverAsTheTransitionsSay(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	f, err := feed.New(nil, "", rec.handle, feed.WithPoll(10*time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	// Real answers show filled then completed seconds later, no in_progress.
	require.NoError(t, f.IngestJob(context.Background(), job(9, "11:filled", "12:completed")))
	got := rec.waitN(t, 2)
	assert.Equal(t, []string{">filled", "filled>completed"}, of(got, feed.KindJob, 9))
}

func TestTransitionsOfOneSecondKeepTheCopysOrder(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	f, err := feed.New(nil, "", rec.handle, feed.WithPoll(10*time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	j := job(5, "30:filled", "20:withdrawn", "10:filled") // ids that do not grow with time
	at := j.Transitions[0].CreatedAt
	for i := range j.Transitions {
		j.Transitions[i].CreatedAt = at // all in one second
	}
	require.NoError(t, f.IngestJob(context.Background(), j))
	got := rec.waitN(t, 3)
	assert.Equal(t, []string{">filled", "filled>withdrawn", "withdrawn>filled"}, of(got, feed.KindJob, 5))
}

func TestJobRequestChanges(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	f, err := feed.New(nil, "", rec.handle, feed.WithPoll(10*time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	ctx := context.Background()
	for _, copy := range []*workforce.JobRequest{
		jobRequest(3, "posted", 0),
		jobRequest(3, "posted", 0),    // a repeat
		jobRequest(3, "filled", 5),    // a change
		jobRequest(3, "posted", 1),    // older than the newest: nothing
		jobRequest(3, "filled", 6),    // an edit, not a change of state
		jobRequest(3, "approved", 7),  // one instant, three states, arriving out of order:
		jobRequest(3, "completed", 7), // only the furthest along is taken
		jobRequest(3, "in_progress", 7),
		jobRequest(3, "cancelled", 9),
		jobRequest(3, "posted", 9), // the same instant, an earlier state: taken as older
	} {
		require.NoError(t, f.IngestJobRequest(ctx, copy))
	}
	got := rec.waitN(t, 4)
	assert.Equal(t, []string{">posted", "posted>filled", "filled>approved", "approved>cancelled"}, of(got, feed.KindJobRequest, 3))
	assert.Equal(t, time.Date(2026, 3, 1, 9, 0, 9, 0, time.UTC), got[3].At)
	require.NotNil(t, got[3].JobRequest)
	assert.EqualValues(t, "cancelled", got[3].JobRequest.State)
}

func TestMalformedCopiesAreRefused(t *testing.T) {
	t.Parallel()
	f, err := feed.New(nil, "", func(context.Context, *feed.Change) error { return nil })
	require.NoError(t, err)
	ctx := context.Background()
	assert.ErrorIs(t, f.IngestJob(ctx, nil), feed.ErrMalformed)
	assert.ErrorIs(t, f.IngestJob(ctx, &workforce.Job{}), feed.ErrMalformed)
	assert.ErrorIs(t, f.IngestJob(ctx, job(1, "0:filled")), feed.ErrMalformed)
	assert.ErrorIs(t, f.IngestJobRequest(ctx, &workforce.JobRequest{ID: 1, State: "posted"}), feed.ErrMalformed)
	assert.ErrorIs(t, f.IngestJobRequest(ctx, jobRequest(1, "", 0)), feed.ErrMalformed)
	assert.ErrorIs(t, f.IngestJobRequest(ctx, nil), feed.ErrMalformed)
	assert.NoError(t, f.IngestJob(ctx, &workforce.Job{ID: 3, State: "filled"}), "a Job without transitions reveals nothing")
	assert.Zero(t, f.Stats().Queued)
}

func TestAFailingHandlerHoldsItsResourceOnly(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	var failures atomic.Int32
	rec.fail = func(c *feed.Change) error {
		if c.ResourceID == 1 && c.Seq == 1 && failures.Add(1) <= 3 {
			return errors.New("database down")
		}
		return nil
	}
	f, err := feed.New(nil, "", rec.handle, feed.WithPoll(5*time.Millisecond), feed.WithRetry(time.Millisecond, 4*time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	ctx := context.Background()
	require.NoError(t, f.IngestJob(ctx, job(1, "1:filled", "2:in_progress")))
	require.NoError(t, f.IngestJob(ctx, job(2, "3:filled")))
	got := rec.waitN(t, 3)
	assert.Equal(t, []string{">filled", "filled>in_progress"}, of(got, feed.KindJob, 1))
	assert.Equal(t, 4, got[len(got)-2].Attempt, "handed over again after three failures")
	assert.EqualValues(t, 3, f.Stats().Failed)
	assert.Eventually(t, func() bool { return f.Stats().Handled == 3 }, 30*time.Second, time.Millisecond)
}

func TestAPanickingHandlerIsRetried(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	done := make(chan *feed.Change, 1)
	f, err := feed.New(nil, "", func(_ context.Context, c *feed.Change) error {
		if calls.Add(1) == 1 {
			panic("boom")
		}
		done <- c
		return nil
	}, feed.WithPoll(5*time.Millisecond), feed.WithRetry(time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	require.NoError(t, f.IngestJob(context.Background(), job(1, "1:filled")))
	c := <-done
	assert.Equal(t, 2, c.Attempt)
}

func TestSyncFindsWhatNoDeliveryBrought(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	fake, f, c := setup(t, rec)
	seed := fake.Seed()
	ctx := context.Background()
	// Changes made before any receiver existed: only the sync can find them.
	fake2jobs := []int64{}
	for _, w := range seed.WorkerIDs[1:3] {
		j, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: w, JobRequestID: seed.JobRequestW2ID})
		require.NoError(t, err)
		fake2jobs = append(fake2jobs, j.ID)
	}
	require.NoError(t, fake.WaitWebhooks(ctx))
	rec.waitFor(t, "the deliveries", func(cs []*feed.Change) bool { return len(of(cs, feed.KindJob, fake2jobs[1])) == 1 })
	// Now a move whose delivery is lost.
	fake.InjectWebhookFault(workforcetest.WebhookFault{Resource: "job", ID: fake2jobs[0], Drop: true})
	require.NoError(t, fake.StartJob(fake2jobs[0]))
	require.NoError(t, fake.WaitWebhooks(ctx))
	require.NoError(t, f.Sync(ctx))
	got := rec.waitFor(t, "the synced change", func(cs []*feed.Change) bool { return len(of(cs, feed.KindJob, fake2jobs[0])) == 2 })
	assert.Equal(t, []string{">filled", "filled>in_progress"}, of(got, feed.KindJob, fake2jobs[0]))
	for _, ch := range got {
		if ch.Kind == feed.KindJob && ch.ResourceID == fake2jobs[0] && ch.To == "in_progress" {
			assert.Equal(t, feed.SourceSync, ch.Source)
		}
	}
	require.NoError(t, f.Sync(ctx), "a second sync reveals nothing new")
	assert.EqualValues(t, 2, f.Stats().Syncs)
}

func TestNewRefusesASecretKeyNewWouldRefuse(t *testing.T) {
	t.Parallel()
	_, err := feed.New(nil, " sk_test_abc ", func(context.Context, *feed.Change) error { return nil })
	require.ErrorIs(t, err, workforce.ErrConfig)
}

func TestAFeedWithoutSecretKeyRefusesDeliveries(t *testing.T) {
	t.Parallel()
	f, err := feed.New(nil, "", func(context.Context, *feed.Change) error { return nil })
	require.NoError(t, err)
	w := httptest.NewRecorder()
	f.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"job": {"id": 1}}`)))
	assert.Equal(t, http.StatusInternalServerError, w.Code)
}

// lockedStore is a MemoryStore whose sync lock another Feed may hold.
type lockedStore struct {
	*feed.MemoryStore
	held atomic.Bool
}

func (s *lockedStore) TryLockSync(context.Context) (func(), bool, error) {
	if !s.held.CompareAndSwap(false, true) {
		return nil, false, nil
	}
	return func() { s.held.Store(false) }, true, nil
}

func TestASyncLockedByAnotherFeedIsSkipped(t *testing.T) {
	t.Parallel()
	store := &lockedStore{MemoryStore: feed.NewMemoryStore()}
	rec := newRecorder()
	_, f, _ := setup(t, rec, feed.WithStore(store))
	ctx := context.Background()
	store.held.Store(true) // another Feed syncs
	require.ErrorIs(t, f.Sync(ctx), feed.ErrSyncBusy)
	wm, err := store.Mark(ctx, "sync/jobs")
	require.NoError(t, err)
	assert.True(t, wm.IsZero(), "nothing read")
	assert.Equal(t, feed.Stats{SyncsSkipped: 1}, f.Stats())
	store.held.Store(false)
	require.NoError(t, f.Sync(ctx))
	assert.False(t, store.held.Load(), "the lock is released after the sync")
	assert.EqualValues(t, 1, f.Stats().Syncs)
}

// extendSpy is a MemoryStore that reports the context of each Extend.
type extendSpy struct {
	*feed.MemoryStore
	extends chan error // ctx.Err() of each Extend
}

func (s *extendSpy) Extend(ctx context.Context, c feed.Claim, lease time.Duration) error {
	select {
	case s.extends <- ctx.Err():
	default:
	}
	return s.MemoryStore.Extend(ctx, c, lease)
}

// A shutdown (Run's ctx ends) waits for the handlers under way, and keeps
// renewing their leases meanwhile: another Feed sharing the store must
// not take a change whose handler still runs.
func TestLeasesAreRenewedWhileAShutdownWaitsForHandlers(t *testing.T) {
	t.Parallel()
	store := &extendSpy{MemoryStore: feed.NewMemoryStore(), extends: make(chan error, 1)}
	in, finish := make(chan struct{}), make(chan struct{})
	f, err := feed.New(nil, "", func(context.Context, *feed.Change) error {
		close(in)
		<-finish
		return nil
	}, feed.WithStore(store), feed.WithLease(30*time.Millisecond))
	require.NoError(t, err)
	require.NoError(t, f.IngestJob(context.Background(), job(1, "1:filled")))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	<-in
	cancel()
	for range 3 { // renewals made after the shutdown began
		<-store.extends
	}
	require.NoError(t, <-store.extends, "a renewal with a live context")
	close(finish)
	require.NoError(t, <-done)
	assert.EqualValues(t, 1, f.Stats().Handled)
}

// A change's copy is decoded as the SDK decodes the API's answers: a real
// Job (CONTRACT §10: no worker_id, only worker.id) has its WorkerID, and a
// copy with a value that fits no form of its field (a Warning at ingest)
// is handed over, not refused at every attempt.
func TestAChangesCopyIsDecodedAsTheSDKDecodes(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	f, err := feed.New(nil, "", rec.handle, feed.WithPoll(20*time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	for _, raw := range []string{
		`{"id":7,"state":"filled","worker":{"id":42,"first_name":"A"},
			"transitions":[{"id":70,"job_id":7,"name":"filled","created_at":"2017-09-13T17:57:59Z"}]}`,
		`{"id":8,"state":"filled","worker":{"id":43},"requestor_notes":{"oops":1},
			"transitions":[{"id":80,"job_id":8,"name":"filled","created_at":"2017-09-13T17:57:59Z"}]}`,
	} {
		var j *workforce.Job
		_, err := workforce.Decode([]byte(raw), &j)
		require.NoError(t, err)
		require.NoError(t, f.IngestJob(context.Background(), j))
	}
	got := rec.waitN(t, 2)
	for _, c := range got {
		assert.Equal(t, c.ResourceID+35, c.Job.WorkerID, "job %d", c.ResourceID)
	}
	assert.Zero(t, f.Stats().Failed)
}

// WithStartFromNow hands over only the changes made from the feed's start:
// earlier transitions and Job Request states are recorded, so that the
// first change after the start comes From the state before it.
func TestStartFromNowHandsOverOnlyLaterChanges(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	store := feed.NewMemoryStore()
	f, err := feed.New(nil, "", rec.handle, feed.WithStore(store), feed.WithStartFromNow(), feed.WithPoll(20*time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	ctx := context.Background()
	before := job(1, "1:filled", "2:in_progress") // March 2026: before the start
	require.NoError(t, f.IngestJob(ctx, before))
	require.NoError(t, f.IngestJobRequest(ctx, jobRequest(5, "posted", 0)))
	start, err := store.Mark(ctx, "start")
	require.NoError(t, err)
	require.False(t, start.IsZero(), "the start is kept in the store")

	later := job(1, "1:filled", "2:in_progress")
	later.Transitions = append([]workforce.Transition{{ID: 3, JobID: 1, Name: "completed",
		CreatedAt: workforce.Time{Time: start.Add(time.Minute)}}}, later.Transitions...)
	require.NoError(t, f.IngestJob(ctx, later))
	jr := jobRequest(5, "filled", 0)
	jr.UpdatedAt = workforce.Time{Time: start.Add(time.Minute)}
	require.NoError(t, f.IngestJobRequest(ctx, jr))
	got := rec.waitN(t, 2)
	assert.Equal(t, []string{"in_progress>completed"}, of(got, feed.KindJob, 1))
	assert.Equal(t, []string{"posted>filled"}, of(got, feed.KindJobRequest, 5))
	assert.EqualValues(t, 2, f.Stats().Queued, "nothing before the start was queued")
}

// lostStore is a MemoryStore whose renewals, after the first, answer that
// the lease went to another claim.
type lostStore struct {
	*feed.MemoryStore
	extends atomic.Int64
}

func (s *lostStore) Extend(ctx context.Context, c feed.Claim, lease time.Duration) error {
	if s.extends.Add(1) == 1 {
		return s.MemoryStore.Extend(ctx, c, lease)
	}
	return errors.Join(feed.ErrLeaseLost, errors.New("taken over"))
}

// A renewal that answers ErrLeaseLost cancels the handler's context (its
// cause matches ErrLeaseLost): the change is another claim's, and the
// handler is told to stop rather than race it. It is counted once.
func TestALostLeaseCancelsTheHandler(t *testing.T) {
	t.Parallel()
	store := &lostStore{MemoryStore: feed.NewMemoryStore()}
	causes := make(chan error, 1)
	f, err := feed.New(nil, "", func(ctx context.Context, _ *feed.Change) error {
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return nil
	}, feed.WithStore(store), feed.WithLease(30*time.Millisecond), feed.WithWorkers(1))
	require.NoError(t, err)
	require.NoError(t, f.IngestJob(context.Background(), job(1, "1:filled")))
	run(t, f)
	select {
	case cause := <-causes:
		assert.ErrorIs(t, cause, feed.ErrLeaseLost)
	case <-time.After(time.Minute):
		t.Fatal("the handler's context did not end when its lease was lost")
	}
	st := f.Stats()
	assert.EqualValues(t, 0, st.Handled)
	assert.EqualValues(t, 1, st.LeaseLost)
}

// garbleStore is a MemoryStore that garbles the stored change of one
// resource's first claims, as a damaged store would answer it.
type garbleStore struct {
	*feed.MemoryStore
	id  int64
	bad []byte
}

func (s *garbleStore) Claim(ctx context.Context, n int, lease time.Duration) ([]feed.Claim, error) {
	cs, err := s.MemoryStore.Claim(ctx, n, lease)
	for i := range cs {
		if cs[i].Resource.ID == s.id && cs[i].Seq == 1 {
			cs[i].Data = s.bad
		}
	}
	return cs, err
}

// A stored change that cannot be decoded (the envelope, or only the copy)
// is handed over marked (Change.Err matches ErrCorrupt, Kind, ResourceID
// and Seq set), counted in Stats.Corrupt; the handler's nil skips it, and
// the resource's next change follows: never a silent retry forever.
func TestAnUndecodableChangeIsHandedOverMarked(t *testing.T) {
	t.Parallel()
	for name, bad := range map[string]string{
		"envelope": `{not json`,
		"copy":     `{"kind":"job","id":1,"seq":1,"transition_id":1,"from":"","to":"filled","copy":[1,2]}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rec := newRecorder()
			store := &garbleStore{MemoryStore: feed.NewMemoryStore(), id: 1, bad: []byte(bad)}
			f, err := feed.New(nil, "", rec.handle, feed.WithStore(store), feed.WithRetry(time.Millisecond, time.Millisecond))
			require.NoError(t, err)
			require.NoError(t, f.IngestJob(context.Background(), job(1, "1:filled", "2:in_progress")))
			run(t, f)
			got := rec.waitN(t, 2)
			require.ErrorIs(t, got[0].Err, feed.ErrCorrupt)
			assert.Equal(t, feed.KindJob, got[0].Kind)
			assert.EqualValues(t, 1, got[0].ResourceID)
			assert.EqualValues(t, 1, got[0].Seq)
			assert.Nil(t, got[0].Job)
			require.NoError(t, got[1].Err)
			assert.Equal(t, "filled>in_progress", got[1].From+">"+got[1].To)
			assert.EqualValues(t, 1, f.Stats().Corrupt)
		})
	}
}

// A copy the caller passes whose Raw does not read back as its record (not
// JSON, no id, another record's) is refused (ErrMalformed) and nothing is
// queued: the Raw is what the handler would be handed.
func TestACallersRawMustReadBackAsItsRecord(t *testing.T) {
	t.Parallel()
	f, err := feed.New(nil, "", func(context.Context, *feed.Change) error { return nil })
	require.NoError(t, err)
	ctx := context.Background()
	for _, raw := range []string{`{"id": 1,`, `[1]`, `"x"`, ` `, `{}`, `{"id": 0}`, `{"id": null}`, `{"id": 8}`, `{"jobs": [{"id": 1}]}`} {
		j := job(1, "1:filled")
		j.Raw = json.RawMessage(raw)
		assert.ErrorIs(t, f.IngestJob(ctx, j), feed.ErrMalformed, raw)
		jr := jobRequest(1, "posted", 1)
		jr.Raw = json.RawMessage(raw)
		assert.ErrorIs(t, f.IngestJobRequest(ctx, jr), feed.ErrMalformed, raw)
	}
	assert.Zero(t, f.Stats().Queued)
	j := job(1, "1:filled")
	j.Raw = json.RawMessage(` {"id": 1, "state": "filled"} `)
	require.NoError(t, f.IngestJob(ctx, j))
	assert.EqualValues(t, 1, f.Stats().Queued)
}

// A delivery the feed can never ingest (ErrMalformed) is refused for good
// (422), not answered as an outage of the receiver (500); nothing is kept.
func TestMalformedDeliveriesAreAnswered422(t *testing.T) {
	t.Parallel()
	fake := workforcetest.NewServer(t)
	key := fake.Private.SecretKey
	f, err := feed.New(nil, key, func(context.Context, *feed.Change) error { return nil })
	require.NoError(t, err)
	for _, body := range []string{
		`{"job": {"id": 0, "state": "filled"}}`,
		`{"job": {"id": -3, "state": "filled"}}`,
		`{"job": {"id": 7, "state": "filled", "transitions": [{"name": "filled", "created_at": "2026-03-01T09:00:00Z"}]}}`,
		`{"job_request": {"id": 4, "state": "posted"}}`,
	} {
		req := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(body))
		req.Header.Set(webhook.Header, webhook.Sign([]byte(body), key))
		w := httptest.NewRecorder()
		f.ServeHTTP(w, req)
		// A permanent refusal: 422 from the feed, or 400 where webhook.Parse
		// already refuses the event (an id of 0 is none); never a 500.
		assert.Contains(t, []int{http.StatusBadRequest, http.StatusUnprocessableEntity}, w.Code, body)
	}
	assert.Zero(t, f.Stats().Copies)
}

// A Job Request copy dated far ahead of the clock (a server's clock
// glitch) is refused as malformed: taken, it would make every real later
// copy look older and mute the Job Request for good.
func TestAJobRequestFromTheFarFutureIsRefused(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	f, err := feed.New(nil, "", rec.handle, feed.WithRetry(time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, f.IngestJobRequest(ctx, jobRequest(5, "posted", 0)))
	future := jobRequest(5, "cancelled", 0)
	future.UpdatedAt.Time = time.Date(2106, 2, 7, 6, 28, 15, 0, time.UTC)
	assert.ErrorIs(t, f.IngestJobRequest(ctx, future), feed.ErrMalformed)
	require.NoError(t, f.IngestJobRequest(ctx, jobRequest(5, "filled", 5)))
	run(t, f)
	got := rec.waitN(t, 2)
	assert.Equal(t, []string{">posted", "posted>filled"}, of(got, feed.KindJobRequest, 5))
}

// slowClaimStore answers one change per Claim, and only once every change
// it handed over before was acknowledged (a store whose claims wait behind
// its writes, as SQLite's do); the Ack of the last change cancels Run.
type slowClaimStore struct {
	feed.Store
	mu              sync.Mutex
	settled         *sync.Cond
	claimed, acked  int
	last            int
	cancelRunOnLast func()
}

func (s *slowClaimStore) Claim(ctx context.Context, _ int, lease time.Duration) ([]feed.Claim, error) {
	s.mu.Lock()
	for s.acked < s.claimed {
		s.settled.Wait()
	}
	s.mu.Unlock()
	cs, err := s.Store.Claim(ctx, 1, lease)
	s.mu.Lock()
	s.claimed += len(cs)
	s.mu.Unlock()
	return cs, err
}

func (s *slowClaimStore) Ack(ctx context.Context, c feed.Claim) error {
	err := s.Store.Ack(ctx, c)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.acked++; s.acked == s.last {
		s.cancelRunOnLast()
	}
	s.settled.Broadcast()
	return err
}

// Run's dispatch reads one notice per claim; when acknowledgments come
// faster than that, their notices pile up. A shutdown then waited for
// goroutines blocked sending notices nobody read any more: Run never
// returned (SQLite's BenchmarkThroughput hung 1 run in 3). Each round
// ends Run right after its last acknowledgment; without the fix 9 rounds
// in 10 hung.
func TestRunReturnsWhileAcknowledgmentsOutpaceTheDispatch(t *testing.T) {
	t.Parallel()
	for round := range 5 {
		const n = 200
		ctx, cancel := context.WithCancel(context.Background())
		st := &slowClaimStore{Store: feed.NewMemoryStore(), last: n, cancelRunOnLast: cancel}
		st.settled = sync.NewCond(&st.mu)
		f, err := feed.New(nil, "", func(context.Context, *feed.Change) error { return nil },
			feed.WithStore(st), feed.WithWorkers(4), feed.WithPoll(time.Hour))
		require.NoError(t, err)
		for i := range n {
			require.NoError(t, f.IngestJob(context.Background(), job(int64(i+1), "1:filled")))
		}
		done := make(chan error, 1)
		go func() { done <- f.Run(ctx) }()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(time.Minute): // it takes milliseconds: a watchdog, not a deadline
			t.Fatalf("round %d: Run did not return a minute after its context ended (%d handled)", round, f.Stats().Handled)
		}
		require.EqualValues(t, n, f.Stats().Handled)
	}
}

// A handler that ends its goroutine with runtime.Goexit (t.FailNow, as
// require does, called inside it) fails its change, which is handed over
// again; it used to keep its worker's slot for good, and after as many
// such exits as workers nothing was handled and Run never returned
// (outside attack 7, A7-8).
func TestAHandlerThatCallsGoexitFailsItsChange(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	rec := newRecorder()
	f, err := feed.New(nil, "", func(ctx context.Context, c *feed.Change) error {
		if calls.Add(1) <= 2 {
			runtime.Goexit()
		}
		return rec.handle(ctx, c)
	}, feed.WithWorkers(2), feed.WithPoll(5*time.Millisecond), feed.WithRetry(time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	for id := int64(1); id <= 4; id++ {
		require.NoError(t, f.IngestJob(context.Background(), job(id, "1:filled")))
	}
	rec.waitN(t, 4)
	assert.EqualValues(t, 2, f.Stats().Failed)
}

// With a Progress in WithSyncOptions, a Job Requests sync cut short left
// its state where the Jobs sync read it, and every later sync failed with
// ErrSyncState (outside attack 7, A7-3): each resource keeps a state of
// its own.
func TestASyncProgressServesEachResourceApart(t *testing.T) {
	t.Parallel()
	var failing atomic.Bool
	failing.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api_v2/authenticate":
			fmt.Fprintf(w, `{"token":"tok_feedprogress0123456789","expires_at":%q}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		case "/api_v2/info":
			fmt.Fprintf(w, `{"utc_time_now":%q}`, time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
		case "/api_v2/jobs":
			fmt.Fprint(w, `{"jobs":[]}`)
		case "/api_v2/job_requests":
			if failing.Load() {
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprint(w, `{"error":"try later"}`)
				return
			}
			fmt.Fprint(w, `{"job_requests":[]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := workforce.New("pk_test_feedprogress0123456789", "sk_test_feedprogress0123456789",
		workforce.WithBaseURL(srv.URL), workforce.WithRetry(2, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	f, err := feed.New(c, "", func(context.Context, *feed.Change) error { return nil },
		feed.WithSyncOptions(&workforce.SyncOptions{Progress: &workforce.SyncState{}}))
	require.NoError(t, err)
	require.Error(t, f.Sync(context.Background()), "job_requests answers 400")
	failing.Store(false)
	for range 2 {
		require.NoError(t, f.Sync(context.Background()))
	}
}

// A transition's created_at is cut to the second (CONTRACT §10): one
// stamped in the second of the start (WithStartFromNow) may have been made
// after it, and is handed over; it used to be recorded as known, never
// handed over (outside attack 7, A7-5).
func TestStartFromNowHandsOverTheStartsSecond(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rec := newRecorder()
	store := feed.NewMemoryStore()
	start := time.Date(2026, 3, 1, 9, 0, 0, 700_000_000, time.UTC) // job's first transition: 09:00:00
	require.NoError(t, store.SetMark(ctx, "start", start))
	f, err := feed.New(nil, "", rec.handle, feed.WithStore(store), feed.WithStartFromNow(), feed.WithPoll(20*time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	earlier := job(2, "2:filled")
	earlier.Transitions[0].CreatedAt = workforce.Time{Time: start.Truncate(time.Second).Add(-time.Second)}
	require.NoError(t, f.IngestJob(ctx, earlier))
	require.NoError(t, f.IngestJob(ctx, job(1, "1:filled")))
	got := rec.waitN(t, 1)
	assert.Equal(t, []string{">filled"}, of(got, feed.KindJob, 1))
	assert.EqualValues(t, 1, f.Stats().Queued, "the second before the start's is before it")
}

// A copy older than what the store has (a late delivery) is counted in
// Stats.Stale; a repeat of the newest copy is not.
func TestStaleCopiesAreCounted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f, err := feed.New(nil, "", func(context.Context, *feed.Change) error { return nil })
	require.NoError(t, err)
	require.NoError(t, f.IngestJob(ctx, job(1, "1:filled", "2:in_progress")))
	require.NoError(t, f.IngestJob(ctx, job(1, "1:filled", "2:in_progress"))) // a repeat
	require.NoError(t, f.IngestJob(ctx, job(1, "1:filled")))                  // late
	require.NoError(t, f.IngestJobRequest(ctx, jobRequest(5, "filled", 10)))
	require.NoError(t, f.IngestJobRequest(ctx, jobRequest(5, "filled", 10))) // a repeat
	require.NoError(t, f.IngestJobRequest(ctx, jobRequest(5, "posted", 5)))  // late
	st := f.Stats()
	assert.EqualValues(t, 2, st.Stale)
	assert.EqualValues(t, 6, st.Copies)
}
