package workforce_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// A Job as the API writes it: the Worker's and Employer's IDs only inside
// their objects, the Worker's badges without the Worker's ID.
const singleJob = `{"id":3,"state":"filled","worker":{"id":7,"user_badges":[{"id":1,"badge_id":2}]},"employer":{"id":9}}`

// The same Job with a value that fits no form, so that it is decoded
// leniently.
const singleJobLenient = `{"id":3,"state":"filled","hours_worked":{},"worker":{"id":7,"user_badges":[{"id":1,"badge_id":2}]},"employer":{"id":9}}`

// checkJob tells whether j is singleJob as the client decodes it.
func checkJob(t *testing.T, doc string, j *workforce.Job) {
	t.Helper()
	require.NotNil(t, j)
	assert.EqualValues(t, 3, j.ID)
	assert.EqualValues(t, 7, j.WorkerID, "WorkerID from worker.id")
	assert.EqualValues(t, 9, j.EmployerID, "EmployerID from employer.id")
	require.NotNil(t, j.Worker)
	require.Len(t, j.Worker.UserBadges, 1)
	assert.EqualValues(t, 7, j.Worker.UserBadges[0].UserID, "UserBadge.UserID from the Worker's id")
	assert.JSONEq(t, doc, string(j.Raw))
}

// Decode fills what client calls fill, in every form of v, bare or in the
// API's envelope, on the fast path and the lenient one (S1, C2).
func TestDecodeSingleResourceFinishes(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{singleJob, singleJobLenient} {
		for _, data := range []string{doc, `{"job":` + doc + `}`, " \n" + `{"job": ` + doc + "}\n"} {
			var j workforce.Job
			_, err := workforce.Decode([]byte(data), &j)
			require.NoError(t, err, data)
			checkJob(t, doc, &j)

			var pj *workforce.Job
			_, err = workforce.Decode([]byte(data), &pj)
			require.NoError(t, err, data)
			checkJob(t, doc, pj)
		}
		for _, data := range []string{"[" + doc + "]", `{"jobs":[` + doc + `]}`} {
			var js []workforce.Job
			_, err := workforce.Decode([]byte(data), &js)
			require.NoError(t, err, data)
			require.Len(t, js, 1)
			checkJob(t, doc, &js[0])

			var pjs []*workforce.Job
			_, err = workforce.Decode([]byte(data), &pjs)
			require.NoError(t, err, data)
			require.Len(t, pjs, 1)
			checkJob(t, doc, pjs[0])
		}
	}

	for _, doc := range []string{
		`{"id":4,"state":"posted","company_id":11,"badge_requirements":[{"id":1,"badge_id":2}]}`,
		`{"id":4,"state":"posted","company_id":11,"badge_requirements":[{"id":1,"badge_id":2}],"wage":{}}`,
	} {
		for _, data := range []string{doc, `{"job_request":` + doc + `}`} {
			var r workforce.JobRequest
			_, err := workforce.Decode([]byte(data), &r)
			require.NoError(t, err, data)
			assert.EqualValues(t, 11, r.CustomerID, "CustomerID from company_id")
			require.Len(t, r.BadgeRequirements, 1)
			assert.EqualValues(t, 4, r.BadgeRequirements[0].JobRequestID)
			assert.JSONEq(t, doc, string(r.Raw))
		}
	}

	for _, doc := range []string{`{"id":5,"user_badges":[{"id":1,"badge_id":2}]}`, `{"id":5,"user_badges":[{"id":1,"badge_id":2}],"suspended":"maybe"}`} {
		for _, data := range []string{doc, `{"user":` + doc + `}`} {
			var u workforce.User
			_, err := workforce.Decode([]byte(data), &u)
			require.NoError(t, err, data)
			require.Len(t, u.UserBadges, 1)
			assert.EqualValues(t, 5, u.UserBadges[0].UserID)
			assert.JSONEq(t, doc, string(u.Raw))
		}
	}
}

// Decode never returns a silent empty resource for a document that is not
// one: another kind's envelope, or an object without an id, is an error.
func TestDecodeRefusesWhatIsNotTheResource(t *testing.T) {
	t.Parallel()
	for _, data := range []string{
		`{"job_request":{"id":4,"state":"posted"}}`,
		`{"jobs":[{"id":3}]}`,
		`{}`,
		`{"state":"filled"}`,
	} {
		var j workforce.Job
		_, err := workforce.Decode([]byte(data), &j)
		if assert.Error(t, err, data) {
			assert.False(t, strings.Contains(err.Error(), "panic"))
		}
	}
}
