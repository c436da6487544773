package feed

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A change is stored as one JSON object, its copy last as received, and
// reads back whole: a copy holding newlines, escapes and its own "copy"
// member, states holding what the copy's member looks like. An earlier
// version (json.Unmarshal of the whole) reads it too.
func TestAStoredChangeReadsBack(t *testing.T) {
	t.Parallel()
	doc := json.RawMessage("{\n  \"id\": 7,\n  \"state\": \"filled\",\"copy\":{},\n  \"requestor_notes\": \"a\\nb \\u00e9 ,\\\"copy\\\":\"\n}")
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	from := `posted,"copy":{"id":9}}`
	w := wireChange{Kind: KindJob, ID: 7, Seq: 2, TransitionID: 70, From: from, To: "filled", At: at,
		Source: SourceWebhook, Seen: at.Add(time.Second), Copy: doc}
	data, err := encodeWire(w)
	require.NoError(t, err)
	var earlier wireChange
	require.NoError(t, json.Unmarshal(data, &earlier))
	assert.Equal(t, w, earlier)
	c, err := decodeWire(data, 3)
	require.NoError(t, err)
	assert.Equal(t, &Change{Kind: KindJob, ResourceID: 7, Seq: 2, TransitionID: 70, From: from, To: "filled", At: at,
		Source: SourceWebhook, Seen: at.Add(time.Second), Attempt: 3, Job: c.Job}, c)
	require.NotNil(t, c.Job)
	assert.EqualValues(t, 7, c.Job.ID)
	assert.Equal(t, "a\nb é ,\"copy\":", c.Job.RequestorNotes)
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

// FuzzStoredChange checks that a change reads back as stored whatever its
// states and its copy's strings hold, by decodeWire and by an earlier
// version's json.Unmarshal alike.
func FuzzStoredChange(f *testing.F) {
	f.Add(`posted`, `filled`, `bring boots`)
	f.Add(`,"copy":{`, `"}`, `,"copy":null}`)
	f.Fuzz(func(t *testing.T, from, to, notes string) {
		doc, err := json.Marshal(map[string]any{"id": 7, "state": to, "requestor_notes": notes})
		require.NoError(t, err)
		w := wireChange{Kind: KindJob, ID: 7, Seq: 1, From: from, To: to, Source: SourceSync, Copy: doc}
		data, err := encodeWire(w)
		require.NoError(t, err)
		var earlier wireChange
		require.NoError(t, json.Unmarshal(data, &earlier))
		c, err := decodeWire(data, 1)
		require.NoError(t, err)
		require.NotNil(t, c.Job)
		assert.Equal(t, earlier.From, c.From) // json.Marshal made invalid UTF-8 valid for both
		assert.Equal(t, earlier.To, c.To)
		assert.Equal(t, string(doc), string(c.Job.Raw))
	})
}
