package workforcetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestIndexSelectsWhatTheFiltersTest makes writes of every kind that moves a Job's keys (states,
// pay, new Jobs, updated_at back and forth in time) and checks that every filter of GET /jobs,
// alone and with another, selects through the index the pages its test selects.
func TestIndexSelectsWhatTheFiltersTest(t *testing.T) {
	t.Parallel()
	s := startStore(t, 300)
	seed := s.Seed()
	rng := rand.New(rand.NewPCG(1, 2))
	for i, w := range seed.WorkerIDs[1:] {
		id, err := s.AcceptJobRequest(seed.JobRequestW2ID, w)
		if err != nil {
			t.Fatal(err)
		}
		_ = s.StartJob(id)
		if i%2 == 0 {
			_ = s.CompleteJob(id)
			_ = s.ApproveJob(id)
		}
		if i%4 == 0 {
			_ = s.PayW2Job(id, "PAY-1")
		}
	}
	ids := slices.Clone(s.st.jobs.ids)
	for i := range 200 {
		id := ids[rng.IntN(len(ids))]
		switch i % 4 {
		case 0:
			s.SetTime(s.Now().Add(-time.Duration(rng.IntN(48)) * time.Hour)) // back in time: out of order
		case 1:
			s.Advance(time.Duration(rng.IntN(90)) * time.Minute)
		}
		_ = s.st.write(func(tx *tx) error {
			j, _ := tx.editJob(id)
			j.cancelledReason = fmt.Sprint("reason ", i) // moves nothing the index files
			j.updatedAt = tx.now()
			if i%3 == 0 {
				j.state = []string{stateApproved, stateCompleted, stateCancelled, stateNoShow}[rng.IntN(4)]
			}
			return nil
		})
	}
	now := s.Now()
	values := map[string][]string{
		"state":          {"approved", "no_show,cancelled", "filled", "nothing"},
		"job_request_id": {itoa(seed.JobRequestW2ID), itoa(s.st.jobs.at(ids[100]).jobRequestID)},
		"classification": {"w2", "1099"},
		"w2_hourly_rate": {"22.75", "22.750", "1"},
		"w2_pay_status":  {"pending", "paid", "not_started"},
		"updated_after":  {now.Add(-30 * time.Hour).Format(time.RFC3339), now.Add(-24 * 80 * time.Hour).Format(time.RFC3339)},
		"updated_before": {now.Add(-10 * time.Hour).Format(time.RFC3339), now.Add(-24 * 30 * time.Hour).Format(time.RFC3339)},
	}
	var queries []params
	for name, vs := range values {
		for _, v := range vs {
			queries = append(queries, params{name: v})
			for other, ovs := range values {
				if other != name {
					queries = append(queries, params{name: v, other: ovs[0]})
				}
			}
		}
	}
	for _, q := range queries {
		fe := fieldErrors{}
		sels := readFilters(jobFilters, q, fe)
		if err := fe.err(); err != nil {
			t.Fatal(err)
		}
		for _, public := range []bool{false, true} {
			if public {
				sels = append(sels, whose(s.st.jobIndex, "owner", poolPublic.key()))
			}
			for pg := (page{number: 1, per: 7}); ; pg.number++ {
				var indexed, tested []int64
				_ = s.st.read(func(view) error {
					indexed = listed(&s.st.jobs, s.st.jobIndex, sels, pg)
					tested = listed(&s.st.jobs, nil, sels, pg)
					return nil
				})
				if !slices.Equal(indexed, tested) {
					t.Fatalf("%v (public %v) page %d: the index selects %v, the test %v", q, public, pg.number, indexed, tested)
				}
				if len(tested) < pg.per {
					break
				}
			}
		}
	}
}
