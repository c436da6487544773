package workforcetest

import (
	"encoding/json"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Values of jobRequest.classification and job.classification.
const (
	class1099 = "1099"
	classW2   = "w2"
)

// jobRequest is a posted need for Workers; its Jobs are the Workers' assignments. Empty strings,
// zero times and zero ids are null.
type jobRequest struct {
	stored
	customerID            int64
	employerID            int64
	createdBy             pool
	name                  string
	state                 string
	category              string
	address, city, zip    string
	venue                 string
	latitude, longitude   string // decimals, written as strings
	description           string
	descriptionTasks      string
	descriptionCompany    string
	descriptionTravel     string
	descriptionSkills     string // "|"-separated, as sent
	descriptionContact    string
	descriptionArrival    string
	startTime             time.Time
	duration              int // minutes
	slots                 int
	wage                  string // a decimal; "" when not set
	classification        string
	w2HourlyRate          string // a decimal
	openRequest           bool
	multiDay              bool
	multiDayID            int64
	agentCode             string
	organizationalPath    string
	usePendingState       bool
	notificationDistance  int // miles; 0 is null
	preferredCandidateIDs []int64
	banList               []int64
	badges                []badgeRequirement // the Badges its Workers must hold
	pushAll               bool               // push_all_notifications_asap
	can                   string             // the undocumented "can" parameter, kept as sent
	ranked                bool               // re_rank_workers ranked the whole Worker pool
	reRanked              []int64            // the Workers the last re_rank_workers ranked, best first
}

// badgeRequirement is a Badge a Job Request requires, a record of its own.
type badgeRequirement struct {
	id, badgeID          int64
	createdAt, updatedAt time.Time
}

// requires tells whether jr requires the Badge badgeID.
func (jr *jobRequest) requires(badgeID int64) bool {
	return slices.ContainsFunc(jr.badges, func(r badgeRequirement) bool { return r.badgeID == badgeID })
}

// clone returns a copy of jr that shares nothing with it.
func (jr *jobRequest) clone() *jobRequest {
	c := *jr
	c.preferredCandidateIDs = slices.Clone(jr.preferredCandidateIDs)
	c.banList = slices.Clone(jr.banList)
	c.badges = slices.Clone(jr.badges)
	c.reRanked = slices.Clone(jr.reRanked)
	return &c
}

// visibleTo tells whether a token of pool p may see jr: the Public Pool sees those it created.
func (jr *jobRequest) visibleTo(p pool) bool { return p != poolPublic || jr.createdBy == poolPublic }

// visibleJobRequest returns a copy of the Job Request with id if a token of pool p may see it,
// else a 404.
func visibleJobRequest(v view, id int64, p pool) (*jobRequest, error) {
	jr, ok := v.jobRequest(id)
	if !ok || !jr.visibleTo(p) {
		return nil, errorf(http.StatusNotFound, "job request %d not found", id)
	}
	return jr, nil
}

// jobRequestFilters are the filters of GET /job_requests (CONTRACT §6).
var jobRequestFilters = []filter[jobRequest]{
	byKey("state", func(jr *jobRequest) string { return jr.state }, true, asText),
	byKey("company_id", func(jr *jobRequest) string { return itoa(jr.customerID) }, false, asID("company_id")),
	byKey("multi_day_job_request_id", func(jr *jobRequest) string { return itoa(jr.multiDayID) }, false,
		asID("multi_day_job_request_id")),
	byKey("classification", func(jr *jobRequest) string { return jr.classification }, false, asText),
	byKey("w2_hourly_rate", func(jr *jobRequest) string { return rateKey(jr.w2HourlyRate) }, false, asRate),
	byUpdated(func(jr *jobRequest) time.Time { return jr.updatedAt }),
	// agent_code: the literal Null selects the Job Requests without one.
	byKey("agent_code", func(jr *jobRequest) string { return jr.agentCode }, false, func(v string, _ fieldErrors) string {
		if v == "Null" {
			return ""
		}
		return v
	}),
}

// listJobRequests serves GET /api_v2/job_requests: the visible Job Requests that pass the
// filters, newest first, one page.
func (s *Server) listJobRequests(c *call) (any, error) {
	fe := fieldErrors{}
	pg := readPage(c.p, fe)
	sels := readFilters(jobRequestFilters, c.p, fe)
	if err := fe.err(); err != nil {
		return nil, err
	}
	sels = append(sels, only(func(jr *jobRequest) bool { return jr.visibleTo(c.pool) }))
	out := []jobRequestJSON{}
	err := s.st.read(func(v view) error {
		for _, jr := range pageOf(v, &v.st.jobRequests, nil, sels, pg) {
			out = append(out, renderJobRequest(v, jr, c.pool))
		}
		return nil
	})
	return map[string][]jobRequestJSON{"job_requests": out}, err
}

// answerJobRequest returns the Job Request with id wrapped as {"job_request": {...}}, as a token
// of pool p sees it.
func answerJobRequest(v view, id int64, p pool) map[string]jobRequestJSON {
	jr, _ := v.jobRequest(id)
	return map[string]jobRequestJSON{"job_request": renderJobRequest(v, jr, p)}
}

// getJobRequest serves GET /api_v2/job_requests/:id.
func (s *Server) getJobRequest(c *call) (any, error) {
	id, err := c.pathID()
	if err != nil {
		return nil, err
	}
	var out any
	err = s.st.read(func(v view) error {
		if _, err := visibleJobRequest(v, id, c.pool); err != nil {
			return err
		}
		out = answerJobRequest(v, id, c.pool)
		return nil
	})
	return out, err
}

// createJobRequest serves POST /api_v2/job_requests. 403 for the Public Pool.
func (s *Server) createJobRequest(c *call) (any, error) {
	if err := c.forbidPublic(); err != nil {
		return nil, err
	}
	f := fields{p: c.p, prefix: "job_request", fe: fieldErrors{}}
	var out any
	err := s.st.write(func(tx *tx) error {
		now := tx.now()
		jr := &jobRequest{classification: class1099, createdBy: c.pool, employerID: s.seed.EmployerID,
			stored: stored{createdAt: now, updatedAt: now}}
		f.oneOf(&jr.state, "state", statePosted, stateDraft)
		readJobRequest(tx, f, jr)
		if err := f.fe.err(); err != nil {
			return err
		}
		id := insert(tx, &tx.st.jobRequests, jr)
		tx.recordChange(changedJobRequest, id, jr.state)
		out = answerJobRequest(tx.view, id, c.pool)
		return nil
	})
	return out, err
}

// updateJobRequest serves PATCH /api_v2/job_requests/:id: job_request[…] fields (state only
// from draft to posted), and state=cancelled, at the top level, wrapped or flat (with an optional
// top-level cancelled_reason given to the Jobs it cancels). All or nothing. 403 for the Public Pool.
func (s *Server) updateJobRequest(c *call) (any, error) {
	id, err := c.privateID()
	if err != nil {
		return nil, err
	}
	f := fields{p: c.p, prefix: "job_request", fe: fieldErrors{}}
	// state cancelled cancels, at the top level, wrapped or flat; any other moves a draft to posted,
	// wrapped (job_request[state]) or flat.
	_, wrapped := c.p["job_request"].(map[string]any)
	top, hasTop := c.p.str("state")
	own, _ := c.p.str("job_request", "state")
	hasCancel := top == stateCancelled || own == stateCancelled
	if wrapped && hasTop && top != stateCancelled {
		f.fe.add("state", "at the top level can only be cancelled")
	}
	if !hasCancel && !f.any() {
		return nil, invalid("job_request", "nothing to update: send job_request[…] fields or top-level state=cancelled")
	}
	reason, ok := c.p.str("cancelled_reason")
	if !ok {
		reason = reasonJobRequestCancelled
	}
	var out any
	err = s.st.write(func(tx *tx) error {
		current, err := visibleJobRequest(tx.view, id, c.pool)
		if err != nil {
			return err
		}
		next := current.clone()
		state := current.state
		if !hasCancel {
			f.oneOf(&state, "state", statePosted, stateDraft)
		}
		if state != current.state && !(current.state == stateDraft && state == statePosted) {
			f.fe.add("state", "cannot change from "+current.state+" to "+state+" through job_request[state]")
		}
		readJobRequest(tx, f, next)
		if err := f.fe.err(); err != nil {
			return err
		}
		if hasCancel {
			if refusal := stateTable(jobRequestMovesTo).refusal(current.state, stateCancelled, "Job Request"); refusal != "" {
				return invalid("state", refusal)
			}
		}
		jr, _ := tx.editJobRequest(id)
		if !reflect.DeepEqual(next, current) {
			next.updatedAt = tx.now()
			*jr = *next
		}
		if state != jr.state {
			_ = tx.moveJobRequest(jr, state, tx.now()) // draft → posted is in the table
		}
		if hasCancel {
			err = tx.cancelJobRequest(jr, reason)
		} else {
			tx.syncJobRequest(id) // slots may have changed
		}
		out = answerJobRequest(tx.view, id, c.pool)
		return err
	})
	return out, err
}

// readJobRequest reads the job_request[…] write parameters into jr and checks them together:
// classification w2 needs w2_hourly_rate and a Customer that may post it, ids must exist.
func readJobRequest(tx *tx, f fields, jr *jobRequest) {
	f.text(&jr.name, "request_name", 1, 255)
	f.text(&jr.zip, "zip", 1, 20)
	f.text(&jr.city, "city", 1, 100)
	f.text(&jr.address, "address", 1, 255)
	f.text(&jr.venue, "venue", 0, 255)
	f.integer(&jr.slots, "slots", 1)
	f.text(&jr.category, "category", 1, 100)
	for name, dst := range map[string]*string{"description": &jr.description, "description_tasks": &jr.descriptionTasks,
		"description_company": &jr.descriptionCompany, "description_travel": &jr.descriptionTravel,
		"description_skills": &jr.descriptionSkills, "description_contact": &jr.descriptionContact,
		"description_arrival": &jr.descriptionArrival, "organizational_path": &jr.organizationalPath} {
		f.text(dst, name, 0, 0)
	}
	readStartTime(f, &jr.startTime)
	f.integer(&jr.duration, "duration", 1)
	f.decimal(&jr.wage, "wage", 0, math.MaxFloat64)
	f.oneOf(&jr.classification, "classification", class1099, classW2)
	f.decimal(&jr.w2HourlyRate, "w2_hourly_rate", 0, math.MaxFloat64)
	f.boolean(&jr.openRequest, "open_request")
	f.boolean(&jr.multiDay, "multi_day")
	f.boolean(&jr.usePendingState, "use_pending_state")
	f.text(&jr.agentCode, "agent_code", 1, 25)
	f.integer(&jr.notificationDistance, "notification_distance", 0)
	f.idList(&jr.preferredCandidateIDs, "preferred_candidate_ids")
	f.idList(&jr.banList, "ban_list")
	if v, ok := f.value("push_all_notifications_asap"); ok && v != nil {
		readOnOff(f.p, f.fe, &jr.pushAll, f.prefix, "push_all_notifications_asap")
	}
	f.id(&jr.multiDayID, "multi_day_job_request_id")
	f.text(&jr.can, "can", 0, 255)
	readBadgeRequirements(tx, f, jr)
	if jr.multiDayID != 0 && !exists(tx.multiDay(jr.multiDayID)) {
		f.fe.add("multi_day_job_request_id", "does not exist")
	}
	for _, r := range jr.badges {
		if !exists(tx.badge(r.badgeID)) {
			f.fe.add("badge_requirements_attributes", "badge "+itoa(r.badgeID)+" does not exist")
		}
	}
	for name, list := range map[string][]int64{"preferred_candidate_ids": jr.preferredCandidateIDs, "ban_list": jr.banList} {
		for _, id := range list {
			if _, msg := userOfKind(tx.view, id, kindWorker); msg != "" {
				f.fe.add(name, "user "+itoa(id)+" "+msg)
			}
		}
	}
	employer, _ := userOfKind(tx.view, jr.employerID, kindEmployer)
	if _, present := f.value("employer_id"); present {
		f.id(&jr.employerID, "employer_id")
		var msg string
		if employer, msg = userOfKind(tx.view, jr.employerID, kindEmployer); msg != "" {
			f.fe.add("employer_id", msg)
		}
	}
	if employer != nil {
		jr.customerID = employer.customerID
	}
	f.notBlank(map[string]string{"request_name": jr.name, "zip": jr.zip, "city": jr.city, "address": jr.address,
		"category": jr.category, "state": jr.state})
	if jr.slots < 1 && len(f.fe["slots"]) == 0 {
		f.fe.add("slots", "can't be blank")
	}
	if jr.description == "" && jr.descriptionTasks == "" {
		f.fe.add("description_tasks", "can't be blank (send description_tasks or description)")
	}
	if jr.classification == classW2 && jr.w2HourlyRate == "" {
		f.fe.add("w2_hourly_rate", "can't be blank for a w2 job request")
	}
	if c, ok := tx.customer(jr.customerID); ok &&
		((jr.classification == classW2 && !c.canPostW2) || (jr.classification == class1099 && !c.canPost1099)) {
		f.fe.add("classification", "customer "+itoa(c.id)+" may not post "+jr.classification+" job requests")
	}
}

// readStartTime reads job_request[start_time] as wall-clock "YYYY-MM-DD HH:MM" in US Pacific
// time (the fake's venues are all there), or as RFC 3339.
func readStartTime(f fields, dst *time.Time) {
	v, present := f.value("start_time")
	if !present {
		return
	}
	s, _ := f.str("start_time")
	s = strings.TrimSpace(s)
	if v == nil || s == "" {
		*dst = time.Time{}
		return
	}
	if t, err := time.Parse("2006-01-02 15:04", s); err == nil {
		*dst = pacificWallClock(t)
		return
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		*dst = t
		return
	}
	f.fe.add("start_time", "must be YYYY-MM-DD HH:MM")
}

// readOnOff reads an on/off switch (also true/false) at path into dst.
func readOnOff(p params, fe fieldErrors, dst *bool, path ...string) {
	s, _ := p.str(path...)
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "on", "true", "1":
		*dst = true
	case "off", "false", "0":
		*dst = false
	default:
		fe.add(path[len(path)-1], "must be on or off")
	}
}

