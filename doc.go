// Package workforce is a client for the Workforce Marketplace API v2, the API
// of a temporary-staffing platform where Requestors post Job Requests and
// Workers perform them as Jobs.
//
// A Client is made once with New and shared: it is safe for concurrent use.
// It has one service per resource group (Jobs, JobRequests,
// MultiDayJobRequests, Badges, Customers, Users, Messages, Search, Info,
// Authentication), and every method takes a context first and answers the
// decoded value, the *Response and an error. Every endpoint of the API has a
// method; the README lists them, and Client.Do calls anything else through
// the same request path.
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
// tune the rest.
//
// # Paginate
//
// List answers one page (ListOptions: Page, and Per up to MaxPerPage) and
// sets Response.NextPage. All iterates over every record from a page on,
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
// server with no answer saying what was done matches ErrOutcomeUnknown: look
// the record up before sending it again (each create says how). A 3xx is a
// *RedirectError: the client follows no redirect. An answer larger than
// any real one of its kind (see docs/limits.md) is a *DecodeError, refused
// before it is decoded. Keys, secret key and every token the client has
// held never appear in any error, log line or printed value, nor a start
// of one 8 characters or longer.
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
// Any other move answers ErrUnprocessable. A Job Request moves with its
// Jobs: posted (or draft), filled when every slot is taken, in_progress,
// completed, approved; unfilled at its start time with a slot open;
// cancelled, with its open Jobs, by JobRequests.Cancel.
package workforce
