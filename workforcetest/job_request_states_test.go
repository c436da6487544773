package workforcetest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// jrInState creates a one-slot Job Request starting in an hour and brings it to state; it
// answers the Job Request's id and its Job's id (0 when it has none).
func (f *fake) jrInState(state string) (int64, int64) {
	f.t.Helper()
	seed := f.Seed()
	startTime := f.Now().Add(time.Hour).In(pacificTime).Format("2006-01-02 15:04")
	initial := "posted"
	if state == "draft" {
		initial = "draft"
	}
	id := idOf(f.createJobRequest(obj{"state": initial, "start_time": startTime}))
	var job int64
	fill := func() { job = idOf(f.createJob(seed.WorkerIDs[1], id)) }
	switch state {
	case "filled":
		fill()
	case "in_progress":
		fill()
		require.NoError(f.t, f.StartJob(job))
	case "completed":
		fill()
		require.NoError(f.t, f.StartJob(job))
		require.NoError(f.t, f.CompleteJob(job))
	case "approved":
		fill()
		require.NoError(f.t, f.StartJob(job))
		require.NoError(f.t, f.CompleteJob(job))
		require.NoError(f.t, f.ApproveJob(job))
	case "cancelled":
		require.NoError(f.t, f.CancelJobRequest(id))
	case "unfilled":
		f.Advance(time.Hour)
	}
	require.Equal(f.t, state, f.jrState(id), "setting up")
	return id, job
}

func TestJobRequestStateTable(t *testing.T) {
	t.Parallel()
	states := []string{"draft", "posted", "filled", "in_progress", "completed", "approved", "cancelled", "unfilled"}
	// Each move answers the state it leads to from each state, "422" when refused, "-" when it
	// does not apply (the Job Request has no Job to move).
	moves := map[string]struct {
		do   func(f *fake, id, job int64) (int, obj)
		want map[string]string
	}{
		"post (PATCH job_request[state]=posted)": {
			func(f *fake, id, _ int64) (int, obj) {
				return f.json(http.MethodPatch, jrPath(id), with(f.private), obj{"job_request": obj{"state": "posted"}})
			},
			map[string]string{"draft": "posted", "posted": "posted", "filled": "422", "in_progress": "422",
				"completed": "422", "approved": "422", "cancelled": "422", "unfilled": "422"},
		},
		"cancel (PATCH state=cancelled)": {
			func(f *fake, id, _ int64) (int, obj) {
				return f.json(http.MethodPatch, jrPath(id), with(f.private), obj{"state": "cancelled"})
			},
			map[string]string{"draft": "cancelled", "posted": "cancelled", "filled": "cancelled", "in_progress": "cancelled",
				"completed": "422", "approved": "422", "cancelled": "422", "unfilled": "cancelled"},
		},
		"a Job fills the slot (POST /jobs)": {
			func(f *fake, id, _ int64) (int, obj) { return f.assign(f.Seed().WorkerIDs[2], id) },
			map[string]string{"draft": "422", "posted": "filled", "filled": "422", "in_progress": "422",
				"completed": "422", "approved": "422", "cancelled": "422", "unfilled": "unfilled"},
		},
		"the Job leaves (withdraw)": {
			func(f *fake, _, job int64) (int, obj) {
				return f.control(http.MethodPost, "jobs/"+itoa(job)+"/withdraw")
			},
			map[string]string{"draft": "-", "posted": "-", "filled": "posted", "in_progress": "422", "completed": "422",
				"approved": "422", "cancelled": "-", "unfilled": "-"},
		},
		"the Job starts": {
			func(f *fake, _, job int64) (int, obj) { return f.control(http.MethodPost, "jobs/"+itoa(job)+"/start") },
			map[string]string{"draft": "-", "posted": "-", "filled": "in_progress", "in_progress": "422", "completed": "422",
				"approved": "422", "cancelled": "-", "unfilled": "-"},
		},
		"the start time passes": {
			func(f *fake, _, _ int64) (int, obj) {
				f.Advance(2 * time.Hour)
				return http.StatusOK, nil
			},
			map[string]string{"draft": "draft", "posted": "unfilled", "filled": "filled", "in_progress": "in_progress",
				"completed": "completed", "approved": "approved", "cancelled": "cancelled", "unfilled": "unfilled"},
		},
	}
	for name, move := range moves {
		for _, from := range states {
			want := move.want[from]
			require.NotEmpty(t, want, "%s from %s is in the table", name, from)
			if want == "-" {
				continue
			}
			t.Run(name+" from "+from, func(t *testing.T) {
				t.Parallel()
				f := newFake(t, workforcetest.WithClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)))
				id, job := f.jrInState(from)
				status, body := move.do(f, id, job)
				if want == "422" {
					require.Equal(t, http.StatusUnprocessableEntity, status, body)
					assert.Equal(t, from, f.jrState(id), "a refused move changes nothing")
					return
				}
				require.Equal(t, http.StatusOK, status, body)
				assert.Equal(t, want, f.jrState(id))
			})
		}
	}
}

