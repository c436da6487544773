package workforcetest

import (
	"slices"
)

// Values of multiDay.repeatType.
const (
	repeatDaily  = "daily"
	repeatWeekly = "weekly"
)

// multiDay is a Multi-day Job Request: a series whose days are the Job Requests created with
// multi_day=true and its id as multi_day_job_request_id.
type multiDay struct {
	stored
	repeatType   string
	sameWorkers  bool
	repeatNumber int // 0 is null
}

// multiDays serves the Multi-day Job Requests from the store. Public Pool keys may read them
// (job_request_ids then lists only their own days) but not write them, as for Job Requests.
func (s *Server) multiDays() resource[multiDay, multiDayJSON] {
	return resource[multiDay, multiDayJSON]{
		st: s.st, one: "multi_day_job_request", many: "multi_day_job_requests", table: &s.st.multiDays,
		render: renderMultiDay, read: readMultiDay,
	}
}

// readMultiDay reads multi_day_job_request[…] into m: repeat_type (daily or weekly) is required,
// repeat_number is a whole number ≥ 1.
func readMultiDay(_ *tx, f fields, m *multiDay, _ int64) {
	f.oneOf(&m.repeatType, "repeat_type", repeatDaily, repeatWeekly)
	f.notBlank(map[string]string{"repeat_type": m.repeatType})
	f.boolean(&m.sameWorkers, "same_workers")
	f.integer(&m.repeatNumber, "repeat_number", 1)
}

// multiDayJSON is a Multi-day Job Request as the API writes it.
type multiDayJSON struct {
	ID            int64   `json:"id"`
	RepeatType    string  `json:"repeat_type"`
	SameWorkers   bool    `json:"same_workers"`
	RepeatNumber  *int    `json:"repeat_number"`
	JobRequestIDs []int64 `json:"job_request_ids"`
	CreatedAt     string  `json:"created_at"`
	UpdatedAt     string  `json:"updated_at"`
}

// renderMultiDay writes m with its days (oldest first) that a token of pool p may see.
func renderMultiDay(v view, m *multiDay, p pool) multiDayJSON {
	out := multiDayJSON{ID: m.id, RepeatType: m.repeatType, SameWorkers: m.sameWorkers,
		RepeatNumber: optInt(m.repeatNumber), JobRequestIDs: []int64{},
		CreatedAt: localTime(m.createdAt), UpdatedAt: localTime(m.updatedAt)}
	days := scan(v, &v.st.jobRequests, func(jr *jobRequest) bool {
		return jr.multiDay && jr.multiDayID == m.id && (p != poolPublic || jr.createdBy == poolPublic)
	}, 0)
	for _, jr := range slices.Backward(days) {
		out.JobRequestIDs = append(out.JobRequestIDs, jr.id)
	}
	return out
}
