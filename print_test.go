package workforce_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// byteDump finds a byte slice printed as numbers, as fmt prints a []byte
// inside a struct: [123 34 105 100 ...].
var byteDump = regexp.MustCompile(`\[(\d{1,3} ){8,}`)

// printVerbs are the verbs a user prints a record with.
var printVerbs = []string{"%v", "%+v", "%#v", "%s", "%d", "%x", "%q"}

// assertPrintsReadably prints v in every verb and checks each output: under
// a thousand characters, no bytes as numbers, the record's type first.
func assertPrintsReadably(t *testing.T, name string, v any) {
	t.Helper()
	for _, verb := range printVerbs {
		out := fmt.Sprintf(verb, v)
		assert.Less(t, len(out), 1000, "%s printed with %s: %s", name, verb, out)
		assert.NotRegexp(t, byteDump, out, "%s printed with %s", name, verb)
		assert.NotContains(t, out, "0xc", "%s printed with %s shows a pointer", name, verb)
		typeName := strings.TrimPrefix(strings.TrimPrefix(fmt.Sprintf("%T", v), "*"), "workforce.")
		if verb == "%#v" {
			assert.True(t, strings.HasPrefix(out, "workforce."+typeName+"{"), "%s printed with %s: %s", name, verb, out)
		} else {
			assert.True(t, strings.HasPrefix(out, typeName+"{"), "%s printed with %s: %s", name, verb, out)
		}
	}
}

// The records of every kind the fake answers with, as a user gets them.
func TestRecordsPrintReadablyInEveryVerb(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, c := newFake(t)
	seed := srv.Seed()
	created, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID,
		RequestorNotes: strings.Repeat("Bring boots and a hard hat. ", 20)})
	require.NoError(t, err)
	require.NoError(t, srv.StartJobAt(created.ID, workforcetest.Position{Latitude: 34.05, Longitude: -118.25}))
	job, _, err := c.Jobs.Get(ctx, created.ID)
	require.NoError(t, err)
	require.NotNil(t, job.Worker)
	require.NotEmpty(t, job.Transitions)
	jr, _, err := c.JobRequests.Get(ctx, seed.JobRequest1099ID)
	require.NoError(t, err)
	rankings, _, err := c.JobRequests.Rankings(ctx, seed.PublicJobRequestID)
	require.NoError(t, err)
	require.NotEmpty(t, rankings)
	series, _, err := c.MultiDayJobRequests.Get(ctx, seed.MultiDayJobRequestID)
	require.NoError(t, err)
	badges, _, err := c.Badges.List(ctx, nil)
	require.NoError(t, err)
	customer, _, err := c.Customers.Get(ctx, seed.CustomerID)
	require.NoError(t, err)
	user, _, err := c.Users.Get(ctx, seed.WorkerIDs[1])
	require.NoError(t, err)
	points, _, err := c.Users.Tracking(ctx, seed.WorkerIDs[1])
	require.NoError(t, err)
	require.NotEmpty(t, points)
	message, _, err := c.Messages.Create(ctx, &workforce.MessageCreate{Body: "Gate B at 7, please.", JobID: job.ID,
		SenderID: seed.EmployerID, ReceiverID: seed.WorkerIDs[1]})
	require.NoError(t, err)
	found, _, err := c.Search.Query(ctx, "a")
	require.NoError(t, err)
	info, _, err := c.Info.Get(ctx)
	require.NoError(t, err)
	imported, _, err := c.Customers.ImportTimesheet(ctx, strings.NewReader(fmt.Sprintf("job_id,actual_duration\n%d,95\n99999,30\n", job.ID)))
	require.NoError(t, err)

	records := map[string]any{
		"Job": job, "Transition": job.Transitions[0], "JobRequest": jr, "Ranking": rankings[0],
		"MultiDayJobRequest": series, "Badge": badges[0], "Customer": customer, "User": user, "TrackingPoint": points[0],
		"Message": message, "SearchResult": found, "Info": info, "TimesheetImport": imported,
		"TimesheetRejection": imported.Rejected[0], "Job, a value": *job,
	}
	for name, v := range records {
		assertPrintsReadably(t, name, v)
	}
	out := fmt.Sprint(job)
	assert.Contains(t, out, fmt.Sprintf("Job{ID:%d State:%q", job.ID, job.State))
	assert.Contains(t, out, fmt.Sprintf("Raw:<%d bytes of JSON>", len(job.Raw)))
	assert.Contains(t, out, fmt.Sprintf("Worker:User{ID:%d", job.Worker.ID))
	assert.Contains(t, out, `RequestorNotes:"Bring boots`)
	assert.Contains(t, out, "…(560 bytes)", "a long text is cut, and says how long it was")
	assert.NotContains(t, out, "JobID:", "a Transition leaves out its Job's ID")
	assert.Contains(t, fmt.Sprintf("%#v", job), "Worker:&User{")
	assert.Equal(t, "<nil>", fmt.Sprint((*workforce.Job)(nil)))
}

// Every Job of a page in the live API's captured shapes (embedded Users,
// four transitions, W2 fields) prints in under a thousand characters.
func TestCapturedJobsPrintUnderAThousandCharacters(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile("testdata/jobs_page_2017.json")
	require.NoError(t, err)
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewBytesResponder(200, page))
	jobs, _, err := c.Jobs.List(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, jobs, 50)
	for _, job := range jobs {
		assertPrintsReadably(t, fmt.Sprint("Job ", job.ID), job)
	}
}
