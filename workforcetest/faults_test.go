package workforcetest_test

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestFaultStatusTimes(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.InjectFault(workforcetest.Fault{Path: "/api_v2/jobs", Times: 2, Status: http.StatusServiceUnavailable, RetryAfter: "7"})
	for range 2 {
		resp := f.send(http.MethodGet, "/api_v2/jobs", with(f.private), "", nil)
		assert.Equal(t, "7", resp.Header.Get("Retry-After"))
		assert.NotEmpty(t, resp.Header.Get("X-Request-Id"))
		status, body := f.decode(resp)
		assert.Equal(t, http.StatusServiceUnavailable, status)
		assert.Equal(t, obj{"status": float64(503), "error": "fault injected by workforcetest"}, body)
	}
	resp := f.send(http.MethodGet, "/api_v2/jobs", with(f.private), "", nil)
	assert.Empty(t, resp.Header.Get("Retry-After"))
	status, _ := f.decode(resp)
	assert.Equal(t, http.StatusOK, status, "the fault is used up")
	assert.Len(t, f.Requests(), 5, "faulted requests are recorded (2 authentications, 3 lists)")
}

func TestFaultMatching(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs", Status: http.StatusTooManyRequests, RetryAfter: "Wed, 21 Oct 2026 07:28:00 GMT"})
	f.InjectFault(workforcetest.Fault{Path: jobPath(12), Status: http.StatusInternalServerError})
	f.InjectFault(workforcetest.Fault{Path: jobPath(12), Status: http.StatusBadGateway, Body: "<html>Bad Gateway</html>"})

	status, _ := f.get("/api_v2/jobs", f.private)
	assert.Equal(t, http.StatusOK, status, "other method")
	status, _ = f.get("/api_v2/jobs/1", f.private)
	assert.Equal(t, http.StatusNotFound, status, "other path")
	resp := f.send(http.MethodPost, "/api_v2/jobs", with(f.private), "application/json", []byte(`{}`))
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, "Wed, 21 Oct 2026 07:28:00 GMT", resp.Header.Get("Retry-After"))
	require.NoError(t, resp.Body.Close())

	status, _ = f.get(jobPath(12), f.private)
	assert.Equal(t, http.StatusInternalServerError, status, "faults play in order")
	resp = f.send(http.MethodGet, jobPath(12), nil, "", nil)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
	assert.Equal(t, "<html>Bad Gateway</html>", string(raw), "body verbatim")
	assert.Contains(t, resp.Header.Get("Content-Type"), "text/plain")
}

func TestFaultDrop(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Drop: true})
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, f.URL+"/api_v2/info", nil)
	require.NoError(t, err)
	resp, err := hc.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	require.Error(t, err, "the connection closes without an answer")
	status, _ := f.get("/api_v2/info", "")
	assert.Equal(t, http.StatusOK, status)
}

func TestFaultDelayHonoursContext(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Delay: time.Hour, Status: http.StatusServiceUnavailable})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL+"/api_v2/info", nil)
	require.NoError(t, err)
	begin := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(begin), 10*time.Second)

	f.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Delay: time.Millisecond})
	status, body := f.get("/api_v2/info", "")
	assert.Equal(t, http.StatusOK, status, "a delay without a status answers normally")
	assert.Equal(t, "test", body["environment"])
}

func TestCloseEndsDelays(t *testing.T) {
	t.Parallel()
	srv, err := workforcetest.Start()
	require.NoError(t, err)
	srv.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Delay: time.Hour})
	done := make(chan error, 1)
	go func() {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/api_v2/info", nil)
		if err == nil {
			var resp *http.Response
			if resp, err = http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}
		done <- err
	}()
	require.Eventually(t, func() bool { return len(srv.Requests()) == 1 }, 5*time.Second, time.Millisecond)
	srv.Close()
	srv.Close()
	select {
	case err := <-done:
		assert.Error(t, err, "the delayed request ends without an answer")
	case <-time.After(10 * time.Second):
		t.Fatal("Close left a delayed request hanging")
	}
}

// TestFaultWithoutTimesPlaysOnce checks that a Fault that leaves Times out (0) plays once, as a
// negative Times does.
func TestFaultWithoutTimesPlaysOnce(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for _, times := range []int{0, -3} {
		f.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Status: http.StatusServiceUnavailable, Times: times})
		status, _ := f.get("/api_v2/info", "")
		assert.Equal(t, http.StatusServiceUnavailable, status, "times %d", times)
		status, _ = f.get("/api_v2/info", "")
		assert.Equal(t, http.StatusOK, status, "times %d plays once", times)
	}
}

// TestClearFaultsForgetsThePendingFaults injects faults on two paths and clears them.
func TestClearFaultsForgetsThePendingFaults(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Status: http.StatusServiceUnavailable, Times: 5})
	f.InjectFault(workforcetest.Fault{Path: "/api_v2/jobs", Drop: true})
	f.ClearFaults()
	status, _ := f.get("/api_v2/info", "")
	assert.Equal(t, http.StatusOK, status)
	status, _ = f.get("/api_v2/jobs", f.private)
	assert.Equal(t, http.StatusOK, status)
	f.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Status: http.StatusTeapot})
	status, _ = f.get("/api_v2/info", "")
	assert.Equal(t, http.StatusTeapot, status, "faults injected after a clear play")
}

// TestFaultAnswerReadsWellInAnSDKError checks the error an SDK call reports for a fault without
// a Body.
func TestFaultAnswerReadsWellInAnSDKError(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	c, err := f.Client()
	require.NoError(t, err)
	// Every attempt: a read is retried on 500.
	f.InjectFault(workforcetest.Fault{Path: jobPath(f.Seed().PublicJobID), Status: http.StatusInternalServerError, Times: 100})
	_, _, err = c.Jobs.Get(t.Context(), f.Seed().PublicJobID)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "500 Internal Server Error: fault injected by workforcetest")
	assert.NotContains(t, err.Error(), "Internal Server Error: Internal Server Error")
}

// TestFaultWithAStatusOutOfRangeAnswers500 checks that a fault whose status is no HTTP status
// answers 500 saying so, instead of dropping the connection.
func TestFaultWithAStatusOutOfRangeAnswers500(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for _, code := range []int{42, 600, -1} {
		f.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Status: code})
		status, body := f.get("/api_v2/info", "")
		assert.Equal(t, http.StatusInternalServerError, status, code)
		assert.Contains(t, body["error"], "is not an HTTP status", code)
	}
}