// readBadgeRequirements reads badge_requirements_attributes: an array of {"badge_id": N} (or of
// ids), or a form's indexed hash (…[0][badge_id]=N). It replaces the requirements: one still
// required keeps its record, a new one is a new record.
func readBadgeRequirements(tx *tx, f fields, jr *jobRequest) {
	v, present := f.value("badge_requirements_attributes")
	if !present {
		return
	}
	items, _ := listItems(v)
	out := []badgeRequirement{}
	for _, item := range items {
		if m, ok := item.(map[string]any); ok {
			item = m["badge_id"]
		}
		id, ok := idValue(item)
		if !ok {
			f.fe.add("badge_requirements_attributes", "must be an array of {badge_id}")
			return
		}
		if slices.ContainsFunc(out, func(r badgeRequirement) bool { return r.badgeID == id }) {
			continue
		}
		if i := slices.IndexFunc(jr.badges, func(r badgeRequirement) bool { return r.badgeID == id }); i >= 0 {
			out = append(out, jr.badges[i])
			continue
		}
		now := tx.now()
		out = append(out, badgeRequirement{id: next(&tx.st.lastBadgeRequirement), badgeID: id, createdAt: now, updatedAt: now})
	}
	jr.badges = out
}

// badgeRequirementJSON is one entry of badge_requirements (CONTRACT §10).
type badgeRequirementJSON struct {
	ID               int64   `json:"id"`
	BadgeID          int64   `json:"badge_id"`
	JobRequestID     int64   `json:"job_request_id"`
	BadgeName        string  `json:"badge_name"`
	BadgeIconURL     *string `json:"badge_icon_url"`
	BadgeDescription string  `json:"badge_description"`
	CreatedAt        string  `json:"created_at"`
	UpdatedAt        string  `json:"updated_at"`
}

