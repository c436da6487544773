package workforcetest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// The forms a JSON value takes, for comparing the fake's answers with the
// captured page: its JSON kind, and for text its style.
var (
	localStyle = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-0[78]:00$`)
	utcStyle   = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	dateStyle  = regexp.MustCompile(`^\d{4}-\d\d-\d\d$`)
	decimal    = regexp.MustCompile(`^-?\d+(\.\d+)?$`)
)

// form names the form of v, decoded with UseNumber.
func form(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case string:
		switch {
		case v == "":
			return `""`
		case localStyle.MatchString(v):
			return "Pacific time with milliseconds"
		case utcStyle.MatchString(v):
			return "UTC to the second"
		case dateStyle.MatchString(v):
			return "date"
		case decimal.MatchString(v):
			return "decimal text"
		}
		return "text"
	}
	return "?"
}

// shape is what a set of JSON objects shows at one level: each key, with
// the forms its values take; the objects and arrays below are shapes too.
type shape struct {
	keys  map[string]map[string]bool
	below map[string]*shape // an object's members, an array's elements, by key
}

func newShape() *shape {
	return &shape{keys: map[string]map[string]bool{}, below: map[string]*shape{}}
}

// add records the keys and forms of the object o, and of what is below it.
func (s *shape) add(o map[string]any) {
	for k, v := range o {
		if s.keys[k] == nil {
			s.keys[k] = map[string]bool{}
		}
		s.keys[k][form(v)] = true
		var objects []map[string]any
		switch v := v.(type) {
		case map[string]any:
			objects = append(objects, v)
		case []any:
			for _, e := range v {
				if e, ok := e.(map[string]any); ok {
					objects = append(objects, e)
				}
			}
		}
		for _, e := range objects {
			if s.below[k] == nil {
				s.below[k] = newShape()
			}
			s.below[k].add(e)
		}
	}
}

// keyList lists the keys of s.
func (s *shape) keyList() []string {
	out := make([]string, 0, len(s.keys))
	for k := range s.keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// decodeJobs reads the jobs of a page, numbers as written.
func decodeJobs(t *testing.T, page []byte) []map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(page))
	dec.UseNumber()
	var doc struct{ Jobs []map[string]any }
	require.NoError(t, dec.Decode(&doc))
	return doc.Jobs
}

// fakeJobsPages returns every Job of a fake holding the kinds of Jobs the
// captured page holds, as GET /api_v2/jobs writes them: SeedJobs' completed,
// approved, cancelled and no-show Jobs, and a W2 Job worked on site and
// paid, a withdrawn and refilled one, an in-progress one, a filled one of a
// Worker holding a Badge, in November and in July, on either side of the
// change of offset.
func fakeJobsPages(t *testing.T, start time.Time) []map[string]any {
	f := newFake(t, workforcetest.WithClock(start))
	seed := f.Seed()
	f.SeedJobs(120)
	w2 := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequestW2ID))
	require.NoError(t, f.StartJob(w2))
	f.Advance(8 * time.Hour)
	require.NoError(t, f.CompleteJob(w2))
	require.NoError(t, f.ApproveJob(w2))
	require.NoError(t, f.PayW2Job(w2, "ADP-000042"))
	withdrawn := idOf(f.createJob(seed.WorkerIDs[3], seed.JobRequest1099ID))
	require.NoError(t, f.WithdrawJob(withdrawn))
	_, err := f.AcceptJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[3])
	require.NoError(t, err)
	f.createJob(seed.WorkerIDs[2], seed.BadgeJobRequestID)
	started := idOf(f.createJob(seed.WorkerIDs[5], seed.JobRequest1099ID))
	require.NoError(t, f.StartJob(started))

	var jobs []map[string]any
	for page := 1; ; page++ {
		resp := f.send(http.MethodGet, "/api_v2/jobs", url.Values{"per": {"50"}, "page": {strconv.Itoa(page)}, "token": {f.private}}, "", nil)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		got := decodeJobs(t, body)
		jobs = append(jobs, got...)
		if len(got) < 50 {
			return jobs
		}
	}
}

// The fake's Jobs have the keys of the real page's (testdata/realworld, a
// copy of the shared real captures), every one (and the seed's worker_id and
// cancelled_reason besides), at every level, and each value in a form the
// real page shows for its key, or for a key null in all 50 Jobs the form
// CONTRACT §10.1 gives from the real client's schemas: the fake and the SDK
// are held to the capture each on its own, so they cannot agree by mistake.
func TestFakeAnswersLikeTheCapture(t *testing.T) {
	t.Parallel()
	capture := realJobs(t)
	for _, start := range []time.Time{
		time.Date(2026, 11, 22, 18, 34, 36, 820e6, time.UTC), // standard time
		time.Date(2026, 7, 14, 16, 5, 12, 301e6, time.UTC),   // daylight time
	} {
		fake := newShape()
		for _, j := range fakeJobsPages(t, start) {
			fake.add(j)
		}
		compareShapes(t, "job", capture, fake, "worker_id", "cancelled_reason")
	}
}

// nullable tells whether a key of these forms may also be null: one of
// text in some style (the API writes an absent text as null), unlike a
// boolean, a number, a list or "" ("" is how the API writes an absent one).
func nullable(forms map[string]bool) bool {
	for _, f := range []string{"text", "decimal text", "date", "Pacific time with milliseconds", "UTC to the second"} {
		if forms[f] {
			return true
		}
	}
	return false
}

// compareShapes checks that fake has exactly the keys of capture (and
// extra, at the top), and for each key only forms capture shows.
func compareShapes(t *testing.T, path string, capture, fake *shape, extra ...string) {
	t.Helper()
	want := append(capture.keyList(), extra...)
	sort.Strings(want)
	assert.Equal(t, want, fake.keyList(), "%s: the keys", path)
	for k, forms := range fake.keys {
		if slices.Contains(extra, k) {
			continue
		}
		for f := range forms {
			if f == "null" && nullable(capture.keys[k]) {
				continue // an absent value is null: the capture's 50 Jobs just had this one
			}
			assert.True(t, capture.keys[k][f], "%s.%s: the fake writes %s, the capture only %v", path, k, f, capture.keys[k])
		}
	}
	for k, below := range capture.below {
		if fake.below[k] == nil {
			if !assert.Equal(t, map[string]bool{"array": true}, fake.keys[k], "%s.%s: the fake writes no object there", path, k) {
				continue
			}
			t.Logf("%s.%s: every array the fake wrote is empty", path, k)
			continue
		}
		compareShapes(t, path+"."+k, below, fake.below[k])
	}
}
