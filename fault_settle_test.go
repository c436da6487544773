package workforce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	_ "time/tzdata" // the test's own zone rewriting, whatever the machine has

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workforce "github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// A settle proves what a create did whatever the record became before the
// settle read it: the fault suite's settles, each with the create's answer
// lost after the server acted, then the record moved on. A Job is found by
// its history in any state (started, completed, withdrawn, cancelled); a
// Job Request cancelled is found; a record renamed so that it no longer
// matches what was sent (a User too: the API tells no time a User was
// made, so one of the email updated since may be an older one) is never
// answered "not done" (ErrUndecided). Each ends with exactly one record.
func TestSettleAfterTheRecordMovedOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type movedCase struct {
		kind string
		move func(t *testing.T, srv *workforcetest.Server, c *workforce.Client) // the record the create made moves on
		want error                                                              // nil: the record is answered
	}
	newestJob := func(t *testing.T, srv *workforcetest.Server, c *workforce.Client) int64 {
		j, err := c.Jobs.Find(ctx, srv.Seed().JobRequest1099ID, srv.Seed().WorkerIDs[1])
		require.NoError(t, err)
		return j.ID
	}
	jobMove := func(move func(srv *workforcetest.Server, c *workforce.Client, id int64) error) func(*testing.T, *workforcetest.Server, *workforce.Client) {
		return func(t *testing.T, srv *workforcetest.Server, c *workforce.Client) {
			require.NoError(t, move(srv, c, newestJob(t, srv, c)))
		}
	}
	newestJobRequest := func(t *testing.T, c *workforce.Client) int64 {
		rs, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{AgentCode: "SETTLE-1"})
		require.NoError(t, err)
		require.NotEmpty(t, rs)
		return rs[0].ID
	}
	cases := map[string]movedCase{
		"Job started": {kind: "Jobs.Assign", move: jobMove(func(srv *workforcetest.Server, _ *workforce.Client, id int64) error {
			return srv.StartJob(id)
		})},
		"Job completed": {kind: "Jobs.Create", move: jobMove(func(srv *workforcetest.Server, _ *workforce.Client, id int64) error {
			if err := srv.StartJob(id); err != nil {
				return err
			}
			return srv.CompleteJob(id)
		})},
		"Job withdrawn": {kind: "Jobs.Assign", move: jobMove(func(srv *workforcetest.Server, _ *workforce.Client, id int64) error {
			return srv.WithdrawJob(id)
		})},
		"Job cancelled": {kind: "Jobs.Assign", move: jobMove(func(_ *workforcetest.Server, c *workforce.Client, id int64) error {
			_, _, err := c.Jobs.Cancel(ctx, id, workforce.CancelAskedToCancel)
			return err
		})},
		"Job Request cancelled": {kind: "JobRequests.Create", move: func(t *testing.T, _ *workforcetest.Server, c *workforce.Client) {
			_, _, err := c.JobRequests.Cancel(ctx, newestJobRequest(t, c))
			require.NoError(t, err)
		}},
		"Job Request renamed": {kind: "JobRequests.Create", want: workforce.ErrUndecided, move: func(t *testing.T, _ *workforcetest.Server, c *workforce.Client) {
			_, _, err := c.JobRequests.Update(ctx, newestJobRequest(t, c), &workforce.JobRequestParams{RequestName: "Dock crew (night)"})
			require.NoError(t, err)
		}},
		"Customer renamed": {kind: "Customers.Create", want: workforce.ErrUndecided, move: func(t *testing.T, _ *workforcetest.Server, c *workforce.Client) {
			for cu, err := range c.Customers.All(ctx, nil) {
				require.NoError(t, err)
				if cu.Name == "Settle Foods" {
					_, _, err = c.Customers.Update(ctx, cu.ID, &workforce.CustomerParams{Name: "Settle Foods West"})
					require.NoError(t, err)
					return
				}
			}
			t.Fatal("no Customer to rename")
		}},
		"Badge renamed": {kind: "Badges.Create", want: workforce.ErrUndecided, move: func(t *testing.T, _ *workforcetest.Server, c *workforce.Client) {
			bs, _, err := c.Badges.List(ctx, &workforce.BadgeListOptions{Query: "Food Handler"})
			require.NoError(t, err)
			require.NotEmpty(t, bs)
			_, _, err = c.Badges.Update(ctx, bs[0].ID, &workforce.BadgeParams{Name: "Food Safety"})
			require.NoError(t, err)
		}},
		"User renamed": {kind: "Users.Create by email", want: workforce.ErrUndecided, move: func(t *testing.T, _ *workforcetest.Server, c *workforce.Client) {
			us, _, err := c.Users.List(ctx, &workforce.UserListOptions{Email: []string{"ivy.stone@example.com"}})
			require.NoError(t, err)
			require.NotEmpty(t, us)
			_, _, err = c.Users.Update(ctx, us[0].ID, &workforce.UserUpdate{LastName: "Stone-Park"})
			require.NoError(t, err)
		}},
		"invited User renamed": {kind: "Users.Invite", want: workforce.ErrUndecided, move: func(t *testing.T, _ *workforcetest.Server, c *workforce.Client) {
			us, _, err := c.Users.List(ctx, &workforce.UserListOptions{Type: workforce.UserWorker})
			require.NoError(t, err)
			require.NotEmpty(t, us)
			_, _, err = c.Users.Update(ctx, us[0].ID, &workforce.UserUpdate{FirstName: "Idaline"})
			require.NoError(t, err)
		}},
	}
	for name, mc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := workforcetest.NewServer(t, workforcetest.WithTickingClock())
			tc := settleCases(t, srv)[mc.kind]
			c, err := srv.Client(workforce.WithSettleHorizon(0))
			require.NoError(t, err)
			if tc.earlier != nil {
				tc.earlier(t, c)
				srv.Advance(time.Minute)
			}
			before := countAll(t, c, mc.kind)
			srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: tc.path, DropAfter: true})
			_, createErr := tc.make(c)
			require.ErrorIs(t, createErr, workforce.ErrOutcomeUnknown)
			// The move is stamped a second later; the clock then goes back, so
			// that it keeps the client's pace (the settle's bound needs it).
			srv.Advance(time.Second)
			mc.move(t, srv, c)
			srv.Advance(-time.Second)

			id, err := tc.settle(c, createErr)
			if mc.want != nil {
				require.ErrorIs(t, err, mc.want)
				require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
				require.NotErrorIs(t, err, workforce.ErrNotFound, "a record that may be the call's is no \"not done\"")
			} else {
				require.NoError(t, err)
				assert.Positive(t, id)
			}
			assert.Equal(t, before+1, countAll(t, c, mc.kind), "exactly one record made")
		})
	}
}