// jobRequestJSON is a Job Request as the API writes it (CONTRACT §6 "Job Request fields", with
// the keys of §10 in the forms of §10.1: numbers for wage, duration, slots, distance and the
// coordinates; booleans for the switches; text for w2_hourly_rate and re_ranked_worker_ids;
// lists of integers for the ID lists and preferred_wonoloers_info, whose meaning is unknown and
// which the fake sends empty).
type jobRequestJSON struct {
	ID                       int64                  `json:"id"`
	State                    string                 `json:"state"`
	RequestName              string                 `json:"request_name"`
	CustomerID               *int64                 `json:"customer_id"`
	CompanyID                *int64                 `json:"company_id"`
	EmployerID               *int64                 `json:"employer_id"`
	Zip                      string                 `json:"zip"`
	PostalCode               string                 `json:"postal_code"`
	Country                  string                 `json:"country"`
	City                     string                 `json:"city"`
	Address                  string                 `json:"address"`
	Venue                    *string                `json:"venue"`
	Latitude                 *json.Number           `json:"latitude"`
	Longitude                *json.Number           `json:"longitude"`
	Timezone                 string                 `json:"timezone"`
	Slots                    int                    `json:"slots"`
	FilledSlots              int                    `json:"filled_slots"`
	Category                 string                 `json:"category"`
	Description              *string                `json:"description"`
	DescriptionTasks         *string                `json:"description_tasks"`
	DescriptionCompany       *string                `json:"description_company"`
	DescriptionTravel        *string                `json:"description_travel"`
	DescriptionSkills        *string                `json:"description_skills"`
	DescriptionContact       *string                `json:"description_contact"`
	DescriptionArrival       *string                `json:"description_arrival"`
	StartTime                *string                `json:"start_time"`
	Duration                 *int                   `json:"duration"`
	Wage                     *json.Number           `json:"wage"`
	Classification           string                 `json:"classification"`
	W2HourlyRate             string                 `json:"w2_hourly_rate"`
	OpenRequest              bool                   `json:"open_request"`
	MultiDay                 bool                   `json:"multi_day"`
	MultiDayJobRequestID     *int64                 `json:"multi_day_job_request_id"`
	AgentCode                *string                `json:"agent_code"`
	OrganizationalPath       *string                `json:"organizational_path"`
	UsePendingState          bool                   `json:"use_pending_state"`
	NotificationDistance     *int                   `json:"notification_distance"`
	PushAllNotificationsASAP bool                   `json:"push_all_notifications_asap"`
	Can                      *string                `json:"can"`
	PreferredCandidateIDs    []int64                `json:"preferred_candidate_ids"`
	PreferredWonoloersInfo   []int64                `json:"preferred_wonoloers_info"`
	ReRankedWorkerIDs        *string                `json:"re_ranked_worker_ids"`
	BanList                  []int64                `json:"ban_list"`
	BadgeRequirements        []badgeRequirementJSON `json:"badge_requirements"`
	CachedJobStates          map[string]int         `json:"cached_job_states"`
	FlagColor                *string                `json:"flag_color"`
	InWhiteGlovesPeriod      bool                   `json:"in_white_gloves_period"`
	CreatedAt                string                 `json:"created_at"`
	UpdatedAt                string                 `json:"updated_at"`
}

