package workforcetest_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// customerFields are the Customer fields: id, every write parameter, created_at, updated_at.
var customerFields = sorted("id", "name", "account_owner", "account_manager", "address", "city", "state", "zip",
	"phone", "contact_first_name", "contact_last_name", "contact_email", "billing_first_name", "billing_last_name",
	"billing_email", "billing_phone", "fee_percentage", "can_post_w2", "can_post_1099", "can_use_premier_features",
	"use_start_and_complete_pin", "strategic_pilot", "use_pending_state", "created_at", "updated_at")

func TestCustomersAreWrittenAndReadWithEveryField(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	status, body := f.json(http.MethodPost, "/api_v2/customers", with(f.private), obj{"customer": obj{
		"name": "Blue Harbor", "account_owner": "Kim", "account_manager": "Lee", "address": "5 Bay St", "city": "Oakland",
		"state": "CA", "zip": "94607", "phone": "+15105550100", "contact_first_name": "Ana", "contact_last_name": "Diaz",
		"contact_email": "ana@blue.example", "billing_first_name": "Bo", "billing_last_name": "Ng",
		"billing_email": "bill@blue.example", "billing_phone": "+15105550101", "fee_percentage": "0.25",
		"can_post_w2": true, "can_post_1099": "1", "can_use_premier_features": false, "use_start_and_complete_pin": "true",
		"strategic_pilot": true, "use_pending_state": true}})
	require.Equal(t, http.StatusOK, status, body)
	c := body["customer"].(obj)
	assert.Equal(t, customerFields, keys(c))
	assert.Equal(t, "Blue Harbor", c["name"])
	assert.Equal(t, "0.25", c["fee_percentage"], "a decimal as a string")
	assert.Equal(t, true, c["can_post_1099"])
	assert.Equal(t, true, c["use_start_and_complete_pin"])
	assert.Equal(t, false, c["can_use_premier_features"])
	assert.Regexp(t, localStamp, c["created_at"])
	id := idOf(c)
	status, body = f.get(idPath("customers", id), f.private)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, c, body["customer"])

	f.Advance(time.Minute)
	status, body = f.form(http.MethodPut, idPath("customers", id), with(f.private), url.Values{"customer[city]": {"Alameda"}})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, "Alameda", body["customer"].(obj)["city"])
	assert.NotEqual(t, c["updated_at"], body["customer"].(obj)["updated_at"])
	status, body = f.json(http.MethodPatch, idPath("customers", id), with(f.private), obj{"customer": obj{"name": "BLUE harbor", "phone": nil}})
	require.Equal(t, http.StatusOK, status, body, "its own name in another case")
	assert.Nil(t, body["customer"].(obj)["phone"], "null clears")

	f.requireInvalid(map[string]invalidCase{
		"no name":            {http.MethodPost, "/api_v2/customers", obj{"customer": obj{"city": "X"}}, "name"},
		"taken":              {http.MethodPost, "/api_v2/customers", obj{"customer": obj{"name": "acme LOGISTICS"}}, "name"},
		"taken on update":    {http.MethodPatch, idPath("customers", id), obj{"customer": obj{"name": "Harbor Events"}}, "name"},
		"billing_first_name": {http.MethodPost, "/api_v2/customers", obj{"customer": obj{"name": "N1", "billing_first_name": strings.Repeat("a", 51)}}, "billing_first_name"},
		"billing_last_name":  {http.MethodPost, "/api_v2/customers", obj{"customer": obj{"name": "N2", "billing_last_name": ""}}, "billing_last_name"},
		"billing_phone":      {http.MethodPost, "/api_v2/customers", obj{"customer": obj{"name": "N3", "billing_phone": strings.Repeat("1", 51)}}, "billing_phone"},
		"billing_email":      {http.MethodPost, "/api_v2/customers", obj{"customer": obj{"name": "N4", "billing_email": strings.Repeat("e", 256)}}, "billing_email"},
		"fee above 1":        {http.MethodPost, "/api_v2/customers", obj{"customer": obj{"name": "N5", "fee_percentage": 1.5}}, "fee_percentage"},
		"fee below 0":        {http.MethodPost, "/api_v2/customers", obj{"customer": obj{"name": "N6", "fee_percentage": "-0.1"}}, "fee_percentage"},
		"fee not a number":   {http.MethodPost, "/api_v2/customers", obj{"customer": obj{"name": "N7", "fee_percentage": "ten"}}, "fee_percentage"},
		"boolean":            {http.MethodPost, "/api_v2/customers", obj{"customer": obj{"name": "N8", "can_post_w2": "perhaps"}}, "can_post_w2"},
		"name cleared":       {http.MethodPatch, idPath("customers", id), obj{"customer": obj{"name": nil}}, "name"},
		"nothing to update":  {http.MethodPatch, idPath("customers", id), obj{}, "customer"},
	})
	for _, r := range []struct{ method, path string }{{http.MethodGet, idPath("customers", 999999)},
		{http.MethodPatch, idPath("customers", 999999)}, {http.MethodPut, idPath("customers", 0)},
		{http.MethodGet, idPath("customers", seed.WorkerIDs[0])}} {
		status, _ := f.json(r.method, r.path, with(f.private), obj{"customer": obj{"city": "X"}})
		assert.Equal(t, http.StatusNotFound, status, r)
	}
	status, body = f.get(idPath("customers", seed.CustomerID), f.public)
	require.Equal(t, http.StatusOK, status, "the Public Pool reads Customers")
	assert.Equal(t, "Acme Logistics", body["customer"].(obj)["name"])
	status, body = f.json(http.MethodPost, "/api_v2/customers", with(f.public), obj{"customer": obj{"name": "Public Co"}})
	require.Equal(t, http.StatusOK, status, body, "and writes them")
}

