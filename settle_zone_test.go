package workforce_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// A New York Job Request starting at 09:00, which the platform writes in
// US Pacific time (06:00-08:00, CONTRACT §10), is found whatever its zone
// is called: an IANA name, a Rails name, another case, spaces around it.
// A zone this machine cannot load (no zoneinfo in a scratch image, a name
// it does not know) never makes the settle conclude "not done" for a
// candidate that matches every other field: it answers an error matching
// ErrOutcomeUnknown that names the zone (D2). Neither does a zone named
// "Local" or "", which Go would read as the host's zone and UTC.
func TestSettleJobRequestZoneNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		zone, start string
		found       bool
		unknown     bool
	}{
		{"America/New_York", "2031-12-01T06:00:00.000-08:00", true, false},
		{"Eastern Time (US & Canada)", "2031-12-01T06:00:00.000-08:00", true, false},
		{"US/Eastern ", "2031-12-01T06:00:00.000-08:00", true, false},
		{"america/new_york", "2031-12-01T06:00:00.000-08:00", true, false},
		{"Mars/Olympus_Mons", "2031-12-01T06:00:00.000-08:00", false, true},
		{"Mars/Olympus_Mons", "2031-12-01T09:00:00.000-05:00", true, false},  // the offset written shows 09:00
		{"Mars/Olympus_Mons", "2031-12-03T06:00:00.000-08:00", false, false}, // no zone shows 09:00 then
		{"America/New_York", "2031-12-01T07:00:00.000-08:00", false, false},
		// Names Go reads as zones of its own, never the Job Request's: the
		// host's zone ("Local") and UTC (""). The verdict must not depend
		// on the machine's TZ.
		{"Local", "2031-12-01T06:00:00.000-08:00", false, true},
		{"local", "2031-12-01T06:00:00.000-08:00", false, true},
		{"Local", "2031-12-01T09:00:00.000-05:00", true, false},
		{"", "2031-12-01T06:00:00.000-08:00", false, true},
	} {
		t.Run(tc.zone+"/"+tc.start, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, workforce.WithSettleHorizon(0))
			now := time.Now().UTC()
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info",
				httpmock.NewStringResponder(200, fmt.Sprintf(`{"utc_time_now": %q}`, now.Format(time.RFC3339Nano))))
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/job_requests", httpmock.NewStringResponder(200, fmt.Sprintf(
				`{"job_requests": [{"id": 77, "request_name": "Loaders", "address": "1 Main St", "city": "New York", "zip": "10001",
				  "timezone": %q, "start_time": %q, "created_at": %[3]q, "updated_at": %[3]q}]}`, tc.zone, tc.start, now.Format(time.RFC3339Nano))))
			params := &workforce.JobRequestParams{RequestName: "Loaders", Address: "1 Main St", City: "New York", Zip: "10001",
				Slots: 1, Category: "General", Description: "Load.", State: workforce.JobRequestPosted,
				StartTime: workforce.NewWallClock(2031, 12, 1, 9, 0)}
			jr, err := c.JobRequests.Settle(context.Background(), params, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now()})
			switch {
			case tc.found:
				require.NoError(t, err)
				assert.Equal(t, int64(77), jr.ID)
			case tc.unknown:
				require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
				assert.NotErrorIs(t, err, workforce.ErrNotFound, "a start that could not be compared is no conclusion")
				assert.Contains(t, err.Error(), tc.zone)
			default:
				assert.ErrorIs(t, err, workforce.ErrNotFound)
			}
		})
	}
}
