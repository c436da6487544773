package workforce_test

import (
	"context"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

const timesheetCSV = "job_id,actual_duration\n42,480\n43,0\n"

// readUpload reads a timesheet upload: the form field's name, its file
// name and content type, and the file.
func readUpload(t *testing.T, contentType string, body io.Reader) (field, filename, fileType, file string) {
	t.Helper()
	mediaType, params, err := mime.ParseMediaType(contentType)
	require.NoError(t, err)
	require.Equal(t, "multipart/form-data", mediaType)
	mr := multipart.NewReader(body, params["boundary"])
	part, err := mr.NextPart()
	require.NoError(t, err)
	b, err := io.ReadAll(part)
	require.NoError(t, err)
	_, err = mr.NextPart()
	require.ErrorIs(t, err, io.EOF, "one part only")
	return part.FormName(), part.FileName(), part.Header.Get("Content-Type"), string(b)
}

func TestCustomersImportTimesheetForm(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/customers/timesheet_import",
		got.respond(200, `{"imported": 1, "rejected": [{"row": 2, "error": "job 43 is not in progress"}], "batch": "b1"}`))

	out, _, err := c.Customers.ImportTimesheet(context.Background(), io.MultiReader(strings.NewReader(timesheetCSV)))
	require.NoError(t, err)
	assert.Equal(t, 1, out.Imported)
	assert.Equal(t, []workforce.TimesheetRejection{{Row: 2, Error: "job 43 is not in progress"}}, out.Rejected)
	assertKept(t, out.Raw, "batch", `"b1"`)

	assert.Equal(t, testToken, got.req.URL.Query().Get("token"))
	field, filename, fileType, file := readUpload(t, got.req.Header.Get("Content-Type"), strings.NewReader(string(got.body)))
	assert.Equal(t, "file", field)
	assert.Equal(t, "timesheet.csv", filename)
	assert.Equal(t, "text/csv", fileType)
	assert.Equal(t, timesheetCSV, file)
}

// uploadServer is a loopback API answering /authenticate with a new token
// each time and timesheet imports with handle, which is told the attempt
// (1 for the first) and the token sent.
func uploadServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, attempt int, token string)) (*workforce.Client, *atomic.Int64) {
	t.Helper()
	var auths, attempts atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api_v2/authenticate", func(w http.ResponseWriter, _ *http.Request) {
		n := auths.Add(1)
		fmt.Fprintf(w, `{"token": "tok_upload_%d", "expires_at": %q}`, n, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	})
	mux.HandleFunc("POST /api_v2/customers/timesheet_import", func(w http.ResponseWriter, r *http.Request) {
		handle(w, r, int(attempts.Add(1)), r.URL.Query().Get("token"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL),
		workforce.WithRetry(3, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	return c, &attempts
}

// csvRows is an endless CSV timesheet, made as it is read without
// allocating, so that the heap measures the client alone.
type csvRows struct {
	row     int
	pending []byte
	buf     [64]byte
}

func (c *csvRows) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(c.pending) == 0 {
			if c.row == 0 {
				c.pending = append(c.buf[:0], "job_id,actual_duration\n"...)
			} else {
				b := strconv.AppendInt(c.buf[:0], int64(c.row), 10)
				b = strconv.AppendInt(append(b, ','), int64(c.row%600), 10)
				c.pending = append(b, '\n')
			}
			c.row++
		}
		k := copy(p[n:], c.pending)
		c.pending, n = c.pending[k:], n+k
	}
	return n, nil
}

// TestCustomersImportTimesheetStreams uploads a 10 MiB timesheet made as
// it is read and checks that the heap never grows by more than a fraction
// of it. It does not run in parallel, so that no other test moves the heap.
func TestCustomersImportTimesheetStreams(t *testing.T) {
	const size = 10 << 20
	var peak atomic.Uint64
	var received atomic.Int64
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		for old := peak.Load(); ms.HeapAlloc > old && !peak.CompareAndSwap(old, ms.HeapAlloc); old = peak.Load() {
		}
	}
	c, _ := uploadServer(t, func(w http.ResponseWriter, r *http.Request, _ int, _ string) {
		_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		part, err := multipart.NewReader(r.Body, params["boundary"]).NextPart()
		if err != nil || part.FormName() != "file" {
			http.Error(w, "no file", http.StatusUnprocessableEntity)
			return
		}
		buf := make([]byte, 32<<10)
		for i := 0; ; i++ {
			n, err := part.Read(buf)
			received.Add(int64(n))
			if i%16 == 0 {
				sample()
			}
			if err != nil {
				break
			}
		}
		fmt.Fprint(w, `{"imported": 0, "rejected": []}`)
	})
	// Warm up the client (token, connection) so that the baseline holds them.
	_, _, err := c.Customers.ImportTimesheet(context.Background(), strings.NewReader(timesheetCSV))
	require.NoError(t, err)

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	peak.Store(base)
	received.Store(0)
	_, _, err = c.Customers.ImportTimesheet(context.Background(), io.LimitReader(&csvRows{}, size))
	require.NoError(t, err)
	assert.Equal(t, int64(size), received.Load(), "the whole file arrived")
	growth := peak.Load() - base
	t.Logf("heap grew by at most %d KiB while %d KiB were streamed", growth>>10, size>>10)
	assert.Less(t, growth, uint64(size/8), "the file must be streamed, not held in memory")
}

