package workforcetest

import (
	"net/http"
	"strconv"
)

// mib is a mebibyte, the unit of the routes' body limits.
const mib = 1 << 20

// routes is every route the fake serves, on http.ServeMux patterns: the API of CONTRACT §2 and §6
// and the control API under /_fake/ (see ControlAPI). Each line names whether the route needs a
// token, the largest body it reads (a larger one is a 413) and its handler. Any other method or
// path answers 405 or 404.
func (s *Server) routes() []route {
	customers, badges, messages, users, multiDays := s.customers(), s.badges(), s.messages(), s.users(), s.multiDays()
	return []route{
		{"POST /api_v2/authenticate", noToken, 1 * mib, s.authenticate},
		{"GET /api_v2/info", noToken, 1 * mib, s.info},

		{"GET /api_v2/jobs", needsToken, 1 * mib, s.listJobs},
		{"POST /api_v2/jobs", needsToken, 1 * mib, s.createJob},
		{"POST /api_v2/jobs/assign", needsToken, 1 * mib, s.createJob},
		{"GET /api_v2/jobs/{id}", needsToken, 1 * mib, s.getJob},
		{"PATCH /api_v2/jobs/{id}", needsToken, 1 * mib, s.updateJob},

		{"GET /api_v2/job_requests", needsToken, 1 * mib, s.listJobRequests},
		{"POST /api_v2/job_requests", needsToken, 1 * mib, s.createJobRequest},
		{"GET /api_v2/job_requests/{id}", needsToken, 1 * mib, s.getJobRequest},
		{"PATCH /api_v2/job_requests/{id}", needsToken, 1 * mib, s.updateJobRequest},
		{"GET /api_v2/job_requests/{id}/rankings", needsToken, 1 * mib, s.rankings},
		{"POST /api_v2/job_requests/{id}/resend_notifications", needsToken, 1 * mib, s.resendNotifications},
		{"POST /api_v2/job_requests/{id}/re_rank_workers", needsToken, 1 * mib, s.reRankWorkers},

		{"POST /api_v2/multi_day_job_requests", needsToken, 1 * mib, multiDays.create},
		{"GET /api_v2/multi_day_job_requests/{id}", needsToken, 1 * mib, multiDays.get},
		{"PATCH /api_v2/multi_day_job_requests/{id}", needsToken, 1 * mib, multiDays.update},

		{"GET /api_v2/badges", needsToken, 1 * mib, badges.list},
		{"POST /api_v2/badges", needsToken, 1 * mib, badges.create},
		{"GET /api_v2/badges/{id}", needsToken, 1 * mib, badges.get},
		{"PATCH /api_v2/badges/{id}", needsToken, 1 * mib, badges.update},
		{"DELETE /api_v2/badges/{id}", needsToken, 1 * mib, s.deleteBadge},

		{"GET /api_v2/customers", needsToken, 1 * mib, customers.list},
		{"POST /api_v2/customers", needsToken, 1 * mib, customers.create},
		{"GET /api_v2/customers/exists", needsToken, 1 * mib, s.customerExists},
		{"POST /api_v2/customers/timesheet_import", needsToken, 8 * mib, s.timesheetImport},
		{"GET /api_v2/customers/{id}", needsToken, 1 * mib, customers.get},
		{"PATCH /api_v2/customers/{id}", needsToken, 1 * mib, customers.update},
		{"PUT /api_v2/customers/{id}", needsToken, 1 * mib, customers.update},

		{"GET /api_v2/messages", needsToken, 1 * mib, messages.list},
		{"POST /api_v2/messages", needsToken, 1 * mib, messages.create},
		{"GET /api_v2/messages/{id}", needsToken, 1 * mib, messages.get},

		{"GET /api_v2/users", needsToken, 1 * mib, users.list},
		{"POST /api_v2/users", needsToken, 1 * mib, users.create},
		{"POST /api_v2/users/invite", needsToken, 1 * mib, s.inviteUser},
		{"GET /api_v2/users/{id}", needsToken, 1 * mib, users.get},
		{"PATCH /api_v2/users/{id}", needsToken, 1 * mib, users.update},
		{"PUT /api_v2/users/{id}", needsToken, 1 * mib, users.update},
		{"GET /api_v2/users/{id}/tracking", needsToken, 1 * mib, s.tracking},

		{"GET /api_v2/search", needsToken, 1 * mib, s.search},

		{"POST /_fake/job_requests/{id}/apply", noToken, 1 * mib, controlCreate(s.ApplyToJobRequest)},
		{"POST /_fake/job_requests/{id}/accept", noToken, 1 * mib, controlCreate(s.AcceptJobRequest)},
		{"POST /_fake/job_requests/{id}/post", noToken, 1 * mib, controlMove(s.PostJobRequest, s.JobRequestState)},
		{"POST /_fake/job_requests/{id}/cancel", noToken, 1 * mib, controlMove(s.CancelJobRequest, s.JobRequestState)},
		{"POST /_fake/jobs/{id}/start", noToken, 1 * mib, controlMoveAt(s.StartJob, s.StartJobAt, s.JobState)},
		{"POST /_fake/jobs/{id}/pause", noToken, 1 * mib, controlMove(s.PauseJob, s.JobState)},
		{"POST /_fake/jobs/{id}/complete", noToken, 1 * mib, controlMoveAt(s.CompleteJob, s.CompleteJobAt, s.JobState)},
		{"POST /_fake/jobs/{id}/withdraw", noToken, 1 * mib, controlMove(s.WithdrawJob, s.JobState)},
		{"POST /_fake/jobs/{id}/approve", noToken, 1 * mib, controlMove(s.ApproveJob, s.JobState)},
		{"POST /_fake/jobs/{id}/no_show", noToken, 1 * mib, controlMove(s.NoShowJob, s.JobState)},
		{"POST /_fake/workers/{id}/badges", noToken, 1 * mib, s.controlGrantBadge},
		{"GET /_fake/clock", noToken, 1 * mib, s.controlNow},
		{"POST /_fake/clock/advance", noToken, 1 * mib, s.controlAdvance},
		{"POST /_fake/faults", noToken, 1 * mib, s.controlFault},
		{"DELETE /_fake/faults", noToken, 1 * mib, s.controlClearFaults},
		{"GET /_fake/latency", noToken, 1 * mib, s.controlLatency},
		{"POST /_fake/latency", noToken, 1 * mib, s.controlSetLatency},
		{"GET /_fake/requests", noToken, 1 * mib, s.controlRequests},
		{"DELETE /_fake/requests", noToken, 1 * mib, s.controlResetRequests},
		{"GET /_fake/seed", noToken, 1 * mib, s.controlSeed},
		{"GET /_fake/openapi.yaml", noToken, 1 * mib, s.controlOpenAPI},
		{"POST /_fake/webhooks", noToken, 1 * mib, s.controlAddReceiver},
		{"GET /_fake/webhooks/attempts", noToken, 1 * mib, s.controlWebhookAttempts},
		{"POST /_fake/webhooks/wait", noToken, 1 * mib, s.controlWaitWebhooks},
		{"POST /_fake/webhooks/faults", noToken, 1 * mib, s.controlWebhookFault},
		{"POST /_fake/webhooks/chaos", noToken, 1 * mib, s.controlWebhookChaos},
	}
}