// countAll counts every record of the kind a settle case makes, in any
// state, whatever its name now: what the recipe must leave one more of.
func countAll(t *testing.T, c *workforce.Client, kind string) int {
	ctx := context.Background()
	switch {
	case strings.HasPrefix(kind, "Jobs."):
		return countRecords(t, c.Jobs.All(ctx, nil))
	case strings.HasPrefix(kind, "JobRequests."):
		return countRecords(t, c.JobRequests.All(ctx, nil))
	case strings.HasPrefix(kind, "Customers."):
		return countRecords(t, c.Customers.All(ctx, nil))
	case strings.HasPrefix(kind, "Badges."):
		return countRecords(t, c.Badges.All(ctx, nil))
	case strings.HasPrefix(kind, "Users."):
		return countRecords(t, c.Users.All(ctx, nil))
	}
	t.Fatalf("no count for %s", kind)
	return 0
}

// countRecords counts the records of seq, failing t on an error.
func countRecords[T any](t *testing.T, seq iter.Seq2[T, error]) int {
	n := 0
	for _, err := range seq {
		require.NoError(t, err)
		n++
	}
	return n
}

// proxied returns a client of srv's through a proxy whose answers edit
// changes (nil: as they are), and whose POSTs answer answerPost's status
// after the fake acted (0: as the fake answered).
func proxied(t *testing.T, srv *workforcetest.Server, answerPost int, edit func(r *http.Request, body []byte) []byte, opts ...workforce.Option) *workforce.Client {
	t.Helper()
	target, err := url.Parse(srv.URL)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return err
		}
		if edit != nil && resp.StatusCode == http.StatusOK {
			body = edit(resp.Request, body)
		}
		if answerPost != 0 && resp.Request.Method == http.MethodPost && !strings.HasSuffix(resp.Request.URL.Path, "/authenticate") {
			resp.StatusCode, body = answerPost, []byte(`{"error": "Internal Server Error"}`)
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Del("Content-Length")
		return nil
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	c, err := srv.Client(append([]workforce.Option{workforce.WithBaseURL(front.URL), workforce.WithRetry(0, 0, 0)}, opts...)...)
	require.NoError(t, err)
	return c
}

