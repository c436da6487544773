package workforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// A middleware sees each call once, whatever its retries, under a
// token-free URL; Endpoint names it in few distinct names, for a span or a
// metric. examples/otel does the same with OpenTelemetry's otelhttp.
func ExampleWithMiddleware() {
	srv, err := workforcetest.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	observe := func(next http.RoundTripper) http.RoundTripper {
		return rtFunc(func(req *http.Request) (*http.Response, error) {
			resp, err := next.RoundTrip(req)
			if err == nil {
				fmt.Println(workforce.Endpoint(req), resp.StatusCode, "token in the URL:", req.URL.Query().Has("token"))
			}
			return resp, err
		})
	}
	c, err := srv.Client(workforce.WithMiddleware(observe))
	if err != nil {
		log.Fatal(err)
	}
	seed := srv.Seed()
	srv.InjectFault(workforcetest.Fault{Method: "GET", Path: fmt.Sprintf("/api_v2/jobs/%d", seed.PublicJobID), Status: 503})

	if _, _, err := c.Jobs.Get(context.Background(), seed.PublicJobID); err != nil { // a 503, retried
		log.Fatal(err)
	}
	// Output: GET /jobs/:id 200 token in the URL: false
}

// A RawRequest carries headers of the caller's beside the client's own;
// those the client owns, and any credential, are refused before any I/O.
func ExampleRawRequest_header() {
	srv, c := startFake()
	defer srv.Close()
	ctx := context.Background()

	var job struct {
		ID int64 `json:"id"`
	}
	_, err := c.Do(ctx, &workforce.RawRequest{
		Method: "GET", Path: fmt.Sprintf("jobs/%d", srv.Seed().PublicJobID), Key: "job",
		Header: http.Header{"X-Correlation-Id": {"order-1138"}},
	}, &job)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(job.ID == srv.Seed().PublicJobID)

	_, err = c.Do(ctx, &workforce.RawRequest{Method: "GET", Path: "jobs", Header: http.Header{"Authorization": {"Bearer x"}}}, nil)
	fmt.Println(err)
	// Output:
	// true
	// workforce: Header["Authorization"] may not be set: it carries a credential: the client authenticates each call with its token
}

// Records print readably in every verb: the fields set, texts quoted and
// cut short, lists and nested records shortened, Raw as its size (print
// string(job.Raw) for its text); %#v prints Go syntax.
func ExampleJob_Format() {
	job := &workforce.Job{ID: 42, State: workforce.JobFilled, WorkerID: 7,
		Worker:      &workforce.User{ID: 7, Type: workforce.UserWorker, FirstName: "Ana", LastName: "Garcia"},
		Transitions: []workforce.Transition{{ID: 9, JobID: 42, Name: "filled"}},
		Raw:         json.RawMessage(`{"id": 42, "state": "filled", "worker": {"id": 7}}`),
	}
	fmt.Printf("%v\n", job)
	fmt.Printf("%d\n", job.Worker)
	// Output:
	// Job{ID:42 State:"filled" WorkerID:7 Worker:User{ID:7 Type:"Worker" FirstName:"Ana" …} Transitions:[Transition{ID:9 Name:"filled"}] Raw:<50 bytes of JSON>}
	// User{ID:7 Type:"Worker" FirstName:"Ana" LastName:"Garcia"}
}
