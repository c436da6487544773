package workforce

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultTransportTimeouts checks the timeouts of the client's own
// transport when none are given, and that a given one replaces its
// default alone.
func TestDefaultTransportTimeouts(t *testing.T) {
	t.Parallel()
	d, err := Timeouts{ResponseHeader: time.Second}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	tr := newTransport(d).(*http.Transport)
	if tr.TLSHandshakeTimeout != DefaultTLSHandshakeTimeout || tr.ResponseHeaderTimeout != time.Second ||
		tr.IdleConnTimeout != DefaultIdleConnTimeout || tr.DialContext == nil || tr.MaxIdleConnsPerHost != 64 ||
		tr.MaxResponseHeaderBytes != maxResponseHeader {
		t.Errorf("transport %+v", tr)
	}
	if d.Dial != DefaultDialTimeout || d.BodyStall != DefaultBodyStallTimeout {
		t.Errorf("timeouts %+v", d)
	}
}

// The stall guard watches the compressed bytes as they arrive: it asks for
// gzip itself and decompresses above the guard, so that a steady gzip body
// whose decompressed output comes in bursts is not taken for a stall (C3).
func TestStallGuardSitsBelowDecompression(t *testing.T) {
	t.Parallel()
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	fmt.Fprintf(zw, `{"job": {"id": 42, "requestor_notes": %q}}`, strings.Repeat("a", 100<<10))
	require.NoError(t, zw.Close())
	var asked atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Store(r.Header.Get("Accept-Encoding"))
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(zipped.Bytes())
	}))
	defer srv.Close()
	next := newTransport(Timeouts{}).(*http.Transport)
	defer next.CloseIdleConnections()
	req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
	require.NoError(t, err)
	resp, err := stallGuard{next: next, idle: time.Minute}.RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "gzip", asked.Load())
	body, ok := resp.Body.(*gunzipBody)
	require.True(t, ok, "the body is decompressed above the guard, got %T", resp.Body)
	_, guarded := body.under.(*guardedBody)
	assert.True(t, guarded)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.True(t, resp.Uncompressed)
	assert.Empty(t, resp.Header.Get("Content-Encoding"))
	assert.Contains(t, string(b), `"id": 42`)
}
