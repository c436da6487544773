// Package workforce is a client for the Workforce Marketplace API v2, the API
// of a temporary-staffing platform where Requestors post Job Requests and
// Workers perform them as Jobs.
//
// A Client is made once with New and shared: it is safe for concurrent use.
// It has one service per resource group (Jobs, JobRequests,
// MultiDayJobRequests, Badges, Customers, Users, Messages, Search, Info,
// Authentication), and every method takes a context first. A call of one
// request returns the decoded value, the *Response and an error; All and
// Sync return iterators; Find and Settle, which may make several requests,
// return the value and an error. Every endpoint of the API has a method;
// docs/endpoints.md lists them, and Client.Do calls anything else (a RawRequest,
// with headers of yours) through the same request path.
//
// # Configure
//
// New takes the key pair (pk_test_… and sk_test_…, or pk_live_… and
// sk_live_…) and options. The base URL comes from WithBaseURL, else from
// WORKFORCE_TEST_BASE_URL (test keys only), else from WORKFORCE_BASE_URL; it
// must be https, or plain http to a loopback host. New checks everything
// and makes no network call; a configuration error matches ErrConfig and
// never prints a key. The token is fetched from the keys when first needed,
// renewed before it expires and once more when the API answers 401;
// concurrent callers share one renewal. WithRetry, WithTimeouts, WithLogger
// (every line redacted), WithHTTPClient, WithPageWindow and WithUserAgent
// tune the rest. WithMiddleware is the place to trace or measure calls: a
// middleware sees each call once, with no token, key or password in it, and
// Endpoint names the call (examples/otel is the OpenTelemetry recipe).
//
// # Paginate
//
// List returns one page (ListOptions: Page, and Per up to MaxPerPage, sent
// as MaxPerPage when 0) and sets Response.NextPage, 0 after a page shorter
// than that. All iterates over every record from a page on,
// 50 at a time, with a few pages in flight and records yielded in order:
//
//	for job, err := range c.Jobs.All(ctx, &workforce.JobListOptions{State: workforce.JobFilled}) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(job.ID, job.State)
//	}
//
// Jobs.Sync, JobRequests.Sync and Users.Sync yield every record changed
// since a watermark, each once, and skip none even while records change;
// they set the watermark for the next sync.
//
// # Handle errors
//
// Bad arguments are refused before any I/O with an *ArgumentError (it
// matches ErrInvalidArgument). An answer other than 2xx is an *APIError with
// the status, the call, the server's message, field errors and request ID;
// it matches ErrUnauthorized, ErrForbidden (Public Pool limits), ErrNotFound,
// ErrUnprocessable, ErrRateLimited or ErrServer with errors.Is. No answer at
// all is a *TransportError; when the caller's context ended it also matches
// context.Canceled or context.DeadlineExceeded. A write that reached the
// server with no answer saying what was done matches ErrOutcomeUnknown (see
// Settle a write). A 3xx is a *RedirectError: the client follows no
// redirect. An answer larger than any real one of its kind (see
// docs/limits.md) is a *DecodeError, refused before it is decoded. Keys,
// secret key and every token the client has held never appear in what the
// SDK writes itself (an error, a log line, a Response, a warning, a printed
// Client), nor a start of one 8 characters or longer; a record holds and
// prints the data the server sent.
//
// # Settle a write
//
// A create whose error matches ErrOutcomeUnknown may or may not have made
// its record, and sending it again could make two. Each create has a Settle
// (Jobs.Settle for Create and Assign, JobRequests.Settle, Customers.Settle,
// Users.Settle and Users.SettleInvite, Badges.Settle, Messages.Settle) that
// takes the create's parameters and its error and returns the record that
// call made, or an error matching ErrNotFound when it made none:
//
//	job, _, err := c.Jobs.Assign(ctx, create)
//	if errors.Is(err, workforce.ErrOutcomeUnknown) {
//		job, err = c.Jobs.Settle(ctx, create, err)
//		if errors.Is(err, workforce.ErrNotFound) {
//			job, _, err = c.Jobs.Assign(ctx, create) // it was not done: do it now
//		}
//	}
//
// A settle finds only a record the call could have made: one matching what
// was sent, made at or after the call began by the server's clock, whatever
// it has become since (a Job by its history: its first transition filled,
// as a create makes it, in any state now). A record made since that no
// longer matches but was changed since it was made (renamed?), or a Job
// whose answer carries no history, may be the call's: the settle then
// answers an error matching ErrUndecided, never ErrNotFound. The error records when
// the call began; the settle reads the server's clock (GET /info, else its
// Date header) and takes as the bound the server's time as written (cut
// to its precision) less the time that passed since the call began (the
// longer of the monotonic and wall-clock readings), less the clock
// tolerance (WithClockTolerance, 0 by default): never later than the
// truth, so the call's record always passes, and an older record (a
// Worker's cancelled Job, the same text sent before) never does. Records
// made within that margin before the call (the round trip of the clock
// read, what the clock's text cut, the tolerance, and the precision of the
// records' own stamps) cannot be told apart by time, nor any on a fake
// whose clock stands still (move it between the two: Server.Advance). A settle assumes the server's clock runs at the local clock's
// rate. It concludes that the create was not done only once the settle
// horizon has passed since the create's last attempt that may have acted
// was sent (WithSettleHorizon): until then a create may still be running
// on the server, and a settle that finds nothing, or whose read fails,
// waits, reading again, within its context; when its context ends first,
// or a read fails past the horizon, it returns an *UnsettledError
// (ErrTooEarly), never ErrNotFound.
// Multi-day Job
// Requests have no list to settle in: a series whose create's outcome is
// unknown may be created again, its days being what matters.
//
// # Read what the API sends
//
// Every scalar is read in any of its plausible JSON forms: booleans as
// true or false, "true" or "false", 1 or 0; integers as numbers or digit
// strings; text from numbers; decimals (Decimal) from numbers or strings;
// "" and null as absent. A value that fits no form of its field never fails
// the answer: the field is left zero, the record kept with the value in its
// Raw, and the value reported in Response.Warnings (and logged at Debug
// level). IDs the API sends only inside an embedded object fill the field
// that names them: Job.WorkerID is worker_id when sent, else worker.id.
// Decode reads a stored document or a webhook's resource the same way.
//
// # Test with workforcetest
//
// Package workforcetest is a stateful in-memory fake of the whole API on
// loopback, with a clock of its own, the moves that happen outside the API
// (a Worker starting a Job), injected faults and a log of what it received:
//
//	srv := workforcetest.NewServer(t)
//	c, err := srv.Client() // retries in milliseconds
//	job, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: srv.Seed().WorkerIDs[1], JobRequestID: srv.Seed().JobRequest1099ID})
//	err = srv.StartJob(job.ID)
//
// cmd/workforce-fake runs the same fake as a program, for tests in other
// languages.
//
// # Job states
//
// A Job enters its first state when it is created; each change appends a
// Transition (newest first in Job.Transitions) and fires a webhook. The
// usual path:
//
//	(pending) ──▶ filled ──▶ in_progress ⇄ paused ──▶ completed ──▶ approved
//
// Every move the API allows, and who makes it:
//
//	to           from                                 by
//	pending      (new)                                the Worker applies (pending workflow only)
//	filled       (new), pending, withdrawn            Jobs.Create or Jobs.Assign; a granted application
//	                                                  (Jobs.Update, state filled); the Worker accepts
//	rejected     pending                              Jobs.Update, state rejected; or the cut-off time
//	withdrawn    pending, filled                      the Worker withdraws
//	no_show      filled                               the Requestor marks a no-show
//	in_progress  filled, paused                       the Worker or the Requestor starts it
//	paused       in_progress                          the Worker pauses (W2 Jobs only)
//	completed    in_progress, paused                  the Worker completes, or auto-complete
//	approved     completed                            the Requestor approves or rates
//	cancelled    pending, filled, in_progress, paused Jobs.Cancel; or its Job Request is cancelled
//
// Any other move gets ErrUnprocessable. A Job Request moves with its
// Jobs: posted (or draft), filled when every slot is taken, in_progress,
// completed, approved; unfilled at its start time with a slot open;
// cancelled, with its open Jobs, by JobRequests.Cancel.
package workforce
