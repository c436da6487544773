package webhook_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/webhook"
)

func TestParseJob(t *testing.T) {
	t.Parallel()
	body := []byte(`{"job": {"id": 1001, "state": "completed", "job_request_id": 501, "hours_worked": "7.5", "new_field": [1]}}`)
	ev, err := webhook.Parse(body)
	require.NoError(t, err)
	assert.Equal(t, webhook.KindJob, ev.Kind)
	assert.Equal(t, "job", ev.Key)
	assert.EqualValues(t, 1001, ev.ID)
	assert.Equal(t, "completed", ev.State)
	require.NotNil(t, ev.Job)
	assert.Equal(t, workforce.JobCompleted, ev.Job.State)
	assert.EqualValues(t, 501, ev.Job.JobRequestID)
	assert.Equal(t, "7.5", ev.Job.HoursWorked.String())
	assert.Contains(t, string(ev.Job.Raw), `"new_field": [1]`, "unknown fields stay reachable")
	assert.Equal(t, body, ev.Body)
	assert.Nil(t, ev.JobRequest)
}

func TestParseJobRequest(t *testing.T) {
	t.Parallel()
	ev, err := webhook.Parse([]byte(`{"job_request": {"id": 501, "state": "cancelled"}}`))
	require.NoError(t, err)
	assert.Equal(t, webhook.KindJobRequest, ev.Kind)
	assert.EqualValues(t, 501, ev.ID)
	assert.Equal(t, "cancelled", ev.State)
	require.NotNil(t, ev.JobRequest)
	assert.EqualValues(t, 501, ev.JobRequest.ID)
	assert.JSONEq(t, `{"id": 501, "state": "cancelled"}`, string(ev.JobRequest.Raw))
}

func TestParseUnknownKind(t *testing.T) {
	t.Parallel()
	ev, err := webhook.Parse([]byte(`{"timesheet": {"id": 7, "state": "signed", "extra": true}}`))
	require.NoError(t, err)
	assert.Equal(t, webhook.KindUnknown, ev.Kind)
	assert.Equal(t, "timesheet", ev.Key)
	assert.EqualValues(t, 7, ev.ID)
	assert.Equal(t, "signed", ev.State)
	assert.JSONEq(t, `{"id": 7, "state": "signed", "extra": true}`, string(ev.Resource))

	ev, err = webhook.Parse([]byte(`{"thing": {"id": "not a number"}}`))
	require.NoError(t, err, "an unknown kind is read leniently")
	assert.Zero(t, ev.ID)
}

func TestParseRefusesMalformed(t *testing.T) {
	t.Parallel()
	for _, body := range []string{``, `null`, `[]`, `{}`, `"job"`, `{"job": 5}`, `{"job": null}`,
		`{"job": {"id": 1}, "job_request": {"id": 2}}`, `{"job": {"id": 1}} trailing`, `{"job": {`} {
		_, err := webhook.Parse([]byte(body))
		assert.ErrorIs(t, err, webhook.ErrMalformedEvent, body)
	}
}

