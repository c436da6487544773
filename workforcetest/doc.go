// Package workforcetest is an in-memory fake of Workforce Marketplace API v2, for running tests
// against without network access or real keys.
//
// The fake keeps its own records and writes its own JSON by the wire contract; it shares no code
// with the SDK, so a decoding mistake in the SDK fails a test instead of agreeing with itself.
// It serves POST /api_v2/authenticate, GET /api_v2/info and the Jobs endpoints; any other path
// answers 404. Every fake starts with the same seeded Customers, Users, Job Requests and one
// Job (see Seed), has random keys, and has a clock of its own that stands still unless the test
// moves it (Server.Advance), so that tokens expire on demand.
//
// Moves that happen outside the API, such as a Worker starting or completing a Job, are methods
// of Server (Server.Start, Server.Complete, ...); scripted failures (a 503 with Retry-After, a
// dropped connection, a slow answer) are injected with Server.InjectFault; and Server.Requests
// reports what the fake received, with tokens and keys removed.
//
// A test uses it like this:
//
//	func TestCancelJob(t *testing.T) {
//		srv := workforcetest.NewServer(t) // closed when the test ends
//		c, err := srv.Client()            // an SDK client with the Private Pool keys
//		require.NoError(t, err)
//		seed := srv.Seed()
//
//		job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{
//			WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID,
//		})
//		require.NoError(t, err)
//		require.NoError(t, srv.Start(job.ID)) // the Worker checks in
//
//		srv.InjectFault(workforcetest.Fault{Method: "PATCH", Path: fmt.Sprintf("/api_v2/jobs/%d", job.ID),
//			Status: 503, RetryAfter: "1"})   // the first try fails, the SDK retries
//		job, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelDecidedToCancel)
//		require.NoError(t, err)
//		state, _ := srv.JobState(job.ID)
//		require.Equal(t, "cancelled", state)
//	}
//
// The same fake runs as a standalone program, cmd/workforce-fake, for tests written in other
// languages or for trying an application by hand.
package workforcetest