func TestJobRequestFollowsItsJobs(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	w := seed.WorkerIDs
	id := idOf(f.createJobRequest(obj{"slots": 2, "classification": "w2", "w2_hourly_rate": "20"}))
	a := idOf(f.createJob(w[1], id))
	assert.Equal(t, "posted", f.jrState(id), "one slot of two")
	b := idOf(f.createJob(w[2], id))
	assert.Equal(t, "filled", f.jrState(id))
	assert.EqualValues(t, 2, f.getJobRequest(id)["filled_slots"])
	require.NoError(t, f.WithdrawJob(b))
	assert.Equal(t, "posted", f.jrState(id), "a Job left")
	b2, err := f.AcceptJobRequest(id, w[2])
	require.NoError(t, err)
	assert.Equal(t, b, b2, "the withdrawn Job is filled again")
	assert.Equal(t, "filled", f.jrState(id))
	require.NoError(t, f.StartJob(a))
	assert.Equal(t, "in_progress", f.jrState(id))
	require.NoError(t, f.PauseJob(a))
	assert.Equal(t, "in_progress", f.jrState(id), "a paused Job is still started")
	require.NoError(t, f.StartJob(a))
	require.NoError(t, f.CompleteJob(a))
	assert.Equal(t, "in_progress", f.jrState(id), "a filled Job waits to start")
	require.NoError(t, f.StartJob(b))
	require.NoError(t, f.CompleteJob(b))
	assert.Equal(t, "completed", f.jrState(id), "every started Job completed")
	require.NoError(t, f.ApproveJob(a))
	assert.Equal(t, "completed", f.jrState(id))
	require.NoError(t, f.ApproveJob(b))
	assert.Equal(t, "approved", f.jrState(id), "every completed Job approved")
	status, body := f.json(http.MethodPatch, jrPath(id), with(f.private), obj{"state": "cancelled"})
	require.Equal(t, http.StatusUnprocessableEntity, status, body, "too late to cancel")
}

func TestCancelJobRequestCascades(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	w := seed.WorkerIDs
	id := idOf(f.createJobRequest(obj{"slots": 5, "classification": "w2", "w2_hourly_rate": "20"}))
	filled := idOf(f.createJob(w[1], id))
	started := idOf(f.createJob(w[2], id))
	paused := idOf(f.createJob(w[3], id))
	done := idOf(f.createJob(w[4], id))
	withdrawn := idOf(f.createJob(w[5], id))
	require.NoError(t, f.StartJob(started))
	require.NoError(t, f.StartJob(paused))
	require.NoError(t, f.PauseJob(paused))
	require.NoError(t, f.StartJob(done))
	require.NoError(t, f.CompleteJob(done))
	require.NoError(t, f.WithdrawJob(withdrawn))
	f.Advance(time.Minute)

	status, body := f.json(http.MethodPatch, jrPath(id), with(f.private), obj{"state": "cancelled", "cancelled_reason": "asked_to_cancel"})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, "cancelled", body["job_request"].(obj)["state"])
	for job, history := range map[int64][]string{
		filled:  {"cancelled", "filled"},
		started: {"cancelled", "in_progress", "filled"},
		paused:  {"cancelled", "paused", "in_progress", "filled"},
	} {
		j := f.getJob(job)
		assert.Equal(t, "cancelled", j["state"])
		assert.Equal(t, "asked_to_cancel", j["cancelled_reason"])
		assert.Equal(t, history, transitionNames(j))
	}
	assert.Equal(t, "completed", f.getJob(done)["state"], "a closed Job stays")
	assert.Equal(t, "withdrawn", f.getJob(withdrawn)["state"])
	status, _ = f.assign(w[1], id)
	assert.Equal(t, http.StatusUnprocessableEntity, status, "a cancelled Job Request takes no Jobs")

	pending, err := f.ApplyToJobRequest(seed.PendingJobRequestID, w[1])
	require.NoError(t, err)
	require.NoError(t, f.CancelJobRequest(seed.PendingJobRequestID))
	j := f.getJob(pending)
	assert.Equal(t, []string{"cancelled", "pending"}, transitionNames(j))
	assert.Equal(t, "job_request_cancelled", j["cancelled_reason"])
	require.Error(t, f.CancelJobRequest(seed.PendingJobRequestID), "cancelled already")
	require.Error(t, f.CancelJobRequest(999999))
}

