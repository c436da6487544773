package workforcetest_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRankings(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	w := seed.WorkerIDs
	id := idOf(f.createJobRequest(obj{"slots": 5, "preferred_candidate_ids": []int64{w[4]}, "ban_list": []int64{w[5]}}))
	f.createJob(w[1], id) // rating 4.8
	f.createJob(w[3], id) // rating 3.9
	status, body := f.get(jrPath(id, "rankings"), f.private)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, []string{"rankings"}, keys(body))
	rankings := body["rankings"].([]any)
	require.Len(t, rankings, 3)
	first := rankings[0].(obj)
	assert.Equal(t, sorted("rank", "worker_id", "score", "worker"), keys(first))
	assert.EqualValues(t, 1, first["rank"])
	assert.EqualValues(t, w[1], first["worker_id"])
	assert.Equal(t, "0.96", first["score"])
	assert.EqualValues(t, w[1], first["worker"].(obj)["id"])
	second, third := rankings[1].(obj), rankings[2].(obj)
	assert.EqualValues(t, w[3], second["worker_id"])
	assert.Equal(t, "0.78", second["score"])
	assert.EqualValues(t, w[4], third["worker_id"], "a preferred candidate without a rating")
	assert.Equal(t, "0.55", third["score"])
	assert.EqualValues(t, 3, third["rank"])

	status, body = f.json(http.MethodPost, jrPath(id, "re_rank_workers"), with(f.private), nil)
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, jobRequestFields, keys(body["job_request"].(obj)))
	_, body = f.get(jrPath(id, "rankings"), f.private)
	var ranked []int64
	for _, r := range body["rankings"].([]any) {
		ranked = append(ranked, int64(r.(obj)["worker_id"].(float64)))
	}
	assert.Equal(t, []int64{w[2], w[1], w[0], w[3], w[4]}, ranked, "every Worker but the banned one, best first")
}

func TestResendNotifications(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	jr := f.createJobRequest(nil)
	id := idOf(jr)
	f.Advance(time.Minute)
	status, body := f.json(http.MethodPost, jrPath(id, "resend_notifications"), with(f.private), nil)
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, jr, body["job_request"], "nothing changes without the switch")
	status, body = f.form(http.MethodPost, jrPath(id, "resend_notifications"), with(f.private),
		url.Values{"push_all_notifications_asap": {"on"}})
	require.Equal(t, http.StatusOK, status, body)
	assert.NotEqual(t, jr["updated_at"], body["job_request"].(obj)["updated_at"], "switched on")
	status, body = f.json(http.MethodPost, jrPath(id, "resend_notifications"), with(f.private),
		obj{"push_all_notifications_asap": "sometimes"})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	assert.Contains(t, fieldErrors(t, body), "push_all_notifications_asap")
}