// A create the server acted on and answered 500 settles to the record it
// made; and every create's settle holds with the server's clock 30 s ahead
// of the client's or behind it.
func TestSettleAfterA500AndWithTheServersClockOff(t *testing.T) {
	t.Parallel()
	for _, skew := range []time.Duration{0, 30 * time.Second, -30 * time.Second} {
		for _, kind := range []string{"Jobs.Assign", "JobRequests.Create", "Customers.Create", "Users.Invite", "Badges.Create", "Messages.Create"} {
			t.Run(fmt.Sprintf("%v/%s", skew, kind), func(t *testing.T) {
				t.Parallel()
				srv := workforcetest.NewServer(t, workforcetest.WithClock(time.Now().Add(skew)), workforcetest.WithTickingClock())
				tc := settleCases(t, srv)[kind]
				c, err := srv.Client(workforce.WithSettleHorizon(0))
				require.NoError(t, err)
				if tc.earlier != nil {
					tc.earlier(t, c)
					srv.Advance(time.Minute)
				}
				faulty := proxied(t, srv, http.StatusInternalServerError, nil, workforce.WithSettleHorizon(0))
				_, createErr := tc.make(faulty)
				require.ErrorIs(t, createErr, workforce.ErrOutcomeUnknown, "a 500 to a create says nothing of what was done")
				made, err := tc.settle(c, createErr)
				require.NoError(t, err)
				again, err := tc.settle(c, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now().Add(-10 * time.Second)})
				require.NoError(t, err)
				assert.Equal(t, made, again, "the record made since the call began")
			})
		}
	}
}

// A list that shows a new record only some reads after its create (a
// replica behind the primary): the settle reads again within the horizon
// and finds it.
func TestSettleWhenTheListShowsTheRecordLate(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"Jobs.Assign", "JobRequests.Create", "Customers.Create", "Users.Create by email", "Badges.Create", "Messages.Create"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			srv := workforcetest.NewServer(t, workforcetest.WithTickingClock())
			tc := settleCases(t, srv)[kind]
			c, err := srv.Client(workforce.WithSettleHorizon(0))
			require.NoError(t, err)
			if tc.earlier != nil {
				tc.earlier(t, c)
				srv.Advance(time.Minute)
			}
			var hidden atomic.Int32 // list reads left that show no record
			late := proxied(t, srv, 0, func(r *http.Request, body []byte) []byte {
				if r.Method != http.MethodGet || strings.HasSuffix(r.URL.Path, "/info") || hidden.Add(-1) < 0 {
					return body
				}
				return emptyList(body)
			}, workforce.WithSettleHorizon(time.Minute))
			srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: tc.path, DropAfter: true})
			_, createErr := tc.make(c)
			require.ErrorIs(t, createErr, workforce.ErrOutcomeUnknown)
			hidden.Store(3)
			id, err := tc.settle(late, createErr)
			require.NoError(t, err)
			assert.Positive(t, id)
			assert.LessOrEqual(t, hidden.Load(), int32(0), "the stale reads were all served")
		})
	}
}

// emptyList answers a list's body with its arrays emptied: what a replica
// that has not seen the records yet would answer.
func emptyList(body []byte) []byte {
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil {
		return body
	}
	for k, v := range doc {
		if bytes.HasPrefix(bytes.TrimSpace(v), []byte("[")) {
			doc[k] = json.RawMessage("[]")
		}
	}
	out, _ := json.Marshal(doc)
	return out
}