// FuzzParse checks that Parse never panics, and that what it accepts has
// a resource object.
func FuzzParse(f *testing.F) {
	f.Add([]byte(jobBody))
	f.Add([]byte(jrBody))
	f.Add([]byte(`{"x": {"id": 1}}`))
	f.Add([]byte(`{"job": {"transitions": [{"latitude": "1.5"}], "worker": {"rating": 4}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := webhook.Parse(body)
		if err != nil {
			return
		}
		if len(ev.Resource) == 0 || ev.Resource[0] != '{' {
			t.Fatalf("accepted %q without a resource object", body)
		}
		if (ev.Kind == webhook.KindJob) != (ev.Job != nil) || (ev.Kind == webhook.KindJobRequest) != (ev.JobRequest != nil) {
			t.Fatalf("kind %s does not match the decoded resource", ev.Kind)
		}
	})
}

// post sends body with header to h and answers the status.
func post(t *testing.T, h http.Handler, body, header string) int {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/hooks", strings.NewReader(body))
	if header != "" {
		req.Header.Set(webhook.Header, header)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

func TestHandler(t *testing.T) {
	t.Parallel()
	var got []*webhook.Event
	fail := errors.New("database down")
	var failNext bool
	h := webhook.Handler(testKey, func(_ context.Context, ev *webhook.Event) error {
		if failNext {
			failNext = false
			return fail
		}
		got = append(got, ev)
		return nil
	})

	assert.Equal(t, http.StatusNoContent, post(t, h, jobBody, jobDigestHex))
	require.Len(t, got, 1)
	assert.EqualValues(t, 1001, got[0].ID)

	assert.Equal(t, http.StatusUnauthorized, post(t, h, jobBody, jrDigestHex), "forged")
	assert.Equal(t, http.StatusUnauthorized, post(t, h, jobBody, ""), "unsigned")
	assert.Equal(t, http.StatusUnauthorized, post(t, h, jobBody, "zz"), "malformed")
	assert.Equal(t, http.StatusUnauthorized, post(t, h, jobBody+" ", jobDigestHex), "tampered")
	notEvent := `{"a": 1, "b": 2}`
	assert.Equal(t, http.StatusBadRequest, post(t, h, notEvent, webhook.Sign([]byte(notEvent), testKey)))
	assert.Len(t, got, 1, "nothing refused was passed on")

	failNext = true
	assert.Equal(t, http.StatusInternalServerError, post(t, h, jobBody, jobDigestHex), "the sender retries")
	assert.Equal(t, http.StatusNoContent, post(t, h, jobBody, jobDigestHex))
	assert.Len(t, got, 2)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/hooks", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code)
	assert.Equal(t, http.MethodPost, rec.Header().Get("Allow"))
}

func TestHandlerCapsTheBody(t *testing.T) {
	t.Parallel()
	called := false
	fn := func(context.Context, *webhook.Event) error { called = true; return nil }
	big := `{"job": {"id": 1, "requestor_notes": "` + strings.Repeat("x", webhook.DefaultMaxBody) + `"}}`
	assert.Equal(t, http.StatusRequestEntityTooLarge, post(t, webhook.Handler(testKey, fn), big, webhook.Sign([]byte(big), testKey)))

	small := webhook.Handler(testKey, fn, webhook.WithMaxBody(int64(len(jobBody))))
	assert.Equal(t, http.StatusNoContent, post(t, small, jobBody, jobDigestHex), "exactly at the cap")
	tiny := webhook.Handler(testKey, fn, webhook.WithMaxBody(int64(len(jobBody)-1)))
	called = false
	assert.Equal(t, http.StatusRequestEntityTooLarge, post(t, tiny, jobBody, jobDigestHex))
	assert.False(t, called)
}

func TestHandlerWithoutSecretIsAServerError(t *testing.T) {
	t.Parallel()
	h := webhook.Handler("", func(context.Context, *webhook.Event) error { t.Error("called"); return nil })
	assert.Equal(t, http.StatusInternalServerError, post(t, h, jobBody, webhook.Sign([]byte(jobBody), "")))
}

func TestHandlerTurnsAPanicIntoARetry(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	h := webhook.Handler(testKey, func(context.Context, *webhook.Event) error { panic("boom") },
		webhook.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	assert.Equal(t, http.StatusInternalServerError, post(t, h, jobBody, jobDigestHex))
	assert.Contains(t, logs.String(), "panicked")
	assert.NotContains(t, logs.String(), testKey)
	assert.NotContains(t, logs.String(), jobDigestHex)
}

func TestHandlerOverHTTP(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var states []string
	srv := httptest.NewServer(webhook.Handler(testKey, func(ctx context.Context, ev *webhook.Event) error {
		mu.Lock()
		defer mu.Unlock()
		states = append(states, ev.State)
		return ctx.Err()
	}))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(jobBody))
	require.NoError(t, err)
	req.Header.Set(webhook.Header, strings.ToUpper(jobDigestHex))
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, []string{"in_progress"}, states)
}