// idTexts writes ids as texts, which re_ranked_worker_ids joins.
func idTexts(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = itoa(id)
	}
	return out
}

// nonNil returns ids, or an empty list for nil: a list of ids is written [], never null.
func nonNil(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

// visibleWorkers returns the ids of ids whose User a token of pool p may see (userVisible), in
// their order: all of them for the Private Pool.
func visibleWorkers(v view, ids []int64, p pool) []int64 {
	if p != poolPublic {
		return ids
	}
	var out []int64
	for _, id := range ids {
		if u, ok := v.user(id); ok && userVisible(v, u, p) {
			out = append(out, id)
		}
	}
	return out
}

// renderJobRequest writes jr as a token of pool p sees it: its lists of Workers (preferred
// candidates, the banned and the re-ranked) name only those GET /users shows p.
func renderJobRequest(v view, jr *jobRequest, p pool) jobRequestJSON {
	preferred := visibleWorkers(v, jr.preferredCandidateIDs, p)
	jobs := v.jobsOf(jr.id)
	out := jobRequestJSON{
		ID: jr.id, State: jr.state, RequestName: jr.name, CustomerID: optID(jr.customerID), CompanyID: optID(jr.customerID),
		EmployerID: optID(jr.employerID), Zip: jr.zip, PostalCode: jr.zip, Country: "US", City: jr.city, Address: jr.address,
		Venue: optString(jr.venue), Latitude: optNumber(jr.latitude), Longitude: optNumber(jr.longitude),
		Timezone: "America/Los_Angeles", Slots: jr.slots, FilledSlots: countSlots(jobs), Category: jr.category,
		Description: optString(jr.description), DescriptionTasks: optString(jr.descriptionTasks),
		DescriptionCompany: optString(jr.descriptionCompany), DescriptionTravel: optString(jr.descriptionTravel),
		DescriptionSkills: optString(jr.descriptionSkills), DescriptionContact: optString(jr.descriptionContact),
		DescriptionArrival: optString(jr.descriptionArrival), Duration: optInt(jr.duration),
		Wage: optNumber(jr.wage), Classification: jr.classification,
		OpenRequest: jr.openRequest, MultiDay: jr.multiDay, MultiDayJobRequestID: optID(jr.multiDayID),
		AgentCode: optString(jr.agentCode), OrganizationalPath: optString(jr.organizationalPath),
		UsePendingState: jr.usePendingState, NotificationDistance: optInt(jr.notificationDistance),
		PushAllNotificationsASAP: jr.pushAll, Can: optString(jr.can),
		PreferredCandidateIDs:  nonNil(preferred),
		PreferredWonoloersInfo: []int64{},
		BanList:                nonNil(visibleWorkers(v, jr.banList, p)),
		BadgeRequirements:      make([]badgeRequirementJSON, 0, len(jr.badges)),
		CachedJobStates:        map[string]int{},
		CreatedAt:              localTime(jr.createdAt), UpdatedAt: localTime(jr.updatedAt),
	}
	if jr.classification == classW2 {
		out.W2HourlyRate = jr.w2HourlyRate
	}
	if !jr.startTime.IsZero() {
		s := jr.startTime.In(pacific(jr.startTime)).Format(time.RFC3339)
		out.StartTime = &s
	}
	if jr.ranked {
		s := strings.Join(idTexts(visibleWorkers(v, jr.reRanked, p)), ",")
		out.ReRankedWorkerIDs = &s
	}
	for _, r := range jr.badges {
		b, ok := v.badge(r.badgeID)
		if !ok {
			continue
		}
		out.BadgeRequirements = append(out.BadgeRequirements, badgeRequirementJSON{ID: r.id, BadgeID: r.badgeID,
			JobRequestID: jr.id, BadgeName: b.name, BadgeIconURL: optString(b.iconURL), BadgeDescription: b.description,
			CreatedAt: localTime(r.createdAt), UpdatedAt: localTime(r.updatedAt)})
	}
	for _, j := range jobs {
		out.CachedJobStates[j.state]++
	}
	return out
}
