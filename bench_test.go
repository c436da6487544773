package workforce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// benchJob is one Job as the API writes it, with the embedded Users and two
// transitions; %d is its id. bench_sync_test.go serves it.
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

// plainJob is what a careful hand-written client decodes a Job into: every
// field workforce.Job decodes, in the plain type closest to the SDK's that
// takes the forms the API sends (CONTRACT §10). Timestamps are time.Time
// (null leaves them zero). Decimals are json.Number, which takes the API's
// numbers and numeric strings alike (a string field would refuse 450, a
// float64 "18.5"); null leaves one "". w2_hourly_rate is "" on a 1099 Job
// and a number on a W2 Job, which no plain type but any takes. Strings the
// API may send as null are plain strings, which null leaves "". It keeps no
// document of its own: that is the SDK's Raw, and part of what the
// comparison charges the SDK for.
type plainJob struct {
	ID             int64             `json:"id"`
	State          string            `json:"state"`
	JobRequestID   int64             `json:"job_request_id"`
	WorkerID       int64             `json:"worker_id"`
	EmployerID     int64             `json:"employer_id"`
	CreatedAt      time.Time         `json:"created_at"`
	UpdatedAt      time.Time         `json:"updated_at"`
	ConfirmedAt    time.Time         `json:"confirmed_at"`
	StartedAt      time.Time         `json:"started_at"`
	CompletedAt    time.Time         `json:"completed_at"`
	FinishedAt     time.Time         `json:"finished_at"`
	HoursWorked    json.Number       `json:"hours_worked"`
	ActualDuration json.Number       `json:"actual_duration"`
	TimeToStart    json.Number       `json:"time_to_start"`
	AdjustedWage   json.Number       `json:"adjusted_wage"`
	RequestorNotes string            `json:"requestor_notes"`
	Classification string            `json:"classification"`
	W2HourlyRate   any               `json:"w2_hourly_rate"`
	W2PaymentRef   string            `json:"w2_payment_ref"`
	W2PayStatus    string            `json:"w2_pay_status"`
	Cancelled      string            `json:"cancelled_reason"`
	Worker         *plainUser        `json:"worker"`
	Employer       *plainUser        `json:"employer"`
	Transitions    []plainTransition `json:"transitions"`
}

type plainTransition struct {
	ID        int64       `json:"id"`
	JobID     int64       `json:"job_id"`
	Name      string      `json:"name"`
	CreatedAt time.Time   `json:"created_at"`
	Latitude  json.Number `json:"latitude"`
	Longitude json.Number `json:"longitude"`
}

// plainUser holds every field workforce.User decodes.
type plainUser struct {
	ID                  int64            `json:"id"`
	Type                string           `json:"type"`
	FirstName           string           `json:"first_name"`
	LastName            string           `json:"last_name"`
	Email               string           `json:"email"`
	Phone               string           `json:"phone"`
	Gender              string           `json:"gender"`
	AvatarURL           string           `json:"avatar_url"`
	Address             string           `json:"address"`
	City                string           `json:"city"`
	AddressState        string           `json:"address_state"`
	Zip                 string           `json:"zip"`
	Suspended           bool             `json:"suspended"`
	SuspendedAt         time.Time        `json:"suspended_at"`
	Rating              json.Number      `json:"rating"`
	AgreedToTerms       bool             `json:"agreed_to_terms"`
	AgreedToTermsDate   time.Time        `json:"agreed_to_terms_date"`
	ExternalID          string           `json:"external_id"`
	OnboardingLastState string           `json:"onboarding_last_state"`
	W2EmployeeID        string           `json:"w2_employee_id"`
	W2OnboardingStatus  string           `json:"w2_onboarding_status"`
	W2OnboardingStarted bool             `json:"w2_onboarding_started"`
	DrugTested          bool             `json:"drug_tested"`
	VerifiedPhone       bool             `json:"verified_phone"`
	PhoneVerifiedAt     time.Time        `json:"phone_verified_at"`
	CustomerID          int64            `json:"customer_id"`
	Role                string           `json:"role"`
	Title               string           `json:"title"`
	SyncedWorkerID      int64            `json:"synced_worker_id"`
	Latitude            json.Number      `json:"latitude"`
	Longitude           json.Number      `json:"longitude"`
	DOB                 string           `json:"dob"`
	SSN                 string           `json:"ssn"`
	BusinessName        string           `json:"business_name"`
	LogoURL             string           `json:"logo_url"`
	WorkplaceImageURL   string           `json:"workplace_image_url"`
	UserBadges          []plainUserBadge `json:"user_badges"`
	UpdatedAt           time.Time        `json:"updated_at"`
}

