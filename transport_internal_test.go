package workforce

import (
	"net/http"
	"testing"
	"time"
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
