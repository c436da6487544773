package feed

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A change is stored as a header, a newline and the copy as received, and
// reads back whole, a copy holding newlines and escapes included.
func TestAStoredChangeReadsBack(t *testing.T) {
	t.Parallel()
	doc := json.RawMessage("{\n  \"id\": 7,\n  \"state\": \"filled\",\n  \"requestor_notes\": \"a\\nb \\u00e9\"\n}")
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	w := wireChange{Kind: KindJob, ID: 7, Seq: 2, TransitionID: 70, From: "posted\n", To: "filled", At: at,
		Source: SourceWebhook, Seen: at.Add(time.Second), Copy: doc}
	data, err := encodeWire(w)
	require.NoError(t, err)
	c, err := decodeWire(data, 3)
	require.NoError(t, err)
	assert.Equal(t, &Change{Kind: KindJob, ResourceID: 7, Seq: 2, TransitionID: 70, From: "posted\n", To: "filled", At: at,
		Source: SourceWebhook, Seen: at.Add(time.Second), Attempt: 3, Job: c.Job}, c)
	require.NotNil(t, c.Job)
	assert.EqualValues(t, 7, c.Job.ID)
	assert.Equal(t, "a\nb é", c.Job.RequestorNotes)
	assert.Equal(t, string(doc), string(c.Job.Raw))
}

// A change stored by an earlier version (one JSON object, the copy in its
// member "copy") reads back as it did: a SQLite file outlives upgrades.
func TestAChangeStoredByAnEarlierVersionReadsBack(t *testing.T) {
	t.Parallel()
	old := `{"kind":"job_request","id":5,"seq":1,"from":"","to":"posted","at":"2026-03-01T09:00:00Z",` +
		`"source":"sync","seen":"2026-03-01T09:00:01Z","copy":{"id":5,"state":"posted","updated_at":"2026-03-01T09:00:00Z"}}`
	c, err := decodeWire([]byte(old), 1)
	require.NoError(t, err)
	assert.Equal(t, KindJobRequest, c.Kind)
	assert.EqualValues(t, 1, c.Seq)
	assert.Equal(t, "posted", c.To)
	assert.Equal(t, SourceSync, c.Source)
	require.NotNil(t, c.JobRequest)
	assert.EqualValues(t, 5, c.JobRequest.ID)
	assert.JSONEq(t, `{"id":5,"state":"posted","updated_at":"2026-03-01T09:00:00Z"}`, string(c.JobRequest.Raw))
}
