package workforcetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/workforce-marketplace/workforce-go/openapi"
)

// ControlAPI lists the control API: Server's methods over HTTP, under /_fake/, for tests that
// drive cmd/workforce-fake from another language (workforce-fake -h prints it). It needs no
// token and answers JSON, errors as {"error": "..."} with 404 (an unknown record or path), 405
// (a method the path does not take), 413 (a body over 1 MiB) or 422; its requests are neither
// recorded nor faulted; it is as reachable as the fake itself: from this machine, unless the
// fake was started WithRemoteAccess.
const ControlAPI = `POST   /_fake/job_requests/{id}/apply?worker_id=N  ApplyToJobRequest: the Worker applies (pending workflow) -> {"job_id": N}
POST   /_fake/job_requests/{id}/accept?worker_id=N AcceptJobRequest: the Worker accepts -> {"job_id": N}
POST   /_fake/job_requests/{id}/post               PostJobRequest: post a draft -> {"state": "posted"}
POST   /_fake/job_requests/{id}/cancel             CancelJobRequest, its open Jobs too -> {"state": "cancelled"}
POST   /_fake/jobs/{id}/start                      StartJob -> {"state": "in_progress"}; with ?latitude=L&longitude=G,
                                                   StartJobAt: where the Worker checks in (see GET /users/:id/tracking)
POST   /_fake/jobs/{id}/pause                      PauseJob -> {"state": "paused"}
POST   /_fake/jobs/{id}/complete                   CompleteJob -> {"state": "completed"}; with ?latitude=L&longitude=G,
                                                   CompleteJobAt
POST   /_fake/jobs/{id}/withdraw                   WithdrawJob -> {"state": "withdrawn"}
POST   /_fake/jobs/{id}/approve                    ApproveJob -> {"state": "approved"}
POST   /_fake/jobs/{id}/no_show                    NoShowJob -> {"state": "no_show"}
POST   /_fake/workers/{id}/badges?badge_id=N       GrantBadge -> {"worker_id": N, "badge_id": M}
GET    /_fake/clock                                Now -> {"now": "2026-11-23T04:50:40Z"}
POST   /_fake/clock/advance?seconds=N              Advance, N may be negative -> {"now": "..."}; Job Requests
                                                   whose start it reaches with an open slot become unfilled,
                                                   and their pending Jobs rejected (the cut-off)
POST   /_fake/faults                               InjectFault -> {}; the JSON body is a Fault, with the delay in
                                                   milliseconds and no other field: {"method", "path", "times",
                                                   "status", "retry_after", "body", "drop", "delay_ms",
                                                   "drop_after", "truncate"}
DELETE /_fake/faults                               ClearFaults: forget the faults not yet played -> {}
GET    /_fake/latency                              Latency -> {"latency_ms": N}
POST   /_fake/latency?ms=N                         SetLatency, 0 for none -> {"latency_ms": N}
GET    /_fake/requests                             Requests -> {"requests": [{"method", "path", "query", "header",
                                                   "body" (as text), "body_size", "time", "status"}]}
DELETE /_fake/requests                             ResetRequests -> {}
GET    /_fake/seed                                 Seed -> {"customer_id": 11, ...}
GET    /_fake/openapi.yaml                         The API's OpenAPI 3.1 document (package openapi), as YAML
POST   /_fake/webhooks?url=U                       AddWebhookReceiver (http or https on a loopback host) -> {}
GET    /_fake/webhooks/attempts                    WebhookAttempts -> {"attempts": [{"url", "resource", "id",
                                                   "state", "attempt", "status", "error", "time", "body",
                                                   "signature"}]}
POST   /_fake/webhooks/wait                        WaitWebhooks, for 10 seconds at most -> {}
POST   /_fake/webhooks/faults                      InjectWebhookFault -> {}; the JSON body is a WebhookFault
POST   /_fake/webhooks/chaos                       SetWebhookChaos -> {}; the JSON body is a WebhookChaos
`

// controlPrefix starts the paths of the control API (see ControlAPI), whose requests are neither
// recorded nor faulted.
const controlPrefix = "/_fake/"

