package workforce

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeEnvelopeKeepsEachDocument(t *testing.T) {
	t.Parallel()
	var jobs []*Job
	body := []byte(`{"jobs": [{"id": 2, "x": "}"}, {"id": 1}], "meta": 1}`)
	require.NoError(t, decodeErr(body, "jobs", &jobs))
	require.Len(t, jobs, 2)
	assert.JSONEq(t, `{"id": 2, "x": "}"}`, string(jobs[0].Raw))
	assert.JSONEq(t, `{"id": 1}`, string(jobs[1].Raw))
	jobs[0].Raw = append(jobs[0].Raw, "garbage"...)
	assert.JSONEq(t, `{"id": 1}`, string(jobs[1].Raw), "appending to one document leaves the others alone")

	var bare []*Job
	require.NoError(t, decodeErr([]byte(` [{"id": 3}] `), "jobs", &bare))
	assert.Equal(t, int64(3), bare[0].ID)

	var one *Job
	require.NoError(t, decodeErr([]byte(`{"id": 4, "state": "filled"}`), "job", &one))
	assert.Equal(t, int64(4), one.ID)
	assert.JSONEq(t, `{"id": 4, "state": "filled"}`, string(one.Raw))
}

func TestDecodeEnvelopeRefusesNullResources(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"job": null}`, `null`} {
		var job *Job
		assert.Error(t, decodeErr([]byte(body), "job", &job), body)
	}
	var jobs []*Job
	err := decodeErr([]byte(`{"jobs": [{"id": 2}, null]}`), "jobs", &jobs)
	assert.ErrorContains(t, err, "element 1")
	require.NoError(t, decodeErr([]byte(`{"jobs": null}`), "jobs", &jobs), "no list is an empty list")
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
		if decodeErr(body, "jobs", &jobs) == nil {
			for _, j := range jobs {
				if j != nil {
					assert.True(t, json.Valid(j.Raw), "%q", j.Raw)
				}
			}
		}
		var job *Job
		_ = decodeErr(body, "job", &job)
		hr := &http.Response{StatusCode: 422, Header: http.Header{"Retry-After": {string(body)}}, Body: io.NopCloser(bytes.NewReader(body))}
		e := c.apiError(c.newCall(context.Background(), request{method: http.MethodGet, path: "jobs"}), hr)
		assert.LessOrEqual(t, len(e.Body), maxErrorBody)
		_ = e.Error()
	})
}

// TestKeptResourceKeepsOnlyItsDocument holds a resource decoded from a body
// to its own bytes: once the body is dropped, keeping one Job of a page, or
// the single Job of an answer, must not keep the body alive.
func TestKeptResourceKeepsOnlyItsDocument(t *testing.T) {
	t.Parallel()
	page := []byte(`{"jobs": [{"id": 2, "state": "filled", "notes": "` + strings.Repeat("x", 64<<10) + `"}, {"id": 1}]}`)
	for _, c := range []struct {
		name, body string
		decode     func([]byte) (*Job, error)
	}{
		{"list", string(page), func(b []byte) (*Job, error) {
			var jobs []*Job
			err := decodeErr(b, "jobs", &jobs)
			if err != nil {
				return nil, err
			}
			return jobs[1], nil
		}},
		{"single", `{"job": {"id": 3, "x": "` + strings.Repeat("y", 64<<10) + `"}}`, func(b []byte) (*Job, error) {
			var job *Job
			err := decodeErr(b, "job", &job)
			return job, err
		}},
	} {
		body := []byte(c.body) // an allocation of its own, as the client's is
		alive := weak.Make(&body[0])
		job, err := c.decode(body)
		require.NoError(t, err, c.name)
		raw := string(job.Raw)
		body = nil
		runtime.GC()
		assert.Nil(t, alive.Value(), "%s: the kept Job holds the whole body", c.name)
		assert.Equal(t, raw, string(job.Raw), c.name)
		runtime.KeepAlive(job)
	}
}

// decodeErr decodes as decodeEnvelope does, returning its error alone.
func decodeErr(data []byte, key string, out any) error {
	_, err := decodeEnvelope(data, key, out, MaxWarnings)
	return err
}
