package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// A Settle reaches no verdict from a server clock more than MaxClockSkew
// from the client's, which a sync refuses too (attack 7, A7-4): two days
// ahead, the Message the create made would read as older than the call
// ("not done", sent twice); two days behind, yesterday's identical Message
// would read as the create's. Either is an *UnsettledError matching
// ErrServerClock, neither a record nor ErrNotFound. A clock within the
// bound still concludes.
func TestSettleRefusesAnImpossibleServerClock(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name           string
		offset, msgAge time.Duration
		refused        bool
	}{
		{"two days ahead, the create done", 48 * time.Hour, 0, true},
		{"two days behind, yesterday's Message", -48 * time.Hour, 24 * time.Hour, true},
		{"an hour ahead, the create done", time.Hour, -time.Hour, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, workforce.WithSettleHorizon(0))
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info", func(*http.Request) (*http.Response, error) {
				return httpmock.NewStringResponse(200, fmt.Sprintf(`{"utc_time_now": %q}`, time.Now().Add(tc.offset).UTC().Format(time.RFC3339Nano))), nil
			})
			started := time.Now() // before the Message is made, as a create's call starts before its record
			made := time.Now().Add(-tc.msgAge).UTC().Format(time.RFC3339Nano)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/messages", httpmock.NewStringResponder(200, fmt.Sprintf(
				`{"messages": [{"id": 7, "job_id": 1, "sender_id": 2, "receiver_id": 3, "body": "Running late", "created_at": %q}]}`, made)))
			create := &workforce.MessageCreate{Body: "Running late", JobID: 1, SenderID: 2, ReceiverID: 3}
			msg, err := c.Messages.Settle(context.Background(), create, &workforce.TransportError{OutcomeUnknown: true, Started: started, Sent: started})
			if !tc.refused {
				require.NoError(t, err)
				assert.EqualValues(t, 7, msg.ID)
				return
			}
			require.ErrorIs(t, err, workforce.ErrServerClock)
			var ue *workforce.UnsettledError
			assert.True(t, errors.As(err, &ue), "%T", err)
			assert.NotErrorIs(t, err, workforce.ErrNotFound, "no verdict from that clock")
			assert.Nil(t, msg)
		})
	}
}
