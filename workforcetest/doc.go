// Package workforcetest is an in-memory fake of Workforce Marketplace API v2, for running tests
// against without network access or real keys.
//
// The fake keeps its own records and writes its own JSON by the wire contract; it shares no code
// with the SDK, so a decoding mistake in the SDK fails a test instead of agreeing with itself.
// It serves exactly the endpoints of the contract: authentication, information, Jobs, Job
// Requests, Multi-day Job Requests, Customers, Badges, Users, Messages and Search; any other
// method or path answers 405 or 404. Every fake starts with the same seeded Customers, Badge,
// Users, Job Requests, Multi-day Job Request and one Job (see Seed), has random keys (WithKeys
// and WithPublicKeys fix them), and has a clock of its own that stands still unless the test moves
// it (Server.Advance), so that tokens expire on demand.
//
// Moves that happen outside the API, such as a Worker starting or completing a Job, a draft
// Job Request being posted or a Worker earning a Badge, are methods of Server (Server.StartJob,
// Server.CompleteJob, Server.PostJobRequest, Server.GrantBadge, ..., and over HTTP the control API
// below); scripted failures (a 503 with Retry-After, a dropped connection, a slow answer) are
// injected with Server.InjectFault and forgotten with Server.ClearFaults; a latency on every
// request is set with WithLatency or Server.SetLatency; Server.SeedJobs fills the store with many
// Jobs for load tests and syncs; and Server.Requests reports what the fake received and the
// status it answered, with tokens, keys and passwords removed.
//
// A test uses it like this:
//
//	func TestCancelJob(t *testing.T) {
//		ctx := context.Background()
//		srv := workforcetest.NewServer(t) // closed when the test ends
//		c, err := srv.Client()            // an SDK client with the Private Pool keys
//		require.NoError(t, err)
//		seed := srv.Seed()
//
//		job, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{
//			WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID,
//		})
//		require.NoError(t, err)
//		require.NoError(t, srv.StartJob(job.ID)) // the Worker checks in
//
//		srv.InjectFault(workforcetest.Fault{Method: "PATCH", Path: fmt.Sprintf("/api_v2/jobs/%d", job.ID),
//			Status: 503, RetryAfter: "1"})   // the first try fails, the SDK retries
//		job, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelDecidedToCancel)
//		require.NoError(t, err)
//		state, _ := srv.JobState(job.ID)
//		require.Equal(t, "cancelled", state)
//	}
//
// (It is doc_test.go's TestCancelJob, with the imports context, fmt, testing, testify's require,
// workforce and workforcetest.)
//
// The clients the fake makes (Server.Client, Server.PublicClient) wait milliseconds between
// retries and settle at once: the fake acts on a request before it answers, so a create whose
// answer a fault dropped is done or not done by the time the call returns, and Jobs.Settle and
// the other Settles need not wait out workforce.DefaultSettleHorizon (2 minutes). A client a test
// builds itself with workforce.New should take workforce.WithSettleHorizon(0) and, for speed,
// workforce.WithRetryAfterUnit(time.Millisecond).
//
// Choices where the contract is silent: updated_after is inclusive and updated_before exclusive
// (a record stamped exactly at a bound is in the later window), both read as RFC 3339 with any
// fraction, and records keep their times to the millisecond; a malformed JSON or form body is a
// 422 on "body" (a body
// over 1 MiB is a 413); any positive page or per, however long, is accepted (per means at most
// 50, a page past the end is empty); PATCH /jobs/:id without state, actual_duration or
// cancelled_reason (absent, null or blank) is a 422 {"status": 422, "error": "nothing to
// update", "errors": {"state": [...]}}, and a PATCH that changes nothing leaves updated_at and
// the transitions alone. Every write takes its parameters wrapped in the resource's name
// ({"job": {...}}, or job[worker_id]=… in a form) or flat ({"worker_id": …}), as the live API
// (Rails) does. Every error answers {"status": N, "error": "..."}, a 422 with "errors" too (on
// "base" when no field is to blame); an unknown route the live API's {"status": 404, "error":
// "Not Found"}. A request body must arrive
// within 30 seconds and an answer be written within a minute; a Delay fault lifts both limits
// for its request. Server.ExpireTokens expires every token without moving the clock.
//
// # Checking exchanges against the OpenAPI document
//
// WithExchangeLog(dir) makes a fake append every API exchange it answers, and every webhook it
// delivers, to a file of its own in dir, one JSON Exchange a line (secrets replaced by
// "[REDACTED]"); NewServer does so by itself when the environment variable
// WORKFORCE_CONTRACT_LOG names a directory. A test run with it set leaves every request and
// answer of every fake, which an OpenAPI validator can then hold to the document of package
// openapi (this project's CI does, in internal/contract). The answers of injected faults carry
// the header X-Fake-Fault: injected, so that the check can leave out the test's own answers.
//
// # Answers
//
// The fake answers in the keys and JSON forms the live API was seen to use (CONTRACT §10). A
// record's own times (created_at, updated_at, confirmed_at, started_at, completed_at,
// finished_at, a User's and a Message's) are US Pacific time with milliseconds and the offset of
// the day: -08:00 in winter, -07:00 from the second Sunday of March to the first Sunday of
// November ("2026-11-22T10:34:36.820-08:00"); a transition's created_at and a check-in's time are
// UTC to the second ("2026-11-22T18:34:36Z"), as is a token's expires_at; GET /info's
// utc_time_now is UTC to the millisecond; a date of birth is "YYYY-MM-DD". Absent values are
// null.
//
// A Job carries worker_id and cancelled_reason, as the contract's first version named them,
// beside the keys the live API sends (which carry the Worker only as worker.id); hours_worked is
// a number (0 until worked), adjusted_wage a number, w2_hourly_rate "" on a 1099 Job and a number
// on a W2 one. Its worker and employer carry exactly the keys of an embedded User: id,
// external_id, type, first_name, last_name, avatar_url, city, zip, rating (text), suspended,
// latitude and longitude (text), workplace_image_url, logo_url, business_name (an Employer's
// Customer's name), email, gender, w2_employee_id, w2_onboarding_status, w2_onboarding_started
// (a time in Pacific time, or null), dob, ssn (always ""), address, address_state and
// user_badges. A user_badges entry is {id, user_id, badge_id, expires_at, created_at, suspended,
// category, updated_at}. A standalone User (GET /users/:id, PATCH /users/:id, GET /users,
// search, a ranking's worker) carries the keys of the live API's (realworld/user.json:
// suspended_until, home_latitude, lower_pool, referred_by and the others the fake does not
// model, null or "" as the live API writes them unset), then the User fields of the contract:
// drug_tested as "" or "true", verified_phone as "true" or "false". A Job Request carries
// company_id (its Customer, beside customer_id), latitude and longitude (numbers), postal_code,
// country "US", timezone "America/Los_Angeles", flag_color, cached_job_states (its Jobs counted
// by state), in_white_gloves_period, re_ranked_worker_ids (the Workers the last re_rank_workers
// ranked, as "105,107"; null before), preferred_wonoloers_info (an empty list: its meaning is
// unknown), push_all_notifications_asap (a boolean, though written "on" or "off") and can; wage,
// duration, slots and notification_distance are numbers, w2_hourly_rate text ("" on a 1099 Job
// Request), the ID lists lists of integers, and badge_requirements objects {id, badge_id,
// job_request_id, badge_name,
// badge_icon_url, badge_description, created_at, updated_at}.
//
// # Job Requests
//
// A Job Request is created posted, or draft when job_request[state] says so (state is required:
// posted or draft); PATCH moves it from draft to posted by job_request[state]=posted, and cancels
// it by the top-level state=cancelled (any state before completed), which cancels its pending,
// filled, in_progress and paused Jobs too, each with a transition and with cancelled_reason the
// top-level cancelled_reason, else "job_request_cancelled". Its other moves follow its Jobs, as
// the contract's table says: posted ↔ filled as slots fill and free (a Job holds a slot while
// filled, in_progress, paused, completed or approved, and filling a Job Request with no open slot
// is a 422 on job_request_id), → in_progress when a Job starts (also from unfilled), →
// completed when every started Job completed and no filled Job waits to start, → approved when
// every completed Job is approved; posted, unassigned and filled ones with an open slot become
// unfilled when the fake clock reaches their start time (checked before every request and
// outside move, and dated at the start time).
// No move of the fake enters unassigned. A draft or cancelled Job Request takes no new Jobs; a
// completed or approved one still takes late ones without moving back.
//
// Written fields: without job_request[employer_id] a Job Request belongs to Seed.EmployerID, and
// customer_id is always its employer's Customer, which must allow the classification
// (can_post_w2, can_post_1099); start_time is read as "YYYY-MM-DD HH:MM" in US Pacific time (the
// fake's venues are all there) or as RFC 3339, and written as RFC 3339 with the Pacific offset of
// its day; job_request[can] and push_all_notifications_asap are kept and written back. Rankings
// list the Workers with
// a Job on the Job Request (any state) and its preferred candidates, and after re_rank_workers
// every Worker, never the banned ones; score = rating / 5 (0.5 without a rating) + 0.05 for a
// preferred candidate, at most 1, as "0.00"; ties go to the lower id. resend_notifications takes
// push_all_notifications_asap (on/off) at the top level or under job_request.
//
// A Multi-day Job Request's days (job_request_ids, oldest first) are the Job Requests created or
// updated with multi_day true and its id as multi_day_job_request_id, which must exist (else a
// 422); repeat_number is a whole number ≥ 1 or null. The contract has no list of them: GET
// /multi_day_job_requests answers 405, as every method and path the contract lacks answers 405
// or 404.
//
// The pending workflow (Server.ApplyToJobRequest) needs use_pending_state on both the Job Request and its
// Customer. The contract's cut-off time of applications is, in the fake, the Job Request's start
// time (the contract defines no other): when the fake clock reaches it, its pending Jobs become
// rejected, each with a transition and a webhook, dated at the start time (applied when the
// clock moves, and before every request and outside move, so every list, get and webhook agrees),
// and ApplyToJobRequest is refused from then on; a rejected Job cannot be granted (PATCH state=filled is a
// 422 on state). The contract refuses no late Job otherwise: AcceptJobRequest, POST /jobs and
// /jobs/assign still make a filled Job on a Job Request past its start (unfilled included,
// which keeps its state), as a Requestor may staff a late shift. A Job on a Job Request with badge_requirements needs a Worker holding each of those
// Badges (Server.GrantBadge); otherwise POST /jobs, /jobs/assign, ApplyToJobRequest and AcceptJobRequest answer 422 on
// worker_id. Deleting a Badge a Job Request requires is a 422; deleting another one takes it from
// the Workers holding it.
//
// # Access levels
//
// Public Pool keys see only the Job Requests they created and their Jobs (other ids are 404 for
// them) and get 403 on every Job Request write (create, update, cancel, resend_notifications,
// re_rank_workers) and on rankings. They may read Multi-day Job Requests (job_request_ids then
// lists only their own days) but get 403 on creating or updating them, since the days are Job
// Requests they may not create. Customers and Badges are not limited (CONTRACT §7 does not
// limit them): both pools read and write the same ones.
//
// A Job embeds its Worker and its Job Request's Employer (worker, employer) whoever asks, as every
// real Job does (CONTRACT §10.1): the Public Pool's Jobs too, in show and list answers and in
// webhooks, even once GET /users hides that Worker from the Public Pool (see Users below).
//
// # Customers
//
// Customer names are unique case-insensitively; PUT and PATCH are the same partial update. A
// null parameter clears an optional field. GET /customers/exists needs a non-blank name (else
// 422). POST /customers/timesheet_import reads the multipart field "file" (a 422 on "file" when it
// is missing, not UTF-8 CSV, or lacks a job_id or actual_duration header, matched
// case-insensitively); its body may be up to 8 MiB, every other body 1 MiB. A row's Job must be
// one the key may see; a row of fewer columns than needed is rejected.
//
// # Users, Messages and Search
//
// Users are Workers and Employers. A create needs type, first_name, last_name and an email or a
// phone; names hold letters, digits, - and . only; an email is a bare address; a password has 8
// or more characters and equals password_confirmation when that is sent, and is checked but not
// kept (it is never written back, and the request log shows "[REDACTED]"). user_badges_attributes
// gives Badges ({"badge_id": N}) and takes holdings away ({"id": H, "_destroy": true}, H being the
// id of the holding in user_badges). POST /users/invite reads only type, phone, first_name,
// last_name, email and external_id (phone required) and creates the User with
// onboarding_last_state "invited". List filters that take several values (email, first_name, …)
// match any of them, emails case-insensitively. Public Pool keys get 403 on user writes and on
// tracking, and see only the Workers with an active Job (filled, in_progress, paused, completed,
// or approved in the last 24 hours) on a Job Request they created; other Users are 404 for them.
//
// GET /users/:id/tracking lists, newest first, the transitions of the User's Jobs that carry
// coordinates: the Worker's moves (start, pause, complete, withdraw) carry the Job Request's,
// or the position given to Server.StartJobAt or Server.CompleteJobAt.
//
// A Message's sender and receiver are its Job's Worker and its Job Request's employer, either way
// round; the Job must be one the key sees. Messages are never changed; tokens see the Messages of
// the Jobs they see, Public Pool ones included, and may write on those.
//
// GET /search matches q (required) case-insensitively as a substring of User first and last names
// (and both together) and emails, Customer names and contact and billing emails, Job Request
// names and Badge names, among the records the key sees; at most 50 of each kind, newest first.
//
// # Load
//
// Server.SeedJobs adds Jobs on new Job Requests of Seed.CustomerID and Seed.EmployerID, created
// with the Private Pool keys (the Public Pool sees none of them), 50 Jobs each, 1099, by 50 new
// Workers (one Job per Job Request each). Their created_at are spread evenly over the 90 days
// before the clock's now, oldest id first, and each updated_at is a few hours after its
// created_at (never after now), so that updated_after and updated_before select a part of them.
// Six Jobs in ten are approved, two completed, one cancelled and one no_show, each with the
// transitions of its way there. Lists cost the same at 100,000 Jobs as at 1,000: their filters
// select through indexes, and a Job's JSON is kept until a record it shows changes.
//
// The same fake runs as a standalone program, cmd/workforce-fake, for tests written in other
// languages or for trying an application by hand.
//
// # Control API
//
// Such tests drive the fake through the control API under /_fake/, which maps one to one onto
// Server's methods; ControlAPI lists its routes.
//
// The request log (Requests) keeps the last 10,000 requests, fewer when they would hold more
// than 32 MiB. A request is recorded before it is routed or authenticated; its body is kept only
// when it carries a valid token or authenticates, and then at most 64 KiB of it, secrets
// redacted first; body_size says how long it was. Secrets are found by their shape (keys, and
// tokens: 48 hex digits) in the path, query, header values and body; a header name also loses
// every run of 8 or more hex digits, so that a piece of a token is hidden too. Headers beyond 64 KiB are refused (431) by
// the server. So whoever reaches the fake cannot make it hold more than that.
//
// POST /_fake/webhooks/faults takes a WebhookFault, with the delay in seconds of the fake clock:
// {"resource": "job", "id": 1002, "state": "filled", "times": 1, "drop": true, "duplicate": false,
// "reorder": false, "delay_seconds": 0}; POST /_fake/webhooks/chaos takes a WebhookChaos:
// {"drop": 0.3, "duplicate": 0.2, "reorder": 0.5, "delay": 0, "delay_seconds": 0, "seed": 7}.
package workforcetest