// A settle among more than a page of candidates: the Worker's 55 earlier
// Jobs on the Job Request (each made and cancelled a minute before the
// call), and 60 other Workers' Jobs made after it, so that the call's Job
// is on the list's second page.
func TestSettleAmongMoreThanAPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, done := range []bool{true, false} {
		t.Run(fmt.Sprint("done=", done), func(t *testing.T) {
			t.Parallel()
			srv := workforcetest.NewServer(t, workforcetest.WithTickingClock())
			c, err := srv.Client(workforce.WithSettleHorizon(0))
			require.NoError(t, err)
			jr, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{RequestName: "Stadium", Zip: "90015", City: "Los Angeles",
				Address: "1111 S Figueroa St", Slots: 100, Category: "General", Description: "Usher.", State: workforce.JobRequestPosted,
				StartTime: workforce.NewWallClock(2031, 1, 15, 9, 0)})
			require.NoError(t, err)
			worker := srv.Seed().WorkerIDs[1]
			create := &workforce.JobCreate{WorkerID: worker, JobRequestID: jr.ID}
			for range 55 {
				j, _, err := c.Jobs.Assign(ctx, create)
				require.NoError(t, err)
				_, _, err = c.Jobs.Cancel(ctx, j.ID, workforce.CancelDecidedToCancel)
				require.NoError(t, err)
			}
			srv.Advance(time.Minute)
			srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs/assign", DropAfter: done, Drop: !done})
			_, _, createErr := c.Jobs.Assign(ctx, create)
			require.ErrorIs(t, createErr, workforce.ErrOutcomeUnknown)
			for i := range 60 {
				u, _, err := c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Usher", LastName: fmt.Sprint("N", i),
					Email: fmt.Sprintf("usher%d@example.com", i)})
				require.NoError(t, err)
				_, _, err = c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: u.ID, JobRequestID: jr.ID})
				require.NoError(t, err)
			}
			j, err := c.Jobs.Settle(ctx, create, createErr)
			if !done {
				require.ErrorIs(t, err, workforce.ErrNotFound)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, workforce.JobFilled, j.State)
			n := 0
			for j, err := range c.Jobs.All(ctx, &workforce.JobListOptions{JobRequestID: jr.ID}) {
				require.NoError(t, err)
				if j.WorkerID == worker && j.State == workforce.JobFilled {
					n++
				}
			}
			assert.Equal(t, 1, n)
		})
	}
}

// A Job Request in another time zone: the platform stores its start as the
// wall clock of the Job Request's zone (here New York's, for a create sent
// 09:00), whatever offset it writes; the settle finds it, moved on or not,
// and does not take the same Job Request posted for another hour.
func TestSettleJobRequestInAnotherZone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	la, err := time.LoadLocation("America/Los_Angeles")
	require.NoError(t, err)
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	start := regexp.MustCompile(`"start_time":"([^"]+)"`)
	// The fake stores every start in Pacific time: as New York's platform
	// would, the proxy reads the same wall clock in New York.
	toNewYork := func(_ *http.Request, body []byte) []byte {
		body = bytes.ReplaceAll(body, []byte(`"timezone":"America/Los_Angeles"`), []byte(`"timezone":"America/New_York"`))
		return start.ReplaceAllFunc(body, func(m []byte) []byte {
			at, err := time.Parse(time.RFC3339, string(start.FindSubmatch(m)[1]))
			if err != nil {
				return m
			}
			w := at.In(la)
			moved := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, ny)
			return []byte(fmt.Sprintf(`"start_time":%q`, moved.UTC().Format(time.RFC3339)))
		})
	}
	for _, done := range []bool{true, false} {
		t.Run(fmt.Sprint("done=", done), func(t *testing.T) {
			t.Parallel()
			srv := workforcetest.NewServer(t, workforcetest.WithTickingClock())
			c := proxied(t, srv, 0, toNewYork, workforce.WithSettleHorizon(0))
			params := &workforce.JobRequestParams{RequestName: "Loaders", Zip: "10001", City: "New York", Address: "1 Main St",
				Slots: 1, Category: "General", Description: "Load.", State: workforce.JobRequestPosted,
				StartTime: workforce.NewWallClock(2031, 12, 1, 9, 0), AgentCode: "NY-1"}
			other := *params
			other.StartTime = workforce.NewWallClock(2031, 12, 1, 12, 0) // 09:00 Pacific's instant, in New York
			_, _, err := c.JobRequests.Create(ctx, &other)
			require.NoError(t, err)
			srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/job_requests", DropAfter: done, Drop: !done})
			_, _, createErr := c.JobRequests.Create(ctx, params)
			require.ErrorIs(t, createErr, workforce.ErrOutcomeUnknown)
			jr, err := c.JobRequests.Settle(ctx, params, createErr)
			if !done {
				require.ErrorIs(t, err, workforce.ErrNotFound, "the one posted for noon is not the call's")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "America/New_York", jr.Timezone)
			assert.True(t, jr.StartTime.Equal(time.Date(2031, 12, 1, 9, 0, 0, 0, ny)), "started %v", jr.StartTime)
		})
	}
}
