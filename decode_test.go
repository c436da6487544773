package workforce

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeEnvelopeKeepsEachDocument(t *testing.T) {
	t.Parallel()
	var jobs []*Job
	body := []byte(`{"jobs": [{"id": 2, "x": "}"}, {"id": 1}], "meta": 1}`)
	require.NoError(t, decodeEnvelope(body, "jobs", &jobs))
	require.Len(t, jobs, 2)
	assert.JSONEq(t, `{"id": 2, "x": "}"}`, string(jobs[0].Raw))
	assert.JSONEq(t, `{"id": 1}`, string(jobs[1].Raw))
	jobs[0].Raw = append(jobs[0].Raw, "garbage"...)
	assert.JSONEq(t, `{"id": 1}`, string(jobs[1].Raw), "appending to one document leaves the others alone")

	var bare []*Job
	require.NoError(t, decodeEnvelope([]byte(` [{"id": 3}] `), "jobs", &bare))
	assert.Equal(t, int64(3), bare[0].ID)

	var one *Job
	require.NoError(t, decodeEnvelope([]byte(`{"id": 4, "state": "filled"}`), "job", &one))
	assert.Equal(t, int64(4), one.ID)
	assert.JSONEq(t, `{"id": 4, "state": "filled"}`, string(one.Raw))
}

func TestDecodeEnvelopeRefusesNullResources(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"job": null}`, `null`} {
		var job *Job
		assert.Error(t, decodeEnvelope([]byte(body), "job", &job), body)
	}
	var jobs []*Job
	err := decodeEnvelope([]byte(`{"jobs": [{"id": 2}, null]}`), "jobs", &jobs)
	assert.ErrorContains(t, err, "element 1")
	require.NoError(t, decodeEnvelope([]byte(`{"jobs": null}`), "jobs", &jobs), "no list is an empty list")
	assert.Empty(t, jobs)
}

// FuzzDecodeResponse feeds arbitrary bodies to the decoding of a list, of
// a single resource and of an error: none may panic, and a decoded Job's
// document is valid JSON.
func FuzzDecodeResponse(f *testing.F) {
	for _, s := range []string{
		`{"jobs": [{"id": 1, "adjusted_wage": "18.5", "created_at": "2017-09-13T11:34:36.820-07:00"}]}`,
		`{"job": {"id": 1, "worker": {"rating": ""}, "transitions": [{"latitude": 34.1}]}}`,
		`[{"id": 1}]`, `{"error": "x", "errors": {"state": ["bad"]}}`, `{"errors": ["a", 1]}`, `<html>`, ``,
	} {
		f.Add([]byte(s))
	}
	c, err := New("pk_test_fuzz", "sk_test_fuzz", WithBaseURL("https://api.example.com"))
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, body []byte) {
		var jobs []*Job
		if decodeEnvelope(body, "jobs", &jobs) == nil {
			for _, j := range jobs {
				if j != nil {
					assert.True(t, json.Valid(j.Raw), "%q", j.Raw)
				}
			}
		}
		var job *Job
		_ = decodeEnvelope(body, "job", &job)
		hr := &http.Response{StatusCode: 422, Header: http.Header{"Retry-After": {string(body)}}, Body: io.NopCloser(bytes.NewReader(body))}
		e := c.apiError(hr, http.MethodGet, "/api_v2/jobs")
		assert.LessOrEqual(t, len(e.Body), maxErrorBody)
		_ = e.Error()
	})
}
