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
// of Server (Server.Start, Server.Complete, ..., and over HTTP the control API below); scripted failures (a 503 with Retry-After, a
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
// Choices where the contract is silent: a malformed JSON or form body is a 422 on "body" (a body
// over 1 MiB is a 413); any positive page or per, however long, is accepted (per means at most
// 50, a page past the end is empty); PATCH /jobs/:id without state, actual_duration or
// cancelled_reason (absent, null or blank) is a 422 {"error": "nothing to update", "errors":
// {"state": [...]}}, so that a body wrapped as {"job": {...}} is not silently ignored, and a PATCH
// that changes nothing leaves updated_at and the transitions alone. A request body must arrive
// within 30 seconds and an answer be written within a minute; a Delay fault lifts both limits
// for its request.
//
// The same fake runs as a standalone program, cmd/workforce-fake, for tests written in other
// languages or for trying an application by hand.
//
// # Control API
//
// Such tests drive the fake through the control API under /_fake/, which maps one to one onto
// Server's methods. It needs no token and answers JSON, errors as {"error": "..."} with 404 or
// 422; its requests are neither recorded nor faulted; like the whole fake, it listens on a
// loopback address only.
//
//	POST   /_fake/job_requests/{id}/apply?worker_id=N   Apply          {"job_id": 1002}
//	POST   /_fake/job_requests/{id}/accept?worker_id=N  Accept         {"job_id": 1002}
//	POST   /_fake/jobs/{id}/start                       Start          {"state": "in_progress"}
//	       … /pause, /complete, /withdraw, /approve, /no_show: Pause, Complete, Withdraw, Approve, NoShow
//	GET    /_fake/clock                                 Now            {"now": "2026-11-23T04:50:40Z"}
//	POST   /_fake/clock/advance?seconds=N               Advance        {"now": "…"} (N may be negative)
//	POST   /_fake/faults                                InjectFault    {}
//	GET    /_fake/requests                              Requests       {"requests": [{"method", "path", "query", "header", "body", "time"}]}
//	DELETE /_fake/requests                              ResetRequests  {}
//	GET    /_fake/seed                                  Seed           {"customer_id": 11, …}
//
// POST /_fake/faults takes a Fault as a JSON object, with the delay in milliseconds and no
// other fields: {"method": "GET", "path": "/api_v2/jobs", "times": 2, "status": 503,
// "retry_after": "1", "body": "", "drop": false, "delay_ms": 0}. A recorded request's body is
// answered as text.
package workforcetest
