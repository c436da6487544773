package workforcetest

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// listJobsJSON returns the body of GET /jobs?per=50 as the Private Pool gets it.
func listJobsJSON(t *testing.T, s *Server) string {
	t.Helper()
	v, err := s.listJobs(&call{p: params{"per": "50"}, pool: poolPrivate})
	if err != nil {
		t.Fatal(err)
	}
	return string(v.(rawJSON))
}

// getJobJSON returns the body of GET /jobs/:id as the Private Pool gets it.
func getJobJSON(t *testing.T, s *Server, id int64) string {
	t.Helper()
	r := httptest.NewRequest("GET", "/api_v2/jobs/x", nil)
	r.SetPathValue("id", itoa(id))
	v, err := s.getJob(&call{r: r, pool: poolPrivate})
	if err != nil {
		t.Fatal(err)
	}
	return string(v.(rawJSON))
}

// renderings returns the cached rendering of every Job, by id (nil: none, or no longer valid).
func renderings(s *Server) map[int64]*rendering {
	out := map[int64]*rendering{}
	_ = s.st.read(func(v view) error {
		for _, j := range s.st.jobs.order {
			c := s.st.renders[j.id-firstJobID]
			if r := c.last.Load(); r != nil && c.current(v.now()) != nil {
				out[j.id] = r
			} else {
				out[j.id] = nil
			}
		}
		return nil
	})
	return out
}

