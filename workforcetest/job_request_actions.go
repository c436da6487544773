package workforcetest

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
)

// ranking is one Worker's place in a Job Request's ranking.
type ranking struct {
	Rank     int       `json:"rank"`
	WorkerID int64     `json:"worker_id"`
	Score    string    `json:"score"`
	Worker   *userJSON `json:"worker"`
}

// rankings serves GET /api_v2/job_requests/:id/rankings: {"rankings": [...]}, rank ascending.
// 403 for the Public Pool.
func (s *Server) rankings(c *call) (any, error) {
	id, err := c.privateID()
	if err != nil {
		return nil, err
	}
	var out []ranking
	err = s.st.read(func(v view) error {
		jr, err := visibleJobRequest(v, id, c.pool)
		if err == nil {
			out = rank(v, jr)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return map[string][]ranking{"rankings": out}, nil
}

// rank ranks the Workers who applied to jr (hold a Job on it, in any state) and its preferred
// candidates, or, once re_rank_workers ran, every Worker; never those on its ban list. The
// score is the Worker's rating / 5 (0.5 without a rating), plus 0.05 for a preferred candidate,
// at most 1; ties go to the lower id.
func rank(v view, jr *jobRequest) []ranking {
	type scored struct {
		u     *user
		score float64
	}
	candidates := map[int64]bool{}
	for _, j := range v.jobsOf(jr.id) {
		candidates[j.workerID] = true
	}
	for _, id := range jr.preferredCandidateIDs {
		candidates[id] = true
	}
	var list []scored
	for _, u := range scan(v, &v.st.users, func(u *user) bool {
		return u.kind == kindWorker && !slices.Contains(jr.banList, u.id) && (jr.ranked || candidates[u.id])
	}, 0) {
		score := 0.5
		if r, err := strconv.ParseFloat(u.rating, 64); err == nil {
			score = r / 5
		}
		if slices.Contains(jr.preferredCandidateIDs, u.id) {
			score += 0.05
		}
		list = append(list, scored{u, min(score, 1)})
	}
	sort.Slice(list, func(i, k int) bool {
		if list[i].score != list[k].score {
			return list[i].score > list[k].score
		}
		return list[i].u.id < list[k].u.id
	})
	out := make([]ranking, len(list))
	for i, sc := range list {
		out[i] = ranking{Rank: i + 1, WorkerID: sc.u.id, Score: fmt.Sprintf("%.2f", sc.score), Worker: renderUser(v, sc.u)}
	}
	return out
}

// resendNotifications serves POST /api_v2/job_requests/:id/resend_notifications with an
// optional push_all_notifications_asap (on/off, top level or under job_request), answering the
// Job Request. updated_at moves only when the switch changes. 403 for the Public Pool.
func (s *Server) resendNotifications(c *call) (any, error) {
	return s.jobRequestAction(c, func(tx *tx, jr *jobRequest) error {
		fe := fieldErrors{}
		push := jr.pushAll
		for _, path := range [][]string{{"push_all_notifications_asap"}, {"job_request", "push_all_notifications_asap"}} {
			if _, ok := c.p.str(path...); ok {
				readOnOff(c.p, fe, &push, path...)
			}
		}
		if err := fe.err(); err != nil {
			return err
		}
		if push != jr.pushAll {
			jr.pushAll, jr.updatedAt = push, tx.now()
		}
		return nil
	})
}

// reRankWorkers serves POST /api_v2/job_requests/:id/re_rank_workers: from then on its rankings
// list every Worker not banned. It answers the Job Request. 403 for the Public Pool.
func (s *Server) reRankWorkers(c *call) (any, error) {
	return s.jobRequestAction(c, func(tx *tx, jr *jobRequest) error {
		jr.ranked = true
		jr.reRanked = jr.reRanked[:0:0]
		for _, r := range rank(tx.view, jr) {
			jr.reRanked = append(jr.reRanked, r.WorkerID)
		}
		return nil
	})
}

// jobRequestAction runs act on the Job Request of the path, as the transaction hands it out, and
// answers it. 403 for the Public Pool.
func (s *Server) jobRequestAction(c *call, act func(*tx, *jobRequest) error) (any, error) {
	id, err := c.privateID()
	if err != nil {
		return nil, err
	}
	var out any
	err = s.st.write(func(tx *tx) error {
		if _, err := visibleJobRequest(tx.view, id, c.pool); err != nil {
			return err
		}
		jr, _ := tx.editJobRequest(id)
		if err := act(tx, jr); err != nil {
			return err
		}
		out = answerJobRequest(tx.view, id, c.pool)
		return nil
	})
	return out, err
}
