package workforcetest_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// TestCancelJob is the package documentation's example, verbatim.
func TestCancelJob(t *testing.T) {
	ctx := context.Background()
	srv := workforcetest.NewServer(t) // closed when the test ends
	c, err := srv.Client()            // an SDK client with the Private Pool keys
	require.NoError(t, err)
	seed := srv.Seed()

	job, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{
		WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID,
	})
	require.NoError(t, err)
	require.NoError(t, srv.StartJob(job.ID)) // the Worker checks in

	srv.InjectFault(workforcetest.Fault{Method: "PATCH", Path: fmt.Sprintf("/api_v2/jobs/%d", job.ID),
		Status: 503, RetryAfter: "1"}) // the first try fails, the SDK retries
	job, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelDecidedToCancel)
	require.NoError(t, err)
	state, _ := srv.JobState(job.ID)
	require.Equal(t, "cancelled", state)
}

// TestDocExampleIsCompiled checks that the package documentation shows
// TestCancelJob as it is here (blank lines and spacing aside).
func TestDocExampleIsCompiled(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	self, err := os.ReadFile("doc_test.go")
	require.NoError(t, err)
	var shown []string
	for _, line := range strings.Split(string(doc), "\n") {
		rest, ok := strings.CutPrefix(line, "//\t")
		switch {
		case ok && strings.HasPrefix(rest, "func TestCancelJob"), ok && len(shown) > 0:
			shown = append(shown, squeeze(rest))
		}
		if len(shown) > 0 && rest == "}" {
			break
		}
	}
	var here []string
	for _, line := range strings.Split(string(self), "\n") {
		if line = squeeze(line); line != "" {
			here = append(here, line)
		}
	}
	require.NotEmpty(t, shown)
	require.Contains(t, strings.Join(here, "\n"), strings.Join(shown, "\n"))
}

// squeeze trims a line and collapses its runs of spaces.
func squeeze(line string) string { return strings.Join(strings.Fields(line), " ") }