// controlOpenAPI serves GET /_fake/openapi.yaml: the OpenAPI document of the API the fake
// implements.
func (s *Server) controlOpenAPI(*call) (any, error) {
	return document{contentType: "application/yaml", data: openapi.YAML()}, nil
}

// controlAddReceiver serves POST /_fake/webhooks?url=U: AddWebhookReceiver, answering {}.
func (s *Server) controlAddReceiver(c *call) (any, error) {
	u, ok := c.p.str("url")
	if !ok {
		return nil, invalid("url", "can't be blank")
	}
	if err := s.AddWebhookReceiver(u); err != nil {
		return nil, invalid("url", err.Error())
	}
	return struct{}{}, nil
}

// controlWaitWebhooks serves POST /_fake/webhooks/wait: WaitWebhooks for at most 10 seconds of
// real time, answering {} or a 422 when deliveries are still in flight then.
func (s *Server) controlWaitWebhooks(c *call) (any, error) {
	ctx, cancel := context.WithTimeout(c.r.Context(), 10*time.Second)
	defer cancel()
	if err := s.WaitWebhooks(ctx); err != nil {
		return nil, invalid("webhooks", "still in flight after 10 seconds")
	}
	return struct{}{}, nil
}

// controlCreate serves apply or accept: POST /_fake/job_requests/{id}/…?worker_id=N answers
// {"job_id": N}.
func controlCreate(create func(jobRequestID, workerID int64) (int64, error)) func(*call) (any, error) {
	return func(c *call) (any, error) {
		jobRequestID, err := c.pathID()
		if err != nil {
			return nil, err
		}
		fe := fieldErrors{}
		workerID := c.p.id(fe, "worker_id", "worker_id")
		if err := fe.err(); err != nil {
			return nil, err
		}
		jobID, err := create(jobRequestID, workerID)
		if err != nil {
			return nil, controlError(err)
		}
		return map[string]int64{"job_id": jobID}, nil
	}
}

// controlMove serves POST /_fake/jobs/{id}/<move> and /_fake/job_requests/{id}/<move>, which
// answer {"state": "<the new state>"} as stateOf reads it.
func controlMove(move func(id int64) error, stateOf func(id int64) (string, bool)) func(*call) (any, error) {
	return func(c *call) (any, error) {
		id, err := c.pathID()
		if err == nil {
			err = move(id)
		}
		if err != nil {
			return nil, controlError(err)
		}
		state, _ := stateOf(id)
		return map[string]string{"state": state}, nil
	}
}

// controlMoveAt serves POST /_fake/jobs/{id}/start and /complete: as controlMove without
// position, with ?latitude=…&longitude=… (both or neither) the Worker's own position.
func controlMoveAt(move func(int64) error, moveAt func(int64, Position) error, stateOf func(int64) (string, bool)) func(*call) (any, error) {
	plain := controlMove(move, stateOf)
	return func(c *call) (any, error) {
		lat, hasLat := c.p.str("latitude")
		lng, hasLng := c.p.str("longitude")
		if !hasLat && !hasLng {
			return plain(c)
		}
		fe := fieldErrors{}
		var p Position
		for name, f := range map[string]struct {
			text string
			dst  *float64
		}{"latitude": {lat, &p.Latitude}, "longitude": {lng, &p.Longitude}} {
			x, err := strconv.ParseFloat(strings.TrimSpace(f.text), 64)
			if err != nil {
				fe.add(name, "must be a number of degrees, given with the other coordinate")
			}
			*f.dst = x
		}
		if err := fe.err(); err != nil {
			return nil, err
		}
		return controlMove(func(id int64) error { return moveAt(id, p) }, stateOf)(c)
	}
}

// controlGrantBadge serves POST /_fake/workers/{id}/badges?badge_id=N: GrantBadge, answering
// {"worker_id": N, "badge_id": M}.
func (s *Server) controlGrantBadge(c *call) (any, error) {
	workerID, err := c.pathID()
	if err != nil {
		return nil, err
	}
	fe := fieldErrors{}
	badgeID := c.p.id(fe, "badge_id", "badge_id")
	if err := fe.err(); err != nil {
		return nil, err
	}
	if err := s.GrantBadge(workerID, badgeID); err != nil {
		return nil, controlError(err)
	}
	return map[string]int64{"worker_id": workerID, "badge_id": badgeID}, nil
}

