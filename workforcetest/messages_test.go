package workforcetest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMessagesGoBetweenAJobsWorkerAndEmployer(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	job := f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID)
	jobID := idOf(job)
	status, body := f.json(http.MethodPost, "/api_v2/messages", with(f.private), obj{"message": obj{
		"body": "Gate B, 7am", "job_id": jobID, "sender_id": seed.EmployerID, "receiver_id": seed.WorkerIDs[1]}})
	require.Equal(t, http.StatusOK, status, body)
	m := body["message"].(obj)
	assert.Equal(t, sorted("id", "job_id", "sender_id", "receiver_id", "body", "image_url", "read_at", "created_at"), keys(m))
	assert.Nil(t, m["read_at"])
	status, body = f.form(http.MethodPost, "/api_v2/messages", with(f.private), url.Values{"message[body]": {"On my way"},
		"message[job_id]": {itoa(jobID)}, "message[sender_id]": {itoa(seed.WorkerIDs[1])},
		"message[receiver_id]": {itoa(seed.EmployerID)}, "message[read_at]": {"2026-11-23T08:00:00Z"}})
	require.Equal(t, http.StatusOK, status, body, "either way round")
	reply := body["message"].(obj)
	assert.Equal(t, "2026-11-23T00:00:00.000-08:00", reply["read_at"], "a record's own time: Pacific, milliseconds")

	status, body = f.get("/api_v2/messages", f.private, "job_id", itoa(jobID))
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{idOf(reply), idOf(m)}, listIDs(t, body, "messages"))
	status, body = f.get("/api_v2/messages", f.private, "sender_id", itoa(seed.EmployerID), "receiver_id", itoa(seed.WorkerIDs[1]))
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{idOf(m)}, listIDs(t, body, "messages"))
	status, body = f.get(idPath("messages", idOf(m)), f.private)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, m, body["message"])

	// The Public Pool sees only the messages of its own Jobs, and may write there.
	status, body = f.get(idPath("messages", idOf(m)), f.public)
	assert.Equal(t, http.StatusNotFound, status, body)
	status, body = f.get("/api_v2/messages", f.public)
	require.Equal(t, http.StatusOK, status)
	assert.Empty(t, listIDs(t, body, "messages"))
	status, body = f.json(http.MethodPost, "/api_v2/messages", with(f.public), obj{"message": obj{
		"body": "Thanks", "job_id": seed.PublicJobID, "sender_id": seed.EmployerID, "receiver_id": seed.WorkerIDs[0]}})
	require.Equal(t, http.StatusOK, status, body)
	status, body = f.json(http.MethodPost, "/api_v2/messages", with(f.public), obj{"message": obj{
		"body": "Hi", "job_id": jobID, "sender_id": seed.EmployerID, "receiver_id": seed.WorkerIDs[1]}})
	assert.Equal(t, http.StatusUnprocessableEntity, status, "not a Job it sees")
	assert.Contains(t, fieldErrors(t, body), "job_id")

	status, body = f.get("/api_v2/messages", f.private, "job_id", "x")
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	assert.Contains(t, fieldErrors(t, body), "job_id")
	status, _ = f.get(idPath("messages", 99999), f.private)
	assert.Equal(t, http.StatusNotFound, status)
	status, _ = f.get("/api_v2/messages", "")
	assert.Equal(t, http.StatusUnauthorized, status)
	msg := func(extra obj) obj {
		b := obj{"body": "x", "job_id": jobID, "sender_id": seed.EmployerID, "receiver_id": seed.WorkerIDs[1]}
		for k, v := range extra {
			b[k] = v
		}
		return obj{"message": b}
	}
	f.requireInvalid(map[string]invalidCase{
		"no body":         {http.MethodPost, "/api_v2/messages", msg(obj{"body": "  "}), "body"},
		"no job":          {http.MethodPost, "/api_v2/messages", msg(obj{"job_id": nil}), "job_id"},
		"unknown job":     {http.MethodPost, "/api_v2/messages", msg(obj{"job_id": 99999}), "job_id"},
		"no sender":       {http.MethodPost, "/api_v2/messages", msg(obj{"sender_id": nil}), "sender_id"},
		"stranger":        {http.MethodPost, "/api_v2/messages", msg(obj{"receiver_id": seed.WorkerIDs[2]}), "receiver_id"},
		"to oneself":      {http.MethodPost, "/api_v2/messages", msg(obj{"receiver_id": seed.EmployerID}), "receiver_id"},
		"bad read_at":     {http.MethodPost, "/api_v2/messages", msg(obj{"read_at": "today"}), "read_at"},
		"long body":       {http.MethodPost, "/api_v2/messages", msg(obj{"body": strings.Repeat("x", 5001)}), "body"},
		"array for a job": {http.MethodPost, "/api_v2/messages", msg(obj{"job_id": []any{1}}), "job_id"},
	})
}