func TestPendingWorkflow(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	w := seed.WorkerIDs
	both := idOf(f.createJobRequest(obj{"employer_id": seed.PendingEmployerID, "use_pending_state": true}))
	customerOnly := idOf(f.createJobRequest(obj{"employer_id": seed.PendingEmployerID}))
	requestOnly := idOf(f.createJobRequest(obj{"use_pending_state": true}))

	job, err := f.ApplyToJobRequest(both, w[1])
	require.NoError(t, err, "both enable it")
	state, _ := f.JobState(job)
	assert.Equal(t, "pending", state)
	assert.Equal(t, "posted", f.jrState(both), "a pending Job holds no slot")
	status, body := f.patchJob(job, obj{"state": "filled"})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, "filled", f.jrState(both), "granted: the one slot is filled")

	for _, id := range []int64{customerOnly, requestOnly} {
		_, err := f.ApplyToJobRequest(id, w[1])
		assert.Error(t, err, "job request %d", id)
		job, err := f.AcceptJobRequest(id, w[1])
		require.NoError(t, err, "without the workflow, Workers accept")
		state, _ := f.JobState(job)
		assert.Equal(t, "filled", state)
	}
}

func TestUnfilledCutoff(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC) // 08:00 at UTC-7
	f := newFake(t, workforcetest.WithClock(start))
	seed := f.Seed()
	open := idOf(f.createJobRequest(obj{"slots": 2, "start_time": "2026-06-01 09:00"}))
	full := idOf(f.createJobRequest(obj{"slots": 1, "start_time": "2026-06-01 09:00"}))
	f.createJob(seed.WorkerIDs[1], open)
	f.createJob(seed.WorkerIDs[1], full)

	f.Advance(59 * time.Minute)
	assert.Equal(t, "posted", f.jrState(open), "before the start time")
	f.Advance(time.Minute)
	jr := f.getJobRequest(open)
	assert.Equal(t, "unfilled", jr["state"], "at the start time with an open slot")
	assert.Equal(t, "2026-06-01T09:00:00.000-07:00", jr["updated_at"], "dated at the start time")
	assert.Equal(t, "filled", f.jrState(full), "no open slot")
	state, _ := f.JobRequestState(open)
	assert.Equal(t, "unfilled", state)

	status, body := f.get("/api_v2/job_requests", f.private, "state", "unfilled")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{open}, listIDs(t, body, "job_requests"))
	f.Advance(72 * time.Hour)
	f.private = f.token(f.Private) // the old one expired
	status, body = f.get("/api_v2/job_requests", f.private, "state", "unfilled", "per", "50")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, listIDs(t, body, "job_requests"), seed.JobRequest1099ID, "the seeded ones too, by the clock")
	assert.NotContains(t, listIDs(t, body, "job_requests"), seed.DraftJobRequestID, "a draft is not cut off")
}

func TestBadgeRequirement(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	w := seed.WorkerIDs
	for _, path := range []string{"/api_v2/jobs", "/api_v2/jobs/assign"} {
		status, body := f.json(http.MethodPost, path, with(f.private), obj{"job": obj{"worker_id": w[1], "job_request_id": seed.BadgeJobRequestID}})
		require.Equal(t, http.StatusUnprocessableEntity, status, body)
		assert.Contains(t, fieldErrors(t, body), "worker_id")
	}
	_, err := f.AcceptJobRequest(seed.BadgeJobRequestID, w[1])
	assert.Error(t, err)
	job := f.createJob(w[2], seed.BadgeJobRequestID)
	badges := job["worker"].(obj)["user_badges"].([]any)
	require.Len(t, badges, 1)
	assert.Equal(t, float64(seed.BadgeID), badges[0].(obj)["badge_id"])
	assert.Equal(t, float64(w[2]), badges[0].(obj)["user_id"])
	assert.Positive(t, badges[0].(obj)["id"], "the holding's own id")

	require.NoError(t, f.GrantBadge(w[3], seed.BadgeID))
	require.NoError(t, f.GrantBadge(w[3], seed.BadgeID), "granting again changes nothing")
	_, err = f.AcceptJobRequest(seed.BadgeJobRequestID, w[3])
	require.NoError(t, err, "once granted")
	assert.Error(t, f.GrantBadge(seed.EmployerID, seed.BadgeID), "employers hold no badges")
	assert.Error(t, f.GrantBadge(w[3], 999999))

	pendingJR := idOf(f.createJobRequest(obj{"employer_id": seed.PendingEmployerID, "use_pending_state": true,
		"badge_requirements_attributes": []obj{{"badge_id": seed.BadgeID}}}))
	_, err = f.ApplyToJobRequest(pendingJR, w[1])
	assert.Error(t, err, "applying needs the badges too")
}