// stale returns the ids of the Jobs whose rendering in now differs from the one in before.
func stale(before, now map[int64]*rendering) []int64 {
	var out []int64
	for id, r := range before {
		if now[id] != r {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// TestAReadCannotChangeARecord changes what a read's view answers: the store, and the JSON the
// fake caches and answers, stay as they were.
func TestAReadCannotChangeARecord(t *testing.T) {
	t.Parallel()
	s := startStore(t, 10)
	id := s.Seed().PublicJobID
	page, one := listJobsJSON(t, s), getJobJSON(t, s, id)
	_ = s.st.read(func(v view) error {
		j, _ := v.job(id)
		j.state, j.transitions[0].name = stateCancelled, "mistaken"
		u, _ := v.user(j.workerID)
		u.firstName, u.badges = "Mallory", append(u.badges, userBadge{badgeID: 1})
		jr, _ := v.jobRequest(j.jobRequestID)
		jr.slots, jr.banList = 99, append(jr.banList, 1)
		return nil
	})
	if got := listJobsJSON(t, s); got != page {
		t.Errorf("a read changed the list:\n%s\nwas\n%s", got, page)
	}
	if got := getJobJSON(t, s, id); got != one {
		t.Errorf("a read changed the Job:\n%s\nwas\n%s", got, one)
	}
	if state, _ := s.JobState(id); state != stateFilled {
		t.Errorf("the Job is %s, want filled", state)
	}
}

// TestACommitInvalidatesExactlyWhatChanged caches every Job's JSON, then makes writes of
// several kinds: exactly the Jobs that show a record that changed lose their cached JSON.
func TestACommitInvalidatesExactlyWhatChanged(t *testing.T) {
	t.Parallel()
	s := startStore(t, 120) // Jobs on three Job Requests of 50, 50 and 20, by 50 Workers
	seed := s.Seed()
	all := func() map[int64]*rendering {
		listJobsJSON(t, s)
		for _, id := range s.st.jobs.ids {
			getJobJSON(t, s, id)
		}
		return renderings(s)
	}
	cached := all()
	for id, r := range cached {
		if r == nil {
			t.Fatalf("job %d: no JSON cached by a list and a show", id)
		}
	}
	want := func(what string, ids ...int64) {
		t.Helper()
		now := renderings(s)
		slices.Sort(ids)
		if got := stale(cached, now); !slices.Equal(got, ids) {
			t.Errorf("%s: stale %v, want %v", what, got, ids)
		}
		cached = all()
	}
	jobsWhere := func(keep func(*job) bool) []int64 {
		var out []int64
		for _, j := range s.st.jobs.order {
			if keep(j) {
				out = append(out, j.id)
			}
		}
		return out
	}

	for _, id := range s.st.jobs.ids {
		getJobJSON(t, s, id)
	}
	listJobsJSON(t, s)
	want("reads")

	if err := s.StartJob(seed.PublicJobID); err != nil {
		t.Fatal(err)
	}
	want("a move of the only Job of a Job Request", seed.PublicJobID)

	loadJob := s.st.jobs.ids[len(s.st.jobs.ids)-1]
	worker := s.st.jobs.at(loadJob).workerID
	_ = s.st.write(func(tx *tx) error {
		u, _ := tx.editUser(worker)
		u.firstName = "Renamed"
		return nil
	})
	want("a change of a Worker", jobsWhere(func(j *job) bool { return j.workerID == worker })...)

	_ = s.st.write(func(tx *tx) error {
		tx.editJob(loadJob)
		u, _ := tx.editUser(worker)
		u.firstName = "Renamed"
		return nil
	})
	want("records handed out and left as they were")

	jrID := s.st.jobs.at(loadJob).jobRequestID
	_ = s.st.write(func(tx *tx) error {
		jr, _ := tx.editJobRequest(jrID)
		jr.startTime = jr.startTime.Add(time.Hour)
		return nil
	})
	want("a change of a Job Request", jobsWhere(func(j *job) bool { return j.jobRequestID == jrID })...)

	s.Advance(time.Hour)
	want("the clock, with no Job pending or filled")
	_ = s.st.write(func(tx *tx) error {
		c, _ := edit(tx, &tx.st.customers, seed.CustomerID)
		c.name = "Acme Logistics West"
		return nil
	})
	want("a change of the employer's Customer", jobsWhere(func(j *job) bool { return j.owner == poolPrivate || j.id == seed.PublicJobID })...)
}

// TestTimeToStartFollowsTheClock caches a filled Job's JSON and moves the clock: the JSON follows
// its time_to_start, and a move that leaves its whole minutes as they were keeps it.
func TestTimeToStartFollowsTheClock(t *testing.T) {
	t.Parallel()
	s := startStore(t, 0)
	id := s.Seed().PublicJobID
	first := getJobJSON(t, s, id) // 4,320 minutes to its start
	s.Advance(10 * time.Second)
	second := getJobJSON(t, s, id) // 4,319.83: 4,319
	if second == first {
		t.Errorf("10 seconds later time_to_start did not move: %s", second)
	}
	s.Advance(20 * time.Second)
	if got := getJobJSON(t, s, id); got != second || renderings(s)[id] == nil {
		t.Errorf("20 more seconds later the JSON changed or was not cached:\n%s\n%s", got, second)
	}
}

// BenchmarkColdPage lists a page of 50 Jobs none of which has its JSON cached, as a sync's first
// pass over a store does:
//
//	go test -run '^$' -bench ColdPage ./workforcetest/
func BenchmarkColdPage(b *testing.B) {
	s, err := Start(WithClock(time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC)))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	s.SeedJobs(10000)
	for b.Loop() {
		for _, c := range s.st.renders[len(s.st.renders)-60:] { // the newest Jobs: the first page
			c.last.Store(nil)
		}
		if _, err := s.listJobs(&call{p: params{"per": "50"}, pool: poolPrivate}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEmbeddedUsersFollowChanges caches Jobs' JSON, whose Workers' JSON is cached once for all
// their Jobs, and renames a Worker: every Job of that Worker shows the new name, in a list and
// alone, and the others keep their cached JSON.
func TestEmbeddedUsersFollowChanges(t *testing.T) {
	t.Parallel()
	s := startStore(t, 120) // Jobs on three Job Requests of 50, 50 and 20, by 50 Workers
	listJobsJSON(t, s)
	for _, id := range s.st.jobs.ids {
		getJobJSON(t, s, id)
	}
	newest := s.st.jobs.ids[len(s.st.jobs.ids)-1]
	worker := s.st.jobs.at(newest).workerID
	var mine, others []int64
	for _, j := range s.st.jobs.order {
		if j.workerID == worker {
			mine = append(mine, j.id)
		} else {
			others = append(others, j.id)
		}
	}
	if len(mine) < 2 {
		t.Fatalf("worker %d has %d Jobs, want several", worker, len(mine))
	}
	before := renderings(s)
	_ = s.st.write(func(tx *tx) error {
		u, _ := tx.editUser(worker)
		u.firstName = "Renamed"
		return nil
	})
	for _, id := range mine {
		if !strings.Contains(getJobJSON(t, s, id), `"first_name":"Renamed"`) {
			t.Errorf("job %d: the Worker's old name is shown alone", id)
		}
	}
	if !strings.Contains(listJobsJSON(t, s), `"first_name":"Renamed"`) {
		t.Errorf("job %d: the Worker's old name is listed", newest)
	}
	after := renderings(s)
	for _, id := range others {
		if after[id] != before[id] {
			t.Errorf("job %d, of another Worker: rendered again", id)
		}
	}
}