// route is one line of the route table.
type route struct {
	pattern string // an http.ServeMux pattern, "METHOD /path/{id}"
	access  access
	maxBody int64                    // the largest request body read, in bytes
	handle  func(*call) (any, error) // answers a value that is written as JSON, or an error
}

// access is what a route asks of a request before its handler runs.
type access int

const (
	needsToken access = iota // a valid token, from the query string or the body
	noToken                  // nothing: authenticate, info and the control API
	noRoute                  // the route of every request no other route serves: a 404 or 405
)

// call is one request as a handler sees it.
type call struct {
	r     *http.Request
	p     params
	body  []byte            // the raw request body
	files map[string][]byte // the files of a multipart/form-data body, by field name
	pool  pool              // the token's access level; 0 on routes that need no token
}

// pathID returns the {id} of the path, or a 404 for one that is not a positive integer.
func (c *call) pathID() (int64, error) {
	text := c.r.PathValue("id")
	id, err := strconv.ParseInt(text, 10, 64)
	if err != nil || id < 1 {
		return 0, errorf(http.StatusNotFound, "no record with id %q", text)
	}
	return id, nil
}

// forbidPublic returns a 403 for a Public Pool token.
func (c *call) forbidPublic() error {
	if c.pool == poolPublic {
		return errorf(http.StatusForbidden, "not allowed with Public Pool keys")
	}
	return nil
}

// privateID returns the {id} of the path for a write that Public Pool keys may not make: a 403
// for them, a 404 for an id that is not a positive integer.
func (c *call) privateID() (int64, error) {
	if err := c.forbidPublic(); err != nil {
		return 0, err
	}
	return c.pathID()
}