// plainUserBadge holds every field workforce.UserBadge decodes.
type plainUserBadge struct {
	ID        int64     `json:"id"`
	UserID    int64     `json:"user_id"`
	BadgeID   int64     `json:"badge_id"`
	ExpiresAt time.Time `json:"expires_at"`
	Suspended bool      `json:"suspended"`
	Category  string    `json:"category"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// pageCapture is a transport that keeps the body of the last answer to a list
// of Jobs.
type pageCapture struct{ body []byte }

func (c *pageCapture) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || !strings.HasSuffix(r.URL.Path, "/jobs") {
		return resp, err
	}
	defer resp.Body.Close()
	if c.body, err = io.ReadAll(resp.Body); err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(c.body))
	return resp, nil
}

// fakeJobsPage returns the first page of 50 Jobs as workforcetest renders
// it, from a store seeded with SeedJobs: completed, cancelled and no-show
// Jobs with their embedded Worker and Employer and their transitions.
func fakeJobsPage(tb testing.TB) []byte {
	srv := workforcetest.NewServer(tb)
	srv.SeedJobs(1000)
	rt := &pageCapture{}
	c, err := srv.Client(workforce.WithHTTPClient(&http.Client{Transport: rt}))
	require.NoError(tb, err)
	jobs, _, err := c.Jobs.List(context.Background(), &workforce.JobListOptions{ListOptions: workforce.ListOptions{Per: 50}})
	require.NoError(tb, err)
	require.Len(tb, jobs, 50)
	return rt.body
}

// benchServer serves page, as it is, at /api_v2/jobs, and a token. Both
// sides of a comparison talk to it, so the server's cost is the same for
// both and small. It announces the page's length, as API servers do for a
// JSON answer they render whole (net/http itself only does for answers
// under 4 KB).
func benchServer(tb testing.TB, page []byte) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api_v2/authenticate", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"token": %q, "expires_at": %q}`, testToken, time.Now().Add(24*time.Hour).UTC().Format(time.RFC3339))
	})
	mux.HandleFunc("GET /api_v2/jobs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		_, _ = w.Write(page)
	})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv
}

// plainList is the baseline: a careful hand-written client's GET of one
// page, reading the whole body, draining and closing it, and decoding it
// with encoding/json into plain structs.
func plainList(ctx context.Context, hc *http.Client, url string) ([]plainJob, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, resp.Body) // drained, so the connection is reused
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	var page struct {
		Jobs []plainJob `json:"jobs"`
	}
	if err := json.Unmarshal(data, &page); err != nil {
		return nil, err
	}
	return page.Jobs, nil
}

// BenchmarkJobsList compares Jobs.List for one page of 50 Jobs, as the fake
// renders it, with the fair baseline plainList decoding the same page from
// the same server.
func BenchmarkJobsList(b *testing.B) {
	srv := benchServer(b, fakeJobsPage(b))
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

	b.Run("baseline", func(b *testing.B) {
		hc := &http.Client{}
		url := srv.URL + "/api_v2/jobs?per=50&token=" + testToken
		b.ReportAllocs()
		for b.Loop() {
			jobs, err := plainList(ctx, hc, url)
			if err != nil || len(jobs) != 50 {
				b.Fatalf("got %d jobs, %v", len(jobs), err)
			}
		}
	})
}

// TestBaselineDecodesThePage keeps the baseline honest: it decodes every
// Job of the benchmark's page to the same values as the SDK.
func TestBaselineDecodesThePage(t *testing.T) {
	t.Parallel()
	srv := benchServer(t, fakeJobsPage(t))
	plain, err := plainList(context.Background(), &http.Client{}, srv.URL+"/api_v2/jobs?per=50&token="+testToken)
	require.NoError(t, err)
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL))
	require.NoError(t, err)
	jobs, _, err := c.Jobs.List(context.Background(), &workforce.JobListOptions{ListOptions: workforce.ListOptions{Per: 50}})
	require.NoError(t, err)
	require.Len(t, plain, len(jobs))
	for i, j := range jobs {
		p := plain[i]
		require.Equal(t, j.ID, p.ID)
		require.Equal(t, string(j.State), p.State)
		require.True(t, j.UpdatedAt.Equal(p.UpdatedAt) && j.FinishedAt.Equal(p.FinishedAt) && j.CreatedAt.Equal(p.CreatedAt))
		require.Equal(t, j.AdjustedWage.String(), p.AdjustedWage.String())
		require.Equal(t, j.HoursWorked.String(), p.HoursWorked.String())
		require.Equal(t, j.Worker.Email, p.Worker.Email)
		require.Equal(t, j.Worker.Rating.String(), p.Worker.Rating.String())
		require.True(t, j.Employer.AgreedToTermsDate.Equal(p.Employer.AgreedToTermsDate))
		require.Len(t, p.Transitions, len(j.Transitions))
		for k, tr := range j.Transitions {
			require.True(t, tr.CreatedAt.Equal(p.Transitions[k].CreatedAt))
			require.Equal(t, tr.Latitude.String(), p.Transitions[k].Latitude.String())
		}
	}
}

// BenchmarkConcurrentGet runs 32 concurrent Jobs.Get on one Client over
// loopback, beside plain net/http (ReadAll, json.Unmarshal into plain
// structs, body drained and closed) with a pool of the same size:
//
//	go test -run '^$' -bench BenchmarkConcurrentGet .
func BenchmarkConcurrentGet(b *testing.B) {
	const callers = 32
	body := []byte(`{"job": ` + fmt.Sprintf(benchJob, 42, 42, 42) + `}`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api_v2/authenticate" {
			fmt.Fprintf(w, `{"token": "tok-1", "expires_at": %q}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	parallel := func(b *testing.B, get func() error) {
		var next atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, callers)
		b.ResetTimer()
		for range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= int64(b.N) {
					if err := get(); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
	}
	b.Run("sdk", func(b *testing.B) {
		c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		parallel(b, func() error {
			_, _, err := c.Jobs.Get(context.Background(), 42)
			return err
		})
	})
	b.Run("net-http", func(b *testing.B) {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 64, 64
		hc := &http.Client{Transport: tr}
		b.Cleanup(tr.CloseIdleConnections)
		b.ReportAllocs()
		parallel(b, func() error {
			req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL+"/api_v2/jobs/42?token=tok-1", nil)
			if err != nil {
				return err
			}
			resp, err := hc.Do(req)
			if err != nil {
				return err
			}
			data, err := io.ReadAll(resp.Body)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err != nil {
				return err
			}
			var out struct {
				Job plainJob `json:"job"`
			}
			return json.Unmarshal(data, &out)
		})
	})
}
