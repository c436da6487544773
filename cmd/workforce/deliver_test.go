package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
)

const completedJob = `{"id":7,"state":"completed","note":"kept",
 "created_at":"2026-11-01T08:00:00Z","updated_at":"2026-11-01T17:00:00Z",
 "started_at":"2026-11-01T09:00:00Z","completed_at":"2026-11-01T17:00:00Z",
 "transitions":[
  {"id":3,"job_id":7,"name":"completed","created_at":"2026-11-01T17:00:00Z"},
  {"id":2,"job_id":7,"name":"in_progress","created_at":"2026-11-01T09:00:00Z"},
  {"id":1,"job_id":7,"name":"filled","created_at":"2026-11-01T08:00:00Z"}]}`

func TestBodyIsTheJobAtTheChange(t *testing.T) {
	t.Parallel()
	var job workforce.Job
	require.NoError(t, json.Unmarshal([]byte(completedJob), &job))
	job.Raw = json.RawMessage(completedJob)

	// The copy's latest transition: sent as received.
	b, rebuilt, err := body(&feed.Change{Kind: feed.KindJob, ResourceID: 7, TransitionID: 3, From: "in_progress",
		To: "completed", Job: &job})
	require.NoError(t, err)
	assert.False(t, rebuilt)
	assert.Equal(t, `{"job":`+completedJob+`}`, string(b))

	// An earlier one: rebuilt as it stood then.
	b, rebuilt, err = body(&feed.Change{Kind: feed.KindJob, ResourceID: 7, TransitionID: 2, From: "filled",
		To: "in_progress", At: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC), Job: &job})
	require.NoError(t, err)
	assert.True(t, rebuilt)
	assert.JSONEq(t, `{"job":{"id":7,"state":"in_progress","note":"kept",
 "created_at":"2026-11-01T08:00:00Z","updated_at":"2026-11-01T09:00:00Z",
 "started_at":"2026-11-01T09:00:00Z","completed_at":null,
 "transitions":[
  {"id":2,"job_id":7,"name":"in_progress","created_at":"2026-11-01T09:00:00Z"},
  {"id":1,"job_id":7,"name":"filled","created_at":"2026-11-01T08:00:00Z"}]}}`, string(b))

	_, _, err = body(&feed.Change{Kind: feed.KindJob, ResourceID: 7, TransitionID: 99, To: "approved", Job: &job})
	assert.Error(t, err, "a transition the copy lacks")

	jr := &workforce.JobRequest{ID: 5, State: workforce.JobRequestPosted, Raw: json.RawMessage(`{"id":5,"state":"posted"}`)}
	b, rebuilt, err = body(&feed.Change{Kind: feed.KindJobRequest, ResourceID: 5, To: "posted", JobRequest: jr})
	require.NoError(t, err)
	assert.False(t, rebuilt)
	assert.Equal(t, `{"job_request":{"id":5,"state":"posted"}}`, string(b))
}