// controlError returns the error of a move with the status of the API error it wraps (404 for
// an unknown Job, 422 for a move the state table refuses), else as a 422.
func controlError(err error) error {
	if errors.As(err, new(*apiError)) {
		return err
	}
	return errorf(http.StatusUnprocessableEntity, "%s", err)
}

// controlNow serves GET /_fake/clock: {"now": "<RFC 3339>"}.
func (s *Server) controlNow(*call) (any, error) {
	return map[string]string{"now": utcTime(s.Now())}, nil
}

// controlAdvance serves POST /_fake/clock/advance?seconds=N (N may be negative), answering as
// GET /_fake/clock.
func (s *Server) controlAdvance(c *call) (any, error) {
	text, _ := c.p.str("seconds")
	n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
	if limit := int64(math.MaxInt64 / time.Second); err != nil || n > limit || n < -limit {
		return nil, invalid("seconds", "must be an integer number of seconds")
	}
	s.Advance(time.Duration(n) * time.Second)
	return s.controlNow(c)
}

// faultJSON is a Fault as POST /_fake/faults takes it, with Delay in milliseconds.
type faultJSON struct {
	Fault
	DelayMS int64 `json:"delay_ms"`
}

// controlFault serves POST /_fake/faults with a JSON Fault; unknown fields are refused, so that
// a misspelt one does not go unnoticed. It answers {}.
func (s *Server) controlFault(c *call) (any, error) {
	var in faultJSON
	dec := json.NewDecoder(bytes.NewReader(c.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, invalid("body", "must be a JSON Fault: "+err.Error())
	}
	fe := fieldErrors{}
	if !strings.HasPrefix(in.Path, "/") {
		fe.add("path", "must be a path such as /api_v2/jobs")
	}
	if in.Status != 0 && (in.Status < 100 || in.Status > 599) {
		fe.add("status", "must be an HTTP status, or 0 to answer normally")
	}
	if in.Times < 0 {
		fe.add("times", "must be a number of requests, 0 (once) or more")
	}
	if in.DelayMS < 0 || in.DelayMS > int64(math.MaxInt64/time.Millisecond) {
		fe.add("delay_ms", "must be a number of milliseconds, 0 or more")
	}
	if err := fe.err(); err != nil {
		return nil, err
	}
	in.Delay = time.Duration(in.DelayMS) * time.Millisecond
	s.InjectFault(in.Fault)
	return struct{}{}, nil
}

// requestJSON is a Request as GET /_fake/requests answers it, with its body as text.
type requestJSON struct {
	Request
	Body string `json:"body"`
}

// controlRequests serves GET /_fake/requests: {"requests": [...]}, oldest first.
func (s *Server) controlRequests(*call) (any, error) {
	reqs := s.Requests()
	out := make([]requestJSON, len(reqs))
	for i, req := range reqs {
		out[i] = requestJSON{Request: req, Body: string(req.Body)}
	}
	return map[string][]requestJSON{"requests": out}, nil
}

// controlResetRequests serves DELETE /_fake/requests: ResetRequests, answering {}.
func (s *Server) controlResetRequests(*call) (any, error) {
	s.ResetRequests()
	return struct{}{}, nil
}

// controlSeed serves GET /_fake/seed: Seed.
func (s *Server) controlSeed(*call) (any, error) { return s.Seed(), nil }

// controlWebhookAttempts serves GET /_fake/webhooks/attempts: {"attempts": [...]}.
func (s *Server) controlWebhookAttempts(*call) (any, error) {
	return map[string][]WebhookAttempt{"attempts": s.WebhookAttempts()}, nil
}

// controlClearFaults serves DELETE /_fake/faults: ClearFaults, answering {}.
func (s *Server) controlClearFaults(*call) (any, error) {
	s.ClearFaults()
	return struct{}{}, nil
}
