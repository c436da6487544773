package workforcetest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestWebhookFaultDropDuplicateReorderDelay(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	rcv := newReceiver(t, f.Private.SecretKey, always(http.StatusNoContent))
	require.NoError(t, f.AddWebhookReceiver(rcv.URL))
	seed := f.Seed()
	id := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	waitWebhooks(t, f.Server)

	f.InjectWebhookFault(workforcetest.WebhookFault{Resource: "job", ID: id, State: "in_progress", Drop: true})
	require.NoError(t, f.StartJob(id))
	waitWebhooks(t, f.Server)
	assert.Equal(t, []string{"filled"}, rcv.jobStates(id), "dropped: never delivered")
	for _, a := range f.WebhookAttempts() {
		if a.Resource == "job" && a.State == "in_progress" {
			assert.Equal(t, "dropped by a webhook fault", a.Error)
			assert.Zero(t, a.Status)
		}
	}

	f.Advance(10 * time.Minute)
	waitWebhooks(t, f.Server)
	assert.Equal(t, []string{"filled"}, rcv.jobStates(id), "nor retried")

	f.InjectWebhookFault(workforcetest.WebhookFault{Resource: "job", ID: id, Reorder: true})
	require.NoError(t, f.CompleteJob(id)) // held back …
	require.NoError(t, f.ApproveJob(id))  // … and sent after this one
	waitWebhooks(t, f.Server)
	assert.Equal(t, []string{"filled", "approved", "completed"}, rcv.jobStates(id))

	id2 := idOf(f.createJob(seed.WorkerIDs[2], seed.JobRequest1099ID))
	waitWebhooks(t, f.Server)
	f.InjectWebhookFault(workforcetest.WebhookFault{ID: id2, Duplicate: true, Times: 1})
	f.InjectWebhookFault(workforcetest.WebhookFault{ID: id2, State: "completed", Delay: time.Minute})
	require.NoError(t, f.StartJob(id2))
	require.NoError(t, f.CompleteJob(id2))
	waitWebhooks(t, f.Server)
	assert.Equal(t, []string{"filled", "in_progress", "in_progress"}, rcv.jobStates(id2), "duplicated; completed delayed")
	f.Advance(time.Minute)
	waitWebhooks(t, f.Server)
	assert.Equal(t, []string{"filled", "in_progress", "in_progress", "completed"}, rcv.jobStates(id2))
}

func TestWebhookChaosShares(t *testing.T) {
	t.Parallel()
	f := newFake(t, workforcetest.WithWebhookChaos(workforcetest.WebhookChaos{Drop: 0.5, Duplicate: 0.5, Seed: 7}))
	rcv := newReceiver(t, f.Private.SecretKey, always(http.StatusNoContent))
	require.NoError(t, f.AddWebhookReceiver(rcv.URL))
	seed := f.Seed()
	id := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequestW2ID))
	require.NoError(t, f.StartJob(id))
	for range 20 {
		require.NoError(t, f.PauseJob(id))
		require.NoError(t, f.StartJob(id))
	}
	waitWebhooks(t, f.Server)
	dropped, sent := 0, 0
	for _, a := range f.WebhookAttempts() {
		if a.Error != "" {
			dropped++
		} else {
			sent++
		}
	}
	assert.Positive(t, dropped)
	assert.Positive(t, sent)
	assert.Zero(t, sent%2, "each change dropped, or sent twice")

	require.NoError(t, f.SetWebhookChaos(workforcetest.WebhookChaos{}))
	assert.Error(t, f.SetWebhookChaos(workforcetest.WebhookChaos{Drop: 0.7, Reorder: 0.7}), "shares over 1")
	assert.Error(t, f.SetWebhookChaos(workforcetest.WebhookChaos{Drop: -0.1}))
	_, err := workforcetest.Start(workforcetest.WithWebhookChaos(workforcetest.WebhookChaos{Duplicate: 2}))
	assert.Error(t, err)
}

func TestControlWebhookFaults(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	rcv := newReceiver(t, f.Private.SecretKey, always(http.StatusNoContent))
	require.NoError(t, f.AddWebhookReceiver(rcv.URL))
	seed := f.Seed()
	status, body := f.json(http.MethodPost, "/_fake/webhooks/faults", nil, obj{"resource": "job", "state": "filled", "drop": true})
	require.Equal(t, http.StatusOK, status, body)
	id := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	waitWebhooks(t, f.Server)
	assert.Empty(t, rcv.jobStates(id))

	status, body = f.json(http.MethodPost, "/_fake/webhooks/chaos", nil, obj{"drop": 1, "seed": 3})
	require.Equal(t, http.StatusOK, status, body)
	require.NoError(t, f.StartJob(id))
	waitWebhooks(t, f.Server)
	assert.Empty(t, rcv.jobStates(id))

	for name, bad := range map[string]obj{
		"delay_seconds": {"delay_seconds": -1},
		"body":          {"dorp": true},
	} {
		status, body := f.json(http.MethodPost, "/_fake/webhooks/faults", nil, bad)
		assert.Equal(t, http.StatusUnprocessableEntity, status, name)
		assert.Contains(t, fieldErrors(t, body), name, name)
	}
	status, body = f.json(http.MethodPost, "/_fake/webhooks/chaos", nil, obj{"drop": 0.9, "duplicate": 0.9})
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	assert.Contains(t, fieldErrors(t, body), "body")
}