func TestCustomersImportTimesheetUnseekableIsSentOnce(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusTooManyRequests, http.StatusUnauthorized} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			t.Parallel()
			c, attempts := uploadServer(t, func(w http.ResponseWriter, r *http.Request, _ int, _ string) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(status)
				fmt.Fprint(w, `{"error": "try again"}`)
			})
			pipe := io.MultiReader(strings.NewReader(timesheetCSV)) // reads, cannot seek
			out, resp, err := c.Customers.ImportTimesheet(context.Background(), pipe)
			assert.Nil(t, out)
			require.Error(t, err)
			assert.ErrorIs(t, err, workforce.ErrNotResent)
			var apiErr *workforce.APIError
			require.ErrorAs(t, err, &apiErr, "the API's answer stays reachable")
			assert.Equal(t, status, apiErr.StatusCode)
			assert.Equal(t, status, resp.StatusCode)
			assert.Contains(t, err.Error(), "cannot be rewound")
			assert.Equal(t, int64(1), attempts.Load(), "sent once, never again")
		})
	}
}

func TestCustomersImportTimesheetSeekableIsRewound(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusTooManyRequests, http.StatusUnauthorized} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var files, tokens []string
			c, attempts := uploadServer(t, func(w http.ResponseWriter, r *http.Request, attempt int, token string) {
				_, _, _, file := readUpload(t, r.Header.Get("Content-Type"), r.Body)
				mu.Lock()
				files, tokens = append(files, file), append(tokens, token)
				mu.Unlock()
				if attempt == 1 {
					w.Header().Set("Retry-After", "0")
					w.WriteHeader(status)
					return
				}
				fmt.Fprint(w, `{"imported": 2, "rejected": []}`)
			})
			src := strings.NewReader("skip me\n" + timesheetCSV)
			_, err := src.Seek(int64(len("skip me\n")), io.SeekStart) // the file starts here
			require.NoError(t, err)
			out, _, err := c.Customers.ImportTimesheet(context.Background(), src)
			require.NoError(t, err)
			assert.Equal(t, 2, out.Imported)
			assert.Equal(t, int64(2), attempts.Load())
			assert.Equal(t, []string{timesheetCSV, timesheetCSV}, files, "rewound to where it started and sent whole")
			if status == http.StatusUnauthorized {
				assert.Equal(t, []string{"tok_upload_1", "tok_upload_2"}, tokens, "replayed with a renewed token")
			}
		})
	}
}

func TestCustomersImportTimesheetDialFailure(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		src      io.Reader
		attempts int
	}{
		"unseekable": {io.MultiReader(strings.NewReader(timesheetCSV)), 1},
		"seekable":   {strings.NewReader(timesheetCSV), 4},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			route := http.MethodPost + " " + mockBase + "/api_v2/customers/timesheet_import"
			m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/customers/timesheet_import",
				httpmock.NewErrorResponder(&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}))
			_, _, err := c.Customers.ImportTimesheet(context.Background(), tc.src)
			var transportErr *workforce.TransportError
			assert.ErrorAs(t, err, &transportErr)
			assert.Equal(t, tc.attempts, m.GetCallCountInfo()[route])
		})
	}
}

// panicky is a reader that panics, as a buggy caller's might.
type panicky struct{}

func (panicky) Read([]byte) (int, error) { panic("boom") }

func TestCustomersImportTimesheetReaderFailures(t *testing.T) {
	t.Parallel()
	c, _ := uploadServer(t, func(w http.ResponseWriter, r *http.Request, _ int, _ string) {
		_, _ = io.Copy(io.Discard, r.Body)
		fmt.Fprint(w, `{"imported": 0, "rejected": []}`)
	})
	_, _, err := c.Customers.ImportTimesheet(context.Background(), panicky{})
	require.Error(t, err, "a panicking reader fails the call, not the program")
	assert.Contains(t, err.Error(), "panicked")

	_, _, err = c.Customers.ImportTimesheet(context.Background(), io.MultiReader(strings.NewReader("job_id"), iotestErr{}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "disk on fire")
}

// iotestErr fails every read.
type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, fmt.Errorf("disk on fire") }

