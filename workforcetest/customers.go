package workforcetest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// customer is a company the employers belong to, and a client of the key's company. Empty
// strings are null.
type customer struct {
	stored
	name                   string
	accountOwner           string
	accountManager         string
	address, city, state   string
	zip, phone             string
	contactFirstName       string
	contactLastName        string
	contactEmail           string
	billingFirstName       string
	billingLastName        string
	billingEmail           string
	billingPhone           string
	feePercentage          string // a decimal from 0.0 to 1.0
	canPostW2              bool
	canPost1099            bool
	canUsePremierFeatures  bool
	useStartAndCompletePin bool
	strategicPilot         bool
	usePendingState        bool
}

// customers serves the Customers from the store.
func (s *Server) customers() resource[customer, customerJSON] {
	return resource[customer, customerJSON]{
		st: s.st, one: "customer", many: "customers", table: &s.st.customers,
		render: plain(renderCustomer), read: readCustomer, publicWrites: true,
	}
}

// readCustomer reads customer[…] into c and checks it: name is required and unique
// case-insensitively (id is the Customer's own, 0 on create).
func readCustomer(tx *tx, f fields, c *customer, id int64) {
	f.text(&c.name, "name", 1, 255)
	f.notBlank(map[string]string{"name": c.name})
	for name, dst := range map[string]*string{"account_owner": &c.accountOwner, "account_manager": &c.accountManager,
		"address": &c.address, "city": &c.city, "state": &c.state, "zip": &c.zip, "phone": &c.phone,
		"contact_first_name": &c.contactFirstName, "contact_last_name": &c.contactLastName,
		"contact_email": &c.contactEmail} {
		f.text(dst, name, 0, 255)
	}
	f.text(&c.billingFirstName, "billing_first_name", 1, 50)
	f.text(&c.billingLastName, "billing_last_name", 1, 50)
	f.text(&c.billingEmail, "billing_email", 1, 255)
	f.text(&c.billingPhone, "billing_phone", 1, 50)
	f.decimal(&c.feePercentage, "fee_percentage", 0, 1)
	for name, dst := range map[string]*bool{"can_post_w2": &c.canPostW2, "can_post_1099": &c.canPost1099,
		"can_use_premier_features": &c.canUsePremierFeatures, "use_start_and_complete_pin": &c.useStartAndCompletePin,
		"strategic_pilot": &c.strategicPilot, "use_pending_state": &c.usePendingState} {
		f.boolean(dst, name)
	}
	if other := customerNamed(tx.view, c.name); other != nil && other.id != id {
		f.fe.add("name", "has already been taken (customer "+itoa(other.id)+")")
	}
}

// customerNamed returns the Customer whose name equals name case-insensitively, or nil.
func customerNamed(v view, name string) *customer {
	if name == "" {
		return nil
	}
	found := scan(v, &v.st.customers, func(c *customer) bool { return strings.EqualFold(c.name, name) }, 1)
	if len(found) == 0 {
		return nil
	}
	return found[0]
}

// customerExists serves GET /api_v2/customers/exists?name=…: {"exists": true|false}, comparing
// names case-insensitively. A blank name is a 422.
func (s *Server) customerExists(c *call) (any, error) {
	name, ok := c.p.str("name")
	if !ok {
		return nil, invalid("name", "can't be blank")
	}
	var exists bool
	err := s.st.read(func(v view) error {
		exists = customerNamed(v, strings.TrimSpace(name)) != nil
		return nil
	})
	return map[string]bool{"exists": exists}, err
}

// rejectedRow is a timesheet row that was not applied.
type rejectedRow struct {
	Row   int    `json:"row"`
	Error string `json:"error"`
}

// timesheetImport serves POST /api_v2/customers/timesheet_import: a CSV file in the multipart
// field "file" with job_id and actual_duration columns. It answers {"imported": N, "rejected":
// [{"row": R, "error": "…"}]}. The file is read before the store is locked, and each Job it
// names is looked up once, however many rows name it.
func (s *Server) timesheetImport(c *call) (any, error) {
	file, ok := c.files["file"]
	if !ok {
		return nil, invalid("file", "must be a CSV file sent as the multipart/form-data field file")
	}
	rows, err := readTimesheet(file)
	if err != nil {
		return nil, err
	}
	imported, rejected := 0, []rejectedRow{}
	err = s.st.write(func(tx *tx) error {
		jobs := map[int64]*job{} // the Jobs the rows named, for changing; nil for one the key may not see
		for i, row := range rows {
			if why := tx.applyTimesheetRow(row, jobs, c.pool); why != "" {
				rejected = append(rejected, rejectedRow{Row: i + 1, Error: why})
				continue
			}
			imported++
		}
		return nil
	})
	return map[string]any{"imported": imported, "rejected": rejected}, err
}

// timesheetRow is a data row of a timesheet: the Job and the minutes it gives, or why it is
// rejected whatever the Job.
type timesheetRow struct {
	jobID, minutes int64
	why            string
}

