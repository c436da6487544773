package workforce_test

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// A settle's own read answered 404 (a replica that has not seen the parent
// yet, a proxy during a deploy, GET /customers/exists, a [choice] of
// CONTRACT §6 the live API may lack) never makes a Settle answer an error
// matching ErrNotFound, which the recipe reads as "not done, create
// again": within the horizon the settle reads again and finds the record
// the create made; past it, it answers an error matching
// ErrOutcomeUnknown only, which a later Settle takes in place of the
// create's error (D3, O5-2). Every create is tried.
func TestSettleReadAnswered404(t *testing.T) {
	t.Parallel()
	names := slices.Sorted(maps.Keys(settleCases(t, workforcetest.NewServer(t))))
	for _, horizon := range []time.Duration{time.Hour, 0} {
		for _, name := range names {
			t.Run(horizon.String()+"/"+name, func(t *testing.T) {
				t.Parallel()
				srv := workforcetest.NewServer(t, workforcetest.WithTickingClock())
				tc := settleCases(t, srv)[name]
				c, err := srv.Client(workforce.WithSettleHorizon(horizon))
				require.NoError(t, err)
				if tc.earlier != nil {
					tc.earlier(t, c)
					srv.Advance(time.Minute)
				}
				srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: tc.path, DropAfter: true})
				_, err = tc.make(c)
				require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)

				notFound := workforcetest.Fault{Method: http.MethodGet, Status: http.StatusNotFound, Body: `{"error": "Not Found"}`}
				read := strings.TrimSuffix(strings.TrimSuffix(tc.path, "/assign"), "/invite")
				for _, path := range []string{"/api_v2/info", read} {
					f := notFound
					f.Path = path
					srv.InjectFault(f)
				}
				if name == "Customers.Create" && horizon == 0 { // a route the live API may not have: 404 every time
					f := notFound
					f.Path, f.Times = "/api_v2/customers/exists", 1000
					srv.InjectFault(f)
				}
				id, serr := tc.settle(c, err)
				if horizon > 0 {
					require.NoError(t, serr, "read again within the horizon")
					assert.Positive(t, id)
					return
				}
				require.Error(t, serr)
				assert.NotErrorIs(t, serr, workforce.ErrNotFound, "a read's 404 is no conclusion")
				require.ErrorIs(t, serr, workforce.ErrOutcomeUnknown)
				var unsettled *workforce.UnsettledError
				require.ErrorAs(t, serr, &unsettled)
				var apiErr *workforce.APIError
				assert.ErrorAs(t, unsettled.Err, &apiErr, "Err holds the read's error")
				for range 3 { // past the faults, one at a time
					if id, serr = tc.settle(c, serr); !errors.Is(serr, workforce.ErrOutcomeUnknown) {
						break
					}
				}
				require.NoError(t, serr, "settled again in place of the create's error")
				assert.Positive(t, id)
			})
		}
	}
}

// The same rule for a 5xx and a 401: a settle past its horizon whose read
// fails answers an error matching ErrOutcomeUnknown, never ErrNotFound.
func TestSettleReadFailureIsNoConclusion(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusNotFound, http.StatusUnauthorized, http.StatusInternalServerError} {
		srv := workforcetest.NewServer(t)
		c, err := srv.Client(workforce.WithSettleHorizon(0), workforce.WithRetry(0, 0, 0))
		require.NoError(t, err)
		srv.InjectFault(workforcetest.Fault{Method: http.MethodGet, Path: "/api_v2/jobs", Status: status, Times: 1000})
		_, err = c.Jobs.Settle(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9},
			&workforce.TransportError{OutcomeUnknown: true, Started: time.Now()})
		require.Error(t, err)
		assert.NotErrorIs(t, err, workforce.ErrNotFound, "%d", status)
		assert.ErrorIs(t, err, workforce.ErrOutcomeUnknown, "%d", status)
	}
}