func TestCustomersImportTimesheetTokenFetchIsStillRetried(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var auths atomic.Int64
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", func(*http.Request) (*http.Response, error) {
		if auths.Add(1) == 1 {
			return httpmock.NewStringResponse(http.StatusServiceUnavailable, `{"error": "busy"}`), nil
		}
		return httpmock.NewStringResponse(200, `{"token": "`+testToken+`", "expires_at": "2099-01-01T00:00:00Z"}`), nil
	})
	var got capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/customers/timesheet_import", got.respond(200, `{"imported": 2, "rejected": []}`))

	out, _, err := c.Customers.ImportTimesheet(context.Background(), io.MultiReader(strings.NewReader(timesheetCSV)))
	require.NoError(t, err, "the token fetch made for an upload sent once is retried as any other")
	assert.Equal(t, 2, out.Imported)
	assert.Equal(t, int64(2), auths.Load())
	_, _, _, file := readUpload(t, got.req.Header.Get("Content-Type"), strings.NewReader(string(got.body)))
	assert.Equal(t, timesheetCSV, file)
}

func TestImportTimesheetAppliesTheRowsItCan(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	started, err := srv.AcceptJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	require.NoError(t, srv.StartJob(started))
	filled, err := srv.AcceptJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[2])
	require.NoError(t, err)

	csv := fmt.Sprintf("name,job_id,actual_duration\nBen,%d,95\nChloe,%d,60\nNobody,99999,30\nBen,%d,-5\nBen,%d,1.5\n",
		started, filled, started, started)
	out, _, err := c.Customers.ImportTimesheet(ctx, strings.NewReader(csv))
	require.NoError(t, err)
	assert.Equal(t, 1, out.Imported)
	require.Len(t, out.Rejected, 4)
	assert.Equal(t, []int{2, 3, 4, 5}, []int{out.Rejected[0].Row, out.Rejected[1].Row, out.Rejected[2].Row, out.Rejected[3].Row})
	for _, r := range out.Rejected {
		assert.NotEmpty(t, r.Error, "row %d says why", r.Row)
	}
	assert.Contains(t, out.Rejected[0].Error, "filled")
	assert.Contains(t, out.Rejected[1].Error, "99999")
	assert.Contains(t, string(out.Raw), `"imported":1`)

	job, _, err := c.Jobs.Get(ctx, started)
	require.NoError(t, err)
	assert.Equal(t, "95", job.ActualDuration.String(), "the applied row")
	job, _, err = c.Jobs.Get(ctx, filled)
	require.NoError(t, err)
	assert.False(t, job.ActualDuration.Valid(), "a rejected row changes nothing")

	// 422: not CSV, or without the two columns.
	_, _, err = c.Customers.ImportTimesheet(ctx, strings.NewReader("\x00\x01\x02 not a csv"))
	assert.Contains(t, fieldErrors(t, err), "file")
	_, _, err = c.Customers.ImportTimesheet(ctx, strings.NewReader("job_id,minutes\n1,2\n"))
	assert.Contains(t, fieldErrors(t, err), "file")
	_, _, err = c.Customers.ImportTimesheet(ctx, strings.NewReader(""))
	assert.Contains(t, fieldErrors(t, err), "file")

	// 401
	_, _, err = tokenOnly(t, srv).Customers.ImportTimesheet(ctx, strings.NewReader(csv))
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
}

func TestImportTimesheetOfAPublicPoolKeyAppliesOnlyItsJobs(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()
	pub, err := srv.PublicClient()
	require.NoError(t, err)

	private, err := srv.AcceptJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	require.NoError(t, srv.StartJob(private))
	require.NoError(t, srv.StartJob(seed.PublicJobID))

	out, _, err := pub.Customers.ImportTimesheet(ctx, strings.NewReader(fmt.Sprintf("job_id,actual_duration\n%d,30\n%d,45\n", private, seed.PublicJobID)))
	require.NoError(t, err)
	assert.Equal(t, 1, out.Imported, "its own Job")
	require.Len(t, out.Rejected, 1)
	assert.Equal(t, 1, out.Rejected[0].Row, "a Job that is not the key's")

	job, _, err := pub.Jobs.Get(ctx, seed.PublicJobID)
	require.NoError(t, err)
	assert.Equal(t, "45", job.ActualDuration.String())
	job, _, err = c.Jobs.Get(ctx, private)
	require.NoError(t, err)
	assert.False(t, job.ActualDuration.Valid(), "the rejected row changed nothing")
}
