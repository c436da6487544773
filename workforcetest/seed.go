package workforcetest

import (
	"strings"
	"time"
)

// Seed holds the ids of the records every fake starts with. The Private Pool sees them all; the
// Public Pool sees PublicJobRequestID and its Jobs, and so one Worker, WorkerIDs[0]. The seeded
// Job Requests have 10 slots (BadgeJobRequestID 2) and start 72 hours after the clock's start, on
// the hour (the second day of MultiDayJobRequestID 96 hours).
type Seed struct {
	// CustomerID is a Customer without the pending workflow (use_pending_state false).
	CustomerID int64 `json:"customer_id"`
	// PendingCustomerID is a Customer with the pending workflow (use_pending_state true).
	PendingCustomerID int64 `json:"pending_customer_id"`
	// EmployerID is a requestor (an Employer User) of CustomerID.
	EmployerID int64 `json:"employer_id"`
	// PendingEmployerID is a requestor of PendingCustomerID.
	PendingEmployerID int64 `json:"pending_employer_id"`
	// WorkerIDs are six Workers, none holding a Job on a Private Pool Job Request. WorkerIDs[0]
	// holds PublicJobID. WorkerIDs[1] and later are W2-onboarded.
	WorkerIDs []int64 `json:"worker_ids"`
	// JobRequest1099ID is a posted 1099 Job Request of CustomerID (wage "18.5"), created with the
	// Private Pool keys, without the pending workflow.
	JobRequest1099ID int64 `json:"job_request_1099_id"`
	// JobRequestW2ID is a posted W2 Job Request of CustomerID (w2_hourly_rate "22.75", no wage),
	// created with the Private Pool keys.
	JobRequestW2ID int64 `json:"job_request_w2_id"`
	// PendingJobRequestID is a posted 1099 Job Request of PendingCustomerID with the pending
	// workflow enabled (use_pending_state true on it and on its Customer), so Server.ApplyToJobRequest works.
	PendingJobRequestID int64 `json:"pending_job_request_id"`
	// PublicJobRequestID is a posted 1099 Job Request of CustomerID created with the Public Pool keys.
	PublicJobRequestID int64 `json:"public_job_request_id"`
	// PublicJobID is a filled Job of WorkerIDs[0] on PublicJobRequestID.
	PublicJobID int64 `json:"public_job_id"`
	// W2OnlyCustomerID is a third Customer, which may post W2 Job Requests only; it has no
	// Employer.
	W2OnlyCustomerID int64 `json:"w2_only_customer_id"`
	// BadgeID is a Badge ("Forklift Certified") that WorkerIDs[2] holds.
	BadgeID int64 `json:"badge_id"`
	// BadgeJobRequestID is a posted 1099 Job Request of CustomerID (2 slots) requiring BadgeID:
	// only WorkerIDs[2] may take a Job on it.
	BadgeJobRequestID int64 `json:"badge_job_request_id"`
	// DraftJobRequestID is a draft 1099 Job Request of CustomerID (Server.PostJobRequest posts it).
	DraftJobRequestID int64 `json:"draft_job_request_id"`
	// MultiDayJobRequestID is a Multi-day Job Request (daily, same Workers, 2 repeats).
	MultiDayJobRequestID int64 `json:"multi_day_job_request_id"`
	// MultiDayDayIDs are its days, oldest first: posted W2 Job Requests of CustomerID with
	// multi_day true.
	MultiDayDayIDs []int64 `json:"multi_day_day_ids"`
}

// workerSeed is what differs between the seeded Workers.
type workerSeed struct {
	first, last, gender, rating, city, zip string
	latitude, longitude                    string
	drugTested, w2                         bool
}

// seed stores the records of Seed, with timestamps before the clock's start, and returns their ids.
func (st *store) seed() Seed {
	var seed Seed
	_ = st.write(func(tx *tx) error {
		seed = tx.seedRecords()
		return nil
	})
	return seed
}

