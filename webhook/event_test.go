package webhook_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/webhook"
)

// A delivery in the live API's shapes parses: the Worker only as worker.id,
// flags as text; a value that fits no form is a warning on the Event, not
// an error, and its Job is kept.
func TestParseLiveShapes(t *testing.T) {
	t.Parallel()
	ev, err := webhook.Parse([]byte(`{"job": {"id": 9, "state": "filled", "w2_hourly_rate": "", "hours_worked": 0,
		"worker": {"id": 7, "suspended": "false", "rating": "4.73913043478261", "dob": "1990-04-01", "ssn": "",
		 "user_badges": [{"id": 1, "user_id": 7, "badge_id": 3, "suspended": false}]},
		"transitions": [{"id": 2, "job_id": 9, "name": "filled", "created_at": "2017-09-13T17:57:59Z", "latitude": {"lat": 1}}]}}`))
	require.NoError(t, err)
	assert.Equal(t, int64(9), ev.ID)
	assert.Equal(t, int64(7), ev.Job.WorkerID, "from worker.id")
	assert.Equal(t, "1990-04-01", ev.Job.Worker.DOB.String())
	assert.Equal(t, []workforce.Warning{{ID: 9, Field: "transitions[0].latitude", Value: `{"lat": 1}`, Want: "decimal"}}, ev.Warnings)
	assert.Contains(t, string(ev.Job.Raw), `{"lat": 1}`)
}

// An Event prints its kind, ID and state, and its documents as their
// sizes, in every verb: never its bytes as numbers.
func TestEventPrintsReadably(t *testing.T) {
	t.Parallel()
	body := []byte(`{"job": {"id": 9, "state": "filled", "worker": {"id": 7}}}`)
	ev, err := webhook.Parse(body)
	require.NoError(t, err)
	want := fmt.Sprintf(`webhook.Event{Kind:"job" Key:"job" ID:9 State:"filled" Resource:<%d bytes of JSON> Warnings:0 Body:<%d bytes>}`,
		len(ev.Resource), len(body))
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d"} {
		assert.Equal(t, want, fmt.Sprintf(verb, ev), verb)
	}
	assert.Contains(t, fmt.Sprint(ev.Job), "Job{ID:9 State:\"filled\" WorkerID:7")
}