func TestCustomerExists(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for name, want := range map[string]bool{"Acme Logistics": true, "acme logistics": true, " HARBOR EVENTS ": true,
		"Acme": false, "Nobody": false} {
		status, body := f.get("/api_v2/customers/exists", f.private, "name", name)
		require.Equal(t, http.StatusOK, status, body)
		assert.Equal(t, obj{"exists": want}, body, name)
	}
	status, body := f.get("/api_v2/customers/exists", f.public, "name", "Acme Logistics")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, true, body["exists"])
	status, body = f.get("/api_v2/customers/exists", f.private)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	assert.Contains(t, fieldErrors(t, body), "name")
}

func TestTimesheetImport(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	w := seed.WorkerIDs
	working := idOf(f.createJob(w[1], seed.JobRequestW2ID))
	paused := idOf(f.createJob(w[2], seed.JobRequestW2ID))
	done := idOf(f.createJob(w[3], seed.JobRequestW2ID))
	same := idOf(f.createJob(w[4], seed.JobRequestW2ID))
	filled := idOf(f.createJob(w[5], seed.JobRequestW2ID))
	for _, id := range []int64{working, paused, done, same} {
		require.NoError(t, f.StartJob(id))
	}
	require.NoError(t, f.PauseJob(paused))
	require.NoError(t, f.CompleteJob(done))
	status, body := f.patchJob(same, obj{"actual_duration": 45})
	require.Equal(t, http.StatusOK, status, body)
	before := f.getJob(same)["updated_at"]
	f.Advance(time.Minute)

	id := func(n int64) string { return strconv.FormatInt(n, 10) }
	csv := "Name,job_id,Notes,actual_duration\n" +
		"Ben," + id(working) + ",late,120\n" + // 1 applied
		"Chloe," + id(paused) + ",,30\n" + // 2 applied
		"Dev," + id(done) + ",,0\n" + // 3 applied
		"Eli," + id(same) + ",,45\n" + // 4 applied, unchanged
		"Fay," + id(filled) + ",,60\n" + // 5 not started
		"X,999999,,60\n" + // 6 unknown
		"Y," + id(working) + ",,-5\n" + // 7 negative
		"Z," + id(working) + ",,1.5\n" + // 8 not whole
		"Q,abc,,10\n" + // 9 malformed id
		"short\n" // 10 missing columns
	status, body = f.upload("/api_v2/customers/timesheet_import", f.private, "file", "hours.csv", []byte(csv))
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, sorted("imported", "rejected"), keys(body))
	assert.EqualValues(t, 4, body["imported"])
	var rows []float64
	for _, r := range body["rejected"].([]any) {
		assert.Equal(t, sorted("row", "error"), keys(r.(obj)))
		assert.NotEmpty(t, r.(obj)["error"])
		rows = append(rows, r.(obj)["row"].(float64))
	}
	assert.Equal(t, []float64{5, 6, 7, 8, 9, 10}, rows)
	assert.EqualValues(t, 120, f.getJob(working)["actual_duration"], "the rejected rows for it changed nothing")
	assert.EqualValues(t, 30, f.getJob(paused)["actual_duration"])
	assert.EqualValues(t, 0, f.getJob(done)["actual_duration"])
	assert.Equal(t, before, f.getJob(same)["updated_at"], "no change, no bump")
	assert.Nil(t, f.getJob(filled)["actual_duration"])

	status, body = f.upload("/api_v2/customers/timesheet_import", f.public, "file", "hours.csv",
		[]byte("job_id,actual_duration\n"+id(working)+",99\n"))
	require.Equal(t, http.StatusOK, status, body)
	assert.EqualValues(t, 0, body["imported"], "another pool's Job")
	assert.Equal(t, "job "+id(working)+" not found", body["rejected"].([]any)[0].(obj)["error"])

	for name, file := range map[string][]byte{
		"no job_id":   []byte("id,actual_duration\n1,2\n"),
		"no duration": []byte("job_id,minutes\n1,2\n"),
		"empty":       {},
		"binary":      {0x89, 'P', 'N', 'G', 0, 0, 1},
		"bad quotes":  []byte("job_id,actual_duration\n\"1,2\n"),
	} {
		status, body := f.upload("/api_v2/customers/timesheet_import", f.private, "file", "x.csv", file)
		require.Equal(t, http.StatusUnprocessableEntity, status, name, body)
		assert.Contains(t, fieldErrors(t, body), "file", name)
	}
	status, body = f.upload("/api_v2/customers/timesheet_import", f.private, "", "", nil)
	require.Equal(t, http.StatusUnprocessableEntity, status, "no file field")
	assert.Contains(t, fieldErrors(t, body), "file")
	status, body = f.json(http.MethodPost, "/api_v2/customers/timesheet_import", with(f.private), obj{"file": "job_id,actual_duration"})
	require.Equal(t, http.StatusUnprocessableEntity, status, "not multipart")
	assert.Contains(t, fieldErrors(t, body), "file")
	status, _ = f.decode(f.send(http.MethodPost, "/api_v2/customers/timesheet_import", with(f.private),
		"multipart/form-data; boundary=xyz", []byte("garbage")))
	assert.Equal(t, http.StatusUnprocessableEntity, status, "malformed multipart")

	big := "job_id,actual_duration\n" + strings.Repeat(id(working)+",121\n", (2<<20)/10)
	status, body = f.upload("/api_v2/customers/timesheet_import", f.private, "file", "big.csv", []byte(big))
	require.Equal(t, http.StatusOK, status, "a timesheet may be larger than 1 MiB")
	assert.Positive(t, body["imported"])
	status, _ = f.upload("/api_v2/customers/timesheet_import", f.private, "file", "huge.csv", make([]byte, 9<<20))
	assert.Equal(t, http.StatusRequestEntityTooLarge, status)
}
