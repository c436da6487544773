package workforcetest_test

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// Start runs a fake outside a test, here read with plain net/http.
func ExampleStart() {
	srv, err := workforcetest.Start()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/api_v2/info")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var info struct {
		Environment string `json:"environment"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.StatusCode, info.Environment)
	// Output: 200 test
}

// Outside moves drive a Job through its states as Workers and requestors would.
func ExampleServer_Accept() {
	srv, err := workforcetest.Start()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	seed := srv.Seed()

	jobID, err := srv.AcceptJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[1])
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, move := range []func(int64) error{srv.StartJob, srv.CompleteJob, srv.ApproveJob} {
		if err := move(jobID); err != nil {
			fmt.Println(err)
			return
		}
	}
	state, _ := srv.JobState(jobID)
	fmt.Println(state)
	fmt.Println(srv.PauseJob(jobID))
	// Output:
	// approved
	// workforcetest: pause: job 1002: state cannot change from approved to paused
}
