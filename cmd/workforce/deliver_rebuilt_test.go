package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
)

// movedJob is a completed Job's copy in the API's real forms: the record's own times Pacific
// to the millisecond, transitions' created_at UTC to the second; keys not in alphabetical order.
const movedJob = `{"id":9,"state":"completed","note":"kept \u00e9","started_at":"2026-11-20T09:00:48.201-08:00",
 "completed_at":"2026-11-20T10:00:05.640-08:00","hours":1.5,
 "transitions":[
  {"id":15,"job_id":9,"name":"completed","created_at":"2026-11-20T18:00:05Z"},
  {"id":14,"job_id":9,"name":"in_progress","created_at":"2026-11-20T17:45:10Z"},
  {"id":13,"job_id":9,"name":"paused","created_at":"2026-11-20T17:30:00Z"},
  {"id":12,"job_id":9,"name":"in_progress","created_at":"2026-11-20T17:00:48Z"},
  {"id":11,"job_id":9,"name":"filled","created_at":"2026-11-20T16:00:00Z"}],
 "updated_at":"2026-11-20T10:00:05.702-08:00","created_at":"2026-11-20T07:59:59.120-08:00"}`

// members answers the top-level keys of doc in order and their values' bytes.
func members(t *testing.T, doc []byte) (keys []string, values map[string]string) {
	t.Helper()
	values = map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(doc))
	_, err := dec.Token()
	require.NoError(t, err)
	for dec.More() {
		tok, err := dec.Token()
		require.NoError(t, err)
		var v json.RawMessage
		require.NoError(t, dec.Decode(&v))
		keys = append(keys, tok.(string))
		values[tok.(string)] = string(v)
	}
	return keys, values
}

func TestRebuiltJobBodiesKeepTheCopy(t *testing.T) {
	t.Parallel()
	var job workforce.Job
	require.NoError(t, json.Unmarshal([]byte(movedJob), &job))
	job.Raw = json.RawMessage(movedJob)
	copyKeys, copyValues := members(t, []byte(movedJob))

	steps := []struct {
		id                 int64
		to                 string
		started, completed bool
		transitions        int
	}{
		{11, "filled", false, false, 1},
		{12, "in_progress", true, false, 2},
		{13, "paused", true, false, 3},
		{14, "in_progress", true, false, 4},
		{15, "completed", true, true, 5},
	}
	var last time.Time
	for _, s := range steps {
		b, rebuilt, err := body(&feed.Change{Kind: feed.KindJob, ResourceID: 9, TransitionID: s.id, To: s.to, Job: &job})
		require.NoError(t, err)
		assert.Equal(t, s.id != 15, rebuilt, s.id)
		var w struct{ Job json.RawMessage }
		require.NoError(t, json.Unmarshal(b, &w))
		keys, values := members(t, w.Job)
		assert.Equal(t, copyKeys, keys, "key order at %d", s.id)
		for _, k := range []string{"id", "note", "hours", "created_at"} {
			assert.Equal(t, copyValues[k], values[k], "%s at %d", k, s.id)
		}
		assert.Equal(t, `"`+s.to+`"`, values["state"])
		if s.started {
			assert.Equal(t, copyValues["started_at"], values["started_at"], "started_at at %d", s.id)
		} else {
			assert.Equal(t, "null", values["started_at"], "started_at at %d", s.id)
		}
		if s.completed {
			assert.Equal(t, copyValues["completed_at"], values["completed_at"])
		} else {
			assert.Equal(t, "null", values["completed_at"], "completed_at at %d", s.id)
		}
		var trs []json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(values["transitions"]), &trs))
		assert.Len(t, trs, s.transitions)
		var u string
		require.NoError(t, json.Unmarshal([]byte(values["updated_at"]), &u))
		assert.Regexp(t, `^2026-11-20T\d\d:\d\d:\d\d\.\d{3}-08:00$`, u, "the copy's own form")
		ut, err := time.Parse(time.RFC3339, u)
		require.NoError(t, err)
		assert.False(t, ut.Before(last), "updated_at went backwards at %d: %s", s.id, u)
		last = ut
	}
}

// A rebuilt body's updated_at is never before the updated_at of the Job's delivery before it:
// a copy sent as received (paused at 17:30:00.602Z) may stand later in the same second as the
// change rebuilt after it from a newer copy (in_progress at 17:30:00Z).
func TestRebuiltUpdatedAtFollowsTheDeliveryBefore(t *testing.T) {
	t.Parallel()
	var job workforce.Job
	require.NoError(t, json.Unmarshal([]byte(movedJob), &job))
	job.Raw = json.RawMessage(movedJob)
	job.Transitions[1].CreatedAt = workforce.Time{Time: time.Date(2026, 11, 20, 17, 30, 0, 0, time.UTC)} // in_progress, 14
	raw := bytes.Replace([]byte(movedJob), []byte(`"2026-11-20T17:45:10Z"`), []byte(`"2026-11-20T17:30:00Z"`), 1)
	job.Raw = raw
	before := time.Date(2026, 11, 20, 17, 30, 0, 602_000_000, time.UTC) // the paused copy's updated_at
	b, rebuilt, err := bodyAfter(&feed.Change{Kind: feed.KindJob, ResourceID: 9, TransitionID: 14, To: "in_progress", Job: &job}, before)
	require.NoError(t, err)
	require.True(t, rebuilt)
	var sent struct {
		Job struct {
			UpdatedAt workforce.Time `json:"updated_at"`
		} `json:"job"`
	}
	require.NoError(t, json.Unmarshal(b, &sent))
	assert.False(t, sent.Job.UpdatedAt.Before(before), "updated_at %s went back before %s", sent.Job.UpdatedAt, before)
}
