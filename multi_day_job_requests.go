package workforce

import (
	"context"
	"encoding/json"
)

// MultiDayJobRequestsService creates, reads and changes Multi-day Job
// Requests: series whose days are ordinary Job Requests. Create the series,
// then post each day with JobRequests.Create, setting MultiDay to Ptr(true)
// and MultiDayJobRequestID to the series' ID. The series lists its days in
// JobRequestIDs; JobRequestListOptions.MultiDayJobRequestID lists them too.
type MultiDayJobRequestsService service

// A MultiDayJobRequest is a series of Job Requests on several days.
type MultiDayJobRequest struct {
	ID         int64      `json:"id"`
	RepeatType RepeatType `json:"repeat_type"`
	// SameWorkers asks for the same Workers on every day.
	SameWorkers bool `json:"same_workers"`
	// RepeatNumber is how many times the work repeats.
	RepeatNumber int `json:"repeat_number"`
	// JobRequestIDs are the series' days, oldest first.
	JobRequestIDs []int64 `json:"job_request_ids"`
	CreatedAt     Time    `json:"created_at"`
	UpdatedAt     Time    `json:"updated_at"`

	// Raw is the JSON document as received, with every field, including
	// those this type does not model.
	Raw json.RawMessage `json:"-"`
}

func (m *MultiDayJobRequest) setRaw(b json.RawMessage) { m.Raw = b }

// RepeatType is how a Multi-day Job Request repeats. A value this SDK
// does not know is kept as it was sent.
type RepeatType string

// The repeat types.
const (
	RepeatDaily  RepeatType = "daily"
	RepeatWeekly RepeatType = "weekly"
)

// MultiDayJobRequestParams is the body of POST /multi_day_job_requests
// and PATCH /multi_day_job_requests/:id. Zero fields are not sent, so an
// update changes only what is set. RepeatType is required to create.
type MultiDayJobRequestParams struct {
	RepeatType RepeatType `json:"repeat_type,omitempty"`
	// SameWorkers asks for the same Workers on every day; Ptr(false)
	// sends false.
	SameWorkers *bool `json:"same_workers,omitempty"`
	// RepeatNumber is how many times the work repeats; 0 is not sent.
	RepeatNumber int `json:"repeat_number,omitempty"`
}

func (p *MultiDayJobRequestParams) check(create bool) error {
	if err := checkSomething("MultiDayJobRequestParams", p); err != nil {
		return err
	}
	var repeatType error
	if create {
		repeatType = checkRequired("RepeatType", string(p.RepeatType))
	}
	return firstError(repeatType,
		checkOneOf("RepeatType", string(p.RepeatType), string(RepeatDaily), string(RepeatWeekly)),
		checkNotNegative("RepeatNumber", p.RepeatNumber))
}

// Get returns one Multi-day Job Request.
//
// API: GET /multi_day_job_requests/:id
func (s *MultiDayJobRequestsService) Get(ctx context.Context, id int64) (*MultiDayJobRequest, *Response, error) {
	return call[*MultiDayJobRequest](ctx, s.client, multiDayJobRequests.get(id))
}

// Create creates a Multi-day Job Request, to which Job Requests are then
// posted as its days.
//
// When the error matches ErrOutcomeUnknown a series may have been created
// that the API has no list to find: creating it again may leave an unused
// one, which holds no days and so does no harm.
//
// API: POST /multi_day_job_requests
func (s *MultiDayJobRequestsService) Create(ctx context.Context, series *MultiDayJobRequestParams) (*MultiDayJobRequest, *Response, error) {
	return call[*MultiDayJobRequest](ctx, s.client, multiDayJobRequests.create(series))
}

// Update changes the fields of a Multi-day Job Request that changes sets;
// at least one must be.
//
// API: PATCH /multi_day_job_requests/:id
func (s *MultiDayJobRequestsService) Update(ctx context.Context, id int64, changes *MultiDayJobRequestParams) (*MultiDayJobRequest, *Response, error) {
	return call[*MultiDayJobRequest](ctx, s.client, multiDayJobRequests.update(id, changes))
}