// TestPendingRejectedAtCutoff checks CONTRACT §6's pending → rejected "by the cut-off time",
// which the fake puts at the Job Request's start time: applied when the clock reaches it (with a
// transition and a webhook), and seen alike by every read.
func TestPendingRejectedAtCutoff(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC) // 08:00 at UTC-7
	f := newFake(t, workforcetest.WithClock(start))
	rcv := newReceiver(t, f.Private.SecretKey, always(http.StatusNoContent))
	require.NoError(t, f.AddWebhookReceiver(rcv.URL))
	seed := f.Seed()
	jr := idOf(f.createJobRequest(obj{"employer_id": seed.PendingEmployerID, "use_pending_state": true,
		"slots": 2, "start_time": "2026-06-01 09:00"}))
	early, err := f.ApplyToJobRequest(jr, seed.WorkerIDs[1])
	require.NoError(t, err)
	late, err := f.ApplyToJobRequest(jr, seed.WorkerIDs[2])
	require.NoError(t, err)

	f.Advance(59 * time.Minute)
	state, _ := f.JobState(early)
	assert.Equal(t, "pending", state, "before the cut-off")
	f.Advance(time.Minute)
	waitWebhooks(t, f.Server) // no request since the clock moved: the move itself applies it
	assert.Equal(t, []string{"pending", "rejected"}, rcv.jobStates(early))
	assert.Equal(t, []string{"pending", "rejected"}, rcv.jobStates(late))

	f.Advance(48 * time.Hour)
	f.private = f.token(f.Private) // the old one expired
	job := f.getJob(early)
	assert.Equal(t, "rejected", job["state"])
	assert.Equal(t, []string{"rejected", "pending"}, transitionNames(job))
	assert.Equal(t, "2026-06-01T09:00:00.000-07:00", job["updated_at"], "dated at the cut-off")
	assert.Equal(t, "2026-06-01T16:00:00Z", job["transitions"].([]any)[0].(obj)["created_at"])
	status, body := f.get("/api_v2/jobs", f.private, "state", "rejected", "job_request_id", itoa(jr))
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{late, early}, listIDs(t, body, "jobs"))

	status, body = f.patchJob(early, obj{"state": "filled"})
	require.Equal(t, http.StatusUnprocessableEntity, status, "no grant after the cut-off")
	assert.Contains(t, fieldErrors(t, body), "state")
	got := f.getJobRequest(jr)
	assert.Equal(t, "unfilled", got["state"])
	assert.Equal(t, obj{"rejected": float64(2)}, got["cached_job_states"])

	_, err = f.ApplyToJobRequest(jr, seed.WorkerIDs[3])
	assert.Error(t, err, "no application after the cut-off")
	state, _ = f.JobState(early)
	assert.Equal(t, "rejected", state)
}

// TestPendingRejectedAtCutoffOnRead checks that a read alone applies the cut-off, when the clock
// passed it without a move (a clock set to a time).
func TestPendingRejectedAtCutoffOnRead(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC)
	f := newFake(t, workforcetest.WithClock(start))
	seed := f.Seed()
	jr := idOf(f.createJobRequest(obj{"employer_id": seed.PendingEmployerID, "use_pending_state": true,
		"start_time": "2026-06-01 09:00"}))
	job, err := f.ApplyToJobRequest(jr, seed.WorkerIDs[1])
	require.NoError(t, err)
	f.SetTime(start.Add(2 * time.Hour))
	assert.Equal(t, "rejected", f.getJob(job)["state"])
	status, body := f.get("/api_v2/jobs", f.private, "state", "pending")
	require.Equal(t, http.StatusOK, status)
	assert.NotContains(t, listIDs(t, body, "jobs"), job)
}
