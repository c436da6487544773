package workforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// benchJob is one Job as the API writes it, with the embedded Users and two
// transitions; %d is its id.
const benchJob = `{"id": %d, "state": "filled", "job_request_id": 9, "worker_id": 7,
 "created_at": "2026-11-20T11:34:36.820-07:00", "updated_at": "2026-11-20T18:34:36Z",
 "confirmed_at": "2026-11-20T18:34:36Z", "started_at": null, "completed_at": null, "finished_at": null,
 "hours_worked": "7.5", "actual_duration": 450, "time_to_start": 30, "adjusted_wage": "18.50",
 "requestor_notes": "Ask for Sam at the loading dock.", "classification": "1099", "w2_hourly_rate": null,
 "w2_payment_ref": null, "w2_pay_status": "not_started", "cancelled_reason": null,
 "worker": {"id": 7, "type": "Worker", "first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com",
  "phone": "+15555550100", "rating": "4.5", "city": "Los Angeles", "address_state": "CA", "zip": "90012",
  "suspended": false, "updated_at": "2026-11-19T10:00:00Z"},
 "employer": {"id": 3, "type": "Employer", "first_name": "Grace", "last_name": "Hopper", "email": "grace@example.com",
  "phone": "+15555550101", "rating": null, "city": "Los Angeles", "address_state": "CA", "zip": "90012",
  "suspended": false, "updated_at": "2026-11-19T10:00:00Z"},
 "transitions": [{"id": 2, "job_id": %d, "name": "filled", "created_at": "2026-11-20T18:34:36Z", "latitude": "34.042019", "longitude": "-118.235"},
  {"id": 1, "job_id": %d, "name": "pending", "created_at": "2026-11-20T18:30:00Z", "latitude": null, "longitude": null}]}`

// plainJob is what a careful hand-written client decodes the same page
// into, as fast as encoding/json goes: every field the SDK's Job decodes,
// with the plain type each has on this page (a decimal sent as a string is
// a string, one sent as a number an int), and a null read as the zero
// value rather than through a pointer.
type plainJob struct {
	ID             int64     `json:"id"`
	State          string    `json:"state"`
	JobRequestID   int64     `json:"job_request_id"`
	WorkerID       int64     `json:"worker_id"`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
	ConfirmedAt    time.Time `json:"confirmed_at"`
	StartedAt      time.Time `json:"started_at"`
	CompletedAt    time.Time `json:"completed_at"`
	FinishedAt     time.Time `json:"finished_at"`
	HoursWorked    string    `json:"hours_worked"`
	ActualDuration int       `json:"actual_duration"`
	TimeToStart    int       `json:"time_to_start"`
	AdjustedWage   string    `json:"adjusted_wage"`
	RequestorNotes string    `json:"requestor_notes"`
	Classification string    `json:"classification"`
	W2HourlyRate   string    `json:"w2_hourly_rate"`
	W2PaymentRef   string    `json:"w2_payment_ref"`
	W2PayStatus    string    `json:"w2_pay_status"`
	Cancelled      string    `json:"cancelled_reason"`
	Worker         plainUser `json:"worker"`
	Employer       plainUser `json:"employer"`
	Transitions    []struct {
		ID        int64     `json:"id"`
		JobID     int64     `json:"job_id"`
		Name      string    `json:"name"`
		CreatedAt time.Time `json:"created_at"`
		Latitude  string    `json:"latitude"`
		Longitude string    `json:"longitude"`
	} `json:"transitions"`
}

// plainUser is every field of the SDK's User, plainly typed.
type plainUser struct {
	ID                  int64           `json:"id"`
	Type                string          `json:"type"`
	FirstName           string          `json:"first_name"`
	LastName            string          `json:"last_name"`
	Email               string          `json:"email"`
	Phone               string          `json:"phone"`
	Gender              string          `json:"gender"`
	AvatarURL           string          `json:"avatar_url"`
	Address             string          `json:"address"`
	City                string          `json:"city"`
	AddressState        string          `json:"address_state"`
	Zip                 string          `json:"zip"`
	Suspended           bool            `json:"suspended"`
	SuspendedAt         time.Time       `json:"suspended_at"`
	Rating              string          `json:"rating"`
	AgreedToTerms       bool            `json:"agreed_to_terms"`
	AgreedToTermsDate   time.Time       `json:"agreed_to_terms_date"`
	ExternalID          string          `json:"external_id"`
	OnboardingLastState string          `json:"onboarding_last_state"`
	W2EmployeeID        string          `json:"w2_employee_id"`
	W2OnboardingStatus  string          `json:"w2_onboarding_status"`
	DrugTested          json.RawMessage `json:"drug_tested"`
	VerifiedPhone       bool            `json:"verified_phone"`
	PhoneVerifiedAt     time.Time       `json:"phone_verified_at"`
	CustomerID          int64           `json:"customer_id"`
	Role                string          `json:"role"`
	Title               string          `json:"title"`
	SyncedWorkerID      int64           `json:"synced_worker_id"`
	UserBadges          json.RawMessage `json:"user_badges"`
	UpdatedAt           time.Time       `json:"updated_at"`
}

// benchServer serves one page of 50 Jobs at /api_v2/jobs, and a token.
func benchServer(b *testing.B) *httptest.Server {
	jobs := make([]string, 50)
	for i := range jobs {
		id := 1000 - i
		jobs[i] = fmt.Sprintf(benchJob, id, id, id)
	}
	page := []byte(`{"jobs": [` + strings.Join(jobs, ",\n") + `]}`)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api_v2/authenticate", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"token": %q, "expires_at": %q}`, testToken, time.Now().Add(24*time.Hour).UTC().Format(time.RFC3339))
	})
	mux.HandleFunc("GET /api_v2/jobs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(page)
	})
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkJobsList compares Jobs.List for one page of 50 Jobs with plain
// net/http and encoding/json decoding the same page into plain structs.
func BenchmarkJobsList(b *testing.B) {
	srv := benchServer(b)
	ctx := context.Background()

	b.Run("sdk", func(b *testing.B) {
		c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL))
		require.NoError(b, err)
		opts := &workforce.JobListOptions{ListOptions: workforce.ListOptions{Per: 50}}
		b.ReportAllocs()
		for b.Loop() {
			jobs, _, err := c.Jobs.List(ctx, opts)
			if err != nil || len(jobs) != 50 {
				b.Fatalf("got %d jobs, %v", len(jobs), err)
			}
		}
	})

	// The fair baseline: the whole body read, json.Unmarshal into plain
	// structs, the body drained and closed so the connection is reused.
	b.Run("nethttp", func(b *testing.B) {
		hc := &http.Client{}
		url := srv.URL + "/api_v2/jobs?per=50&token=" + testToken
		b.ReportAllocs()
		for b.Loop() {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				b.Fatal(err)
			}
			resp, err := hc.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			data, err := io.ReadAll(resp.Body)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err != nil {
				b.Fatal(err)
			}
			var page struct {
				Jobs []plainJob `json:"jobs"`
			}
			if err := json.Unmarshal(data, &page); err != nil || len(page.Jobs) != 50 {
				b.Fatalf("got %d jobs, %v", len(page.Jobs), err)
			}
		}
	})
}
