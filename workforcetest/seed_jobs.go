package workforcetest

import (
	"math"
	"time"
)

// Shape of the records SeedJobs makes.
const (
	seedJobsPerRequest = 50                  // Jobs per Job Request, each of another Worker
	seedJobsSpan       = 90 * 24 * time.Hour // the Jobs' created_at spread over this span before now
)

// SeedJobs adds n Jobs (none when n < 1) of the Private Pool in one write, for load tests and
// syncs over a large store, and returns the ids of the first and the last: the ids between are
// all this call's. Their updated_at are spread over the 90 days before the clock's now (the
// package doc says what they hold); no webhook is sent for them.
func (s *Server) SeedJobs(n int) (first, last int64) {
	if n < 1 {
		return 0, 0
	}
	_ = s.st.write(func(tx *tx) error {
		first, last = tx.seedJobs(n)
		return nil
	})
	return first, last
}

// seedJobs stores the records of SeedJobs.
func (tx *tx) seedJobs(n int) (first, last int64) {
	st := tx.st
	now := tx.now()
	start := now.Add(-seedJobsSpan)
	step := seedJobsSpan / time.Duration(n)
	employer, _ := tx.user(firstUserID) // Seed.EmployerID
	workers := make([]int64, min(n, seedJobsPerRequest))
	for i := range workers {
		u := add(tx, &st.users, user{kind: kindWorker, firstName: "Load", lastName: "Worker" + itoa(int64(i+1)),
			email: "load.worker" + itoa(st.users.next()) + "@example.com", phone: "+1213555" + itoa(2000+(st.users.next()-1)%8000),
			city: "Los Angeles", addressState: "CA", zip: "90012", rating: "4.5",
			agreedToTermsAt: start, phoneVerifiedAt: start, onboardingLastState: "completed",
			stored: stored{createdAt: start, updatedAt: start}})
		workers[i] = u.id
	}
	var jr *jobRequest
	for i := range n {
		created := start.Add(time.Duration(i) * step).Truncate(time.Millisecond)
		if i%seedJobsPerRequest == 0 {
			jr = add(tx, &st.jobRequests, jobRequest{
				customerID: employer.customerID, employerID: employer.id, createdBy: poolPrivate,
				name: "Load Shift " + itoa(st.jobRequests.next()), state: stateCompleted, category: "General Labor",
				address: "800 W Olympic Blvd", city: "Los Angeles", zip: "90015",
				latitude: "34.042019", longitude: "-118.267109", description: "A shift made by SeedJobs.",
				startTime: created.Add(time.Hour).Truncate(time.Hour), duration: 240,
				slots: seedJobsPerRequest, wage: "18.5", classification: class1099,
				stored: stored{createdAt: created.Add(-24 * time.Hour), updatedAt: created},
			})
		}
		j := &job{jobRequestID: jr.id, workerID: workers[i%len(workers)], owner: poolPrivate,
			stored: stored{createdAt: created}, classification: class1099, adjustedWage: jr.wage}
		at := func(h float64) time.Time {
			return minTime(created.Add(time.Duration(h*float64(time.Hour))).Truncate(time.Millisecond), now)
		}
		tx.seedMove(j, stateFilled, created)
		switch i % 10 {
		case 8:
			j.cancelledReason = "decided_to_cancel"
			tx.seedMove(j, stateCancelled, at(1))
		case 9:
			tx.seedMove(j, stateNoShow, at(2))
		default:
			tx.seedMove(j, stateInProgress, at(2))
			tx.seedMove(j, stateCompleted, at(6))
			hours := math.Round(j.completedAt.Sub(j.startedAt).Hours()*100) / 100
			j.hoursWorked = &hours
			if i%10 < 6 {
				tx.seedMove(j, stateApproved, at(8))
			}
		}
		tx.insertSeededJob(j)
		if first == 0 {
			first = j.id
		}
		last = j.id
		jr.updatedAt = maxTime(jr.updatedAt, j.updatedAt)
	}
	return first, last
}

// seedMove moves j to state `to` at t as move would, without its checks and commit.
func (tx *tx) seedMove(j *job, to string, t time.Time) {
	switch to {
	case stateFilled:
		j.confirmedAt = t
	case stateInProgress:
		j.startedAt = t
	case stateCompleted:
		j.completedAt = t
	case stateApproved, stateCancelled, stateNoShow:
		j.finishedAt = t
	}
	j.transitions = append(j.transitions, transition{id: next(&tx.st.lastTransition), name: to, createdAt: t})
	j.state, j.updatedAt = to, t
}