// readTimesheet parses a timesheet: a header row naming job_id and actual_duration (any case,
// any order, other columns ignored), then the data rows. A file that is not UTF-8 CSV text, or
// lacks either column, is a 422 on "file".
func readTimesheet(file []byte) ([]timesheetRow, error) {
	file = bytes.TrimPrefix(file, []byte("\ufeff"))
	if !utf8.Valid(file) || bytes.IndexByte(file, 0) >= 0 {
		return nil, invalid("file", "is not a CSV file")
	}
	r := csv.NewReader(bytes.NewReader(file))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	r.ReuseRecord = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, invalid("file", "is empty: it needs a header row with job_id and actual_duration")
	}
	if err != nil {
		return nil, invalid("file", "is not a CSV file: "+err.Error())
	}
	jobCol, durationCol := -1, -1
	for i, name := range header {
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "job_id":
			jobCol = i
		case "actual_duration":
			durationCol = i
		}
	}
	if jobCol < 0 || durationCol < 0 {
		return nil, invalid("file", "needs a header row with job_id and actual_duration columns")
	}
	var rows []timesheetRow
	for {
		record, err := r.Read()
		switch {
		case errors.Is(err, io.EOF):
			return rows, nil
		case err != nil:
			return nil, invalid("file", "is not a CSV file: "+err.Error())
		}
		rows = append(rows, timesheetRowOf(record, jobCol, durationCol))
	}
}

// timesheetRowOf reads the row record, whose Job and minutes are in the columns jobCol and
// durationCol: a row of fewer columns, a job_id that is not a positive integer or a duration
// that is not a whole number ≥ 0 is rejected.
func timesheetRowOf(record []string, jobCol, durationCol int) timesheetRow {
	if len(record) <= max(jobCol, durationCol) {
		return timesheetRow{why: "has fewer columns than the header"}
	}
	id, err := strconv.ParseInt(strings.TrimSpace(record[jobCol]), 10, 64)
	if err != nil || id < 1 {
		return timesheetRow{why: "job_id must be a positive integer"}
	}
	minutes, err := strconv.ParseInt(strings.TrimSpace(record[durationCol]), 10, 64)
	if err != nil || minutes < 0 || minutes > math.MaxInt32 {
		return timesheetRow{why: "actual_duration must be a whole number of minutes, 0 or more"}
	}
	return timesheetRow{jobID: id, minutes: minutes}
}

// applyTimesheetRow sets the actual_duration of the row's Job, or returns why it cannot: the row
// is malformed, the Job is unknown or not the key's, or not in_progress, paused or completed.
// updated_at moves only on a change. jobs holds the Jobs earlier rows named, as the transaction
// handed them out (nil for one the key may not see); the row's is added.
func (tx *tx) applyTimesheetRow(row timesheetRow, jobs map[int64]*job, p pool) string {
	if row.why != "" {
		return row.why
	}
	j, seen := jobs[row.jobID]
	if !seen {
		if _, err := visibleJob(tx.view, row.jobID, p); err == nil {
			j, _ = tx.editJob(row.jobID)
		}
		jobs[row.jobID] = j
	}
	switch {
	case j == nil:
		return "job " + itoa(row.jobID) + " not found"
	case j.state != stateInProgress && j.state != statePaused && j.state != stateCompleted:
		return "job " + itoa(row.jobID) + " is " + j.state + "; only in_progress, paused or completed jobs take a duration"
	}
	if n := int(row.minutes); j.actualDuration == nil || *j.actualDuration != n {
		j.actualDuration, j.updatedAt = &n, tx.now()
	}
	return ""
}

// customerJSON is a Customer as the API writes it: id, every write parameter, created_at and
// updated_at.
type customerJSON struct {
	ID                     int64   `json:"id"`
	Name                   string  `json:"name"`
	AccountOwner           *string `json:"account_owner"`
	AccountManager         *string `json:"account_manager"`
	Address                *string `json:"address"`
	City                   *string `json:"city"`
	State                  *string `json:"state"`
	Zip                    *string `json:"zip"`
	Phone                  *string `json:"phone"`
	ContactFirstName       *string `json:"contact_first_name"`
	ContactLastName        *string `json:"contact_last_name"`
	ContactEmail           *string `json:"contact_email"`
	BillingFirstName       *string `json:"billing_first_name"`
	BillingLastName        *string `json:"billing_last_name"`
	BillingEmail           *string `json:"billing_email"`
	BillingPhone           *string `json:"billing_phone"`
	FeePercentage          *string `json:"fee_percentage"`
	CanPostW2              bool    `json:"can_post_w2"`
	CanPost1099            bool    `json:"can_post_1099"`
	CanUsePremierFeatures  bool    `json:"can_use_premier_features"`
	UseStartAndCompletePin bool    `json:"use_start_and_complete_pin"`
	StrategicPilot         bool    `json:"strategic_pilot"`
	UsePendingState        bool    `json:"use_pending_state"`
	CreatedAt              string  `json:"created_at"`
	UpdatedAt              string  `json:"updated_at"`
}

// renderCustomer writes c.
func renderCustomer(c *customer) customerJSON {
	return customerJSON{
		ID: c.id, Name: c.name, AccountOwner: optString(c.accountOwner), AccountManager: optString(c.accountManager),
		Address: optString(c.address), City: optString(c.city), State: optString(c.state), Zip: optString(c.zip),
		Phone: optString(c.phone), ContactFirstName: optString(c.contactFirstName),
		ContactLastName: optString(c.contactLastName), ContactEmail: optString(c.contactEmail),
		BillingFirstName: optString(c.billingFirstName), BillingLastName: optString(c.billingLastName),
		BillingEmail: optString(c.billingEmail), BillingPhone: optString(c.billingPhone),
		FeePercentage: optString(c.feePercentage), CanPostW2: c.canPostW2, CanPost1099: c.canPost1099,
		CanUsePremierFeatures: c.canUsePremierFeatures, UseStartAndCompletePin: c.useStartAndCompletePin,
		StrategicPilot: c.strategicPilot, UsePendingState: c.usePendingState,
		CreatedAt: localTime(c.createdAt), UpdatedAt: localTime(c.updatedAt),
	}
}