// seedRecords stores the records of Seed.
func (tx *tx) seedRecords() Seed {
	now := tx.now()
	longAgo, lately := now.Add(-90*24*time.Hour), now.Add(-48*time.Hour)
	var seed Seed
	customers := [2]*customer{}
	for i, c := range []customer{
		{name: "Acme Logistics", city: "Los Angeles", state: "CA", canPostW2: true, canPost1099: true},
		{name: "Harbor Events", city: "Long Beach", state: "CA", canPost1099: true, usePendingState: true},
	} {
		c.zip, c.phone, c.contactEmail, c.feePercentage = "90015", "+13105550199", "billing@"+strings.ToLower(strings.Fields(c.name)[0])+".example", "0.15"
		c.createdAt, c.updatedAt = longAgo, longAgo
		customers[i] = add(tx, &tx.st.customers, c)
	}
	seed.CustomerID, seed.PendingCustomerID = customers[0].id, customers[1].id
	seed.W2OnlyCustomerID = add(tx, &tx.st.customers, customer{name: "Coastal Catering", city: "Santa Monica", state: "CA",
		canPostW2: true, stored: stored{createdAt: longAgo, updatedAt: longAgo}}).id
	seed.BadgeID = add(tx, &tx.st.badges, badge{name: "Forklift Certified", description: "Operates a forklift safely (OSHA class IV).",
		infoURL: "https://badges.example.com/forklift", stored: stored{createdAt: longAgo, updatedAt: longAgo}}).id
	employers := [2]*user{}
	for i, e := range []user{
		{firstName: "Erin", lastName: "Walsh", email: "erin.walsh@acme.example", title: "Operations Manager"},
		{firstName: "Marcus", lastName: "Lee", email: "marcus.lee@harbor.example", title: "Event Lead"},
	} {
		e.kind, e.role, e.customerID = kindEmployer, "admin", customers[i].id
		e.phone, e.city, e.addressState = "+13105550100", customers[i].city, "CA"
		e.agreedToTermsAt, e.createdAt, e.updatedAt = longAgo, longAgo, longAgo
		employers[i] = add(tx, &tx.st.users, e)
	}
	seed.EmployerID, seed.PendingEmployerID = employers[0].id, employers[1].id
	for i, w := range []workerSeed{
		{"Ana", "Garcia", "female", "4.5", "Los Angeles", "90012", "34.061425", "-118.238913", true, false},
		{"Ben", "Okafor", "male", "4.8", "Los Angeles", "90013", "34.044911", "-118.243208", false, true},
		{"Chloe", "Nguyen", "female", "5.0", "Pasadena", "91101", "34.146081", "-118.139223", true, true},
		{"Dev", "Patel", "male", "3.9", "Glendale", "91203", "34.151672", "-118.262201", false, true},
		{"Eli", "Schmidt", "", "", "Burbank", "91502", "", "", false, true},
		{"Fay", "Morgan", "female", "4.2", "Long Beach", "90802", "33.768321", "-118.195617", true, true},
	} {
		u := user{
			kind: kindWorker, firstName: w.first, lastName: w.last, gender: w.gender, rating: w.rating,
			email: "worker" + itoa(int64(i+1)) + "@example.com", phone: "+1213555010" + itoa(int64(i)),
			address: itoa(int64(100+i)) + " Main St", city: w.city, addressState: "CA", zip: w.zip,
			agreedToTermsAt: longAgo, phoneVerifiedAt: longAgo, onboardingLastState: "completed",
			drugTested: w.drugTested, externalID: "EXT-" + itoa(int64(i+1)), stored: stored{createdAt: longAgo, updatedAt: lately},
		}
		if w.w2 {
			u.w2EmployeeID, u.w2OnboardingStatus, u.w2OnboardingStarted = "W2-"+itoa(int64(4000+i)), "completed", longAgo
		}
		if w.gender != "" {
			u.avatarURL = "https://avatars.example.com/" + itoa(int64(i+1)) + ".png"
		}
		u.latitude, u.longitude = w.latitude, w.longitude
		u.dob = time.Date(1985+i, time.Month(1+i), 3+i, 0, 0, 0, 0, time.UTC)
		if i == 2 {
			u.badges = []userBadge{{id: next(&tx.st.lastUserBadge), badgeID: seed.BadgeID, createdAt: longAgo, updatedAt: longAgo}}
		}
		seed.WorkerIDs = append(seed.WorkerIDs, add(tx, &tx.st.users, u).id)
	}
	seed.MultiDayJobRequestID = insert(tx, &tx.st.multiDays, &multiDay{repeatType: repeatDaily, sameWorkers: true,
		repeatNumber: 2, stored: stored{createdAt: lately, updatedAt: lately}})
	seed.MultiDayDayIDs = make([]int64, 2)
	for _, jr := range []struct {
		dst *int64
		jobRequest
	}{
		{&seed.JobRequest1099ID, jobRequest{name: "Warehouse Loader", wage: "18.5", classification: class1099}},
		{&seed.JobRequestW2ID, jobRequest{name: "Banquet Server (W2)", w2HourlyRate: "22.75", classification: classW2}},
		{&seed.PendingJobRequestID, jobRequest{name: "Stage Crew", wage: "20.0", classification: class1099,
			customerID: customers[1].id, employerID: employers[1].id, usePendingState: true}},
		{&seed.PublicJobRequestID, jobRequest{name: "Event Setup", wage: "17.25", classification: class1099, createdBy: poolPublic}},
		{&seed.BadgeJobRequestID, jobRequest{name: "Forklift Operator", wage: "24.0", classification: class1099,
			slots: 2, badges: []badgeRequirement{{id: next(&tx.st.lastBadgeRequirement), badgeID: seed.BadgeID,
				createdAt: lately, updatedAt: lately}}, agentCode: "AG-7"}},
		{&seed.DraftJobRequestID, jobRequest{name: "Inventory Count", wage: "19.0", classification: class1099, state: stateDraft}},
		{&seed.MultiDayDayIDs[0], jobRequest{name: "Conference Crew, day 1", w2HourlyRate: "21.0", classification: classW2,
			multiDay: true, multiDayID: seed.MultiDayJobRequestID}},
		{&seed.MultiDayDayIDs[1], jobRequest{name: "Conference Crew, day 2", w2HourlyRate: "21.0", classification: classW2,
			multiDay: true, multiDayID: seed.MultiDayJobRequestID, startTime: now.Add(96 * time.Hour).Truncate(time.Hour)}},
	} {
		r := jr.jobRequest
		if r.customerID == 0 {
			r.customerID, r.employerID = customers[0].id, employers[0].id
		}
		if r.createdBy == 0 {
			r.createdBy = poolPrivate
		}
		if r.state == "" {
			r.state = statePosted
		}
		if r.slots == 0 {
			r.slots = 10
		}
		if r.startTime.IsZero() {
			r.startTime = now.Add(72 * time.Hour).Truncate(time.Hour)
		}
		r.category, r.duration = "General Labor", 480
		r.description, r.descriptionTasks = r.name+" for a busy site.", "Load, carry and sort.|Follow the lead's plan."
		r.descriptionSkills, r.descriptionArrival = "Lifting|Teamwork", "Check in at the front desk."
		r.address, r.city, r.zip = "800 W Olympic Blvd", "Los Angeles", "90015"
		r.latitude, r.longitude = "34.042019", "-118.267109"
		r.createdAt, r.updatedAt = lately, lately
		*jr.dst = add(tx, &tx.st.jobRequests, r).id
	}
	if id, err := tx.createJob(seed.PublicJobRequestID, seed.WorkerIDs[0], stateFilled, "Bring gloves", newJobAlways); err == nil {
		seed.PublicJobID = id
	}
	return seed
}

// add inserts a copy of v into t and returns the stored record, for the seeds to read back.
func add[T any](tx *tx, t *table[T], v T) *T {
	insert(tx, t, &v)
	return &v
}
