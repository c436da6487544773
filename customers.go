package workforce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"time"
)

// CustomersService reads, creates and changes the Customers of the key
// pair's company, and imports timesheets.
type CustomersService service

// A Customer is a company a Requestor staffs for.
type Customer struct {
	ID               int64  `json:"id"`
	Name             string `json:"name"`
	AccountOwner     string `json:"account_owner"`
	AccountManager   string `json:"account_manager"`
	Address          string `json:"address"`
	City             string `json:"city"`
	State            string `json:"state"`
	Zip              string `json:"zip"`
	Phone            string `json:"phone"`
	ContactFirstName string `json:"contact_first_name"`
	ContactLastName  string `json:"contact_last_name"`
	ContactEmail     string `json:"contact_email"`
	BillingFirstName string `json:"billing_first_name"`
	BillingLastName  string `json:"billing_last_name"`
	BillingEmail     string `json:"billing_email"`
	BillingPhone     string `json:"billing_phone"`
	// FeePercentage is the fee charged, as a fraction from 0 to 1.
	FeePercentage          Decimal `json:"fee_percentage"`
	CanPostW2              bool    `json:"can_post_w2"`
	CanPost1099            bool    `json:"can_post_1099"`
	CanUsePremierFeatures  bool    `json:"can_use_premier_features"`
	UseStartAndCompletePIN bool    `json:"use_start_and_complete_pin"`
	StrategicPilot         bool    `json:"strategic_pilot"`
	// UsePendingState makes Workers apply (a pending Job) rather than
	// accept, when the Job Request enables it too.
	UsePendingState bool `json:"use_pending_state"`
	CreatedAt       Time `json:"created_at"`
	UpdatedAt       Time `json:"updated_at"`

	// Raw is the Customer's JSON document as received, with every field,
	// including those this type does not model.
	Raw json.RawMessage `json:"-"`
}

func (c *Customer) setRaw(b json.RawMessage) { c.Raw = b }
func (c *Customer) listID() int64            { return c.ID }

// CustomerParams is the body of POST /customers and PATCH /customers/:id.
// Empty texts, an absent FeePercentage and nil flags are not sent, so an
// update changes only what is set; Ptr(false) sends false. Name is
// required to create.
type CustomerParams struct {
	Name             string `json:"name,omitempty"`
	AccountOwner     string `json:"account_owner,omitempty"`
	AccountManager   string `json:"account_manager,omitempty"`
	Address          string `json:"address,omitempty"`
	City             string `json:"city,omitempty"`
	State            string `json:"state,omitempty"`
	Zip              string `json:"zip,omitempty"`
	Phone            string `json:"phone,omitempty"`
	ContactFirstName string `json:"contact_first_name,omitempty"`
	ContactLastName  string `json:"contact_last_name,omitempty"`
	ContactEmail     string `json:"contact_email,omitempty"`
	// BillingFirstName, BillingLastName and BillingPhone hold at most 50
	// characters, BillingEmail at most 255.
	BillingFirstName string `json:"billing_first_name,omitempty"`
	BillingLastName  string `json:"billing_last_name,omitempty"`
	BillingEmail     string `json:"billing_email,omitempty"`
	BillingPhone     string `json:"billing_phone,omitempty"`
	// FeePercentage is a fraction from 0 to 1, such as NewDecimal(0.15).
	FeePercentage          Decimal `json:"fee_percentage,omitzero"`
	CanPostW2              *bool   `json:"can_post_w2,omitempty"`
	CanPost1099            *bool   `json:"can_post_1099,omitempty"`
	CanUsePremierFeatures  *bool   `json:"can_use_premier_features,omitempty"`
	UseStartAndCompletePIN *bool   `json:"use_start_and_complete_pin,omitempty"`
	StrategicPilot         *bool   `json:"strategic_pilot,omitempty"`
	UsePendingState        *bool   `json:"use_pending_state,omitempty"`
}

// check refuses fields out of range; create also requires the name.
func (p *CustomerParams) check(create bool) error {
	if err := checkSomething("CustomerParams", p); err != nil {
		return err
	}
	var name error
	if create {
		name = checkRequired("Name", p.Name)
	}
	return firstError(name,
		checkLength("BillingFirstName", p.BillingFirstName, 50),
		checkLength("BillingLastName", p.BillingLastName, 50),
		checkLength("BillingEmail", p.BillingEmail, 255),
		checkLength("BillingPhone", p.BillingPhone, 50),
		checkDecimal("FeePercentage", p.FeePercentage, 0, 1))
}

// List returns one page of the company's Customers, newest first.
//
// API: GET /customers
func (s *CustomersService) List(ctx context.Context, opts *ListOptions) ([]*Customer, *Response, error) {
	return call[[]*Customer](ctx, s.client, list(customers, opts))
}

// All iterates over every Customer from opts.Page on, fetching pages of 50
// as it goes. opts.Per is ignored. The iteration ends at the first error,
// which it yields.
//
// API: GET /customers
func (s *CustomersService) All(ctx context.Context, opts *ListOptions) iter.Seq2[*Customer, error] {
	return allPages(ctx, s.client, opts, s.List)
}

// Get returns one Customer.
//
// API: GET /customers/:id
func (s *CustomersService) Get(ctx context.Context, id int64) (*Customer, *Response, error) {
	return call[*Customer](ctx, s.client, customers.get(id))
}

// Create creates a Customer. It returns an error matching ErrUnprocessable
// for a name the company already uses, in any case.
//
// When the error matches ErrOutcomeUnknown the Customer may exist: Settle
// tells whether this call made it. (Names are unique, so creating it again
// cannot make two: it returns ErrUnprocessable when the first was made.)
//
// API: POST /customers
func (s *CustomersService) Create(ctx context.Context, customer *CustomerParams) (*Customer, *Response, error) {
	return call[*Customer](ctx, s.client, customers.create(customer))
}

// Settle returns the Customer that a Create of params, which failed with
// err matching ErrOutcomeUnknown, made, or an error matching ErrNotFound
// when it made none. Only a Customer with the name sent (in any case),
// made since the call began, counts (docs/settling.md): one made before is
// not this call's. A Customer made since that was changed and no longer
// bears the name (renamed?) may be the call's: the error then matches
// ErrUndecided, never ErrNotFound. err must be the create's own error.
//
// API: GET /info, then GET /customers
func (s *CustomersService) Settle(ctx context.Context, params *CustomerParams, err error) (*Customer, error) {
	if e := params.check(true); e != nil {
		return nil, e
	}
	return settle(ctx, s.client, err, fmt.Sprintf("Customer %q", params.Name), func(floor time.Time) (*Customer, bool, error) {
		return settleIn(s.All(ctx, nil), floor, "Customer", func(c *Customer) Time { return c.CreatedAt }, func(c *Customer) verdict {
			if sameText(c.Name, params.Name) {
				return theCall
			}
			return doubtIf(editedSince(c.CreatedAt, c.UpdatedAt) && params.sharesContact(c)) // renamed since?
		})
	})
}

// Update changes the fields of a Customer that changes sets; at least one
// must be.
//
// API: PATCH /customers/:id
func (s *CustomersService) Update(ctx context.Context, id int64, changes *CustomerParams) (*Customer, *Response, error) {
	return call[*Customer](ctx, s.client, customers.update(id, changes))
}

// Exists reports whether the company has a Customer of this name, compared
// without regard to case.
//
// API: GET /customers/exists
func (s *CustomersService) Exists(ctx context.Context, name string) (bool, *Response, error) {
	answer, resp, err := call[struct {
		Exists bool `json:"exists"`
	}](ctx, s.client, customerNames.find(&nameQuery{name}))
	return answer.Exists, resp, err
}

// nameQuery is the query of GET /customers/exists.
type nameQuery struct {
	Name string `url:"name"`
}

func (q *nameQuery) check() error { return checkRequired("name", q.Name) }

// A TimesheetImport is the outcome of a timesheet upload.
type TimesheetImport struct {
	// Imported is the number of rows applied.
	Imported int `json:"imported"`
	// Rejected lists the rows that changed nothing, and why.
	Rejected []TimesheetRejection `json:"rejected"`
	// Raw is the answer's JSON document as received.
	Raw json.RawMessage `json:"-"`
}

func (t *TimesheetImport) setRaw(b json.RawMessage) { t.Raw = b }

// A TimesheetRejection is a timesheet row that was not applied.
type TimesheetRejection struct {
	// Row counts data rows from 1, the header not included.
	Row int `json:"row"`
	// Error says why the row was rejected.
	Error string `json:"error"`
}

// ImportTimesheet uploads a timesheet: CSV with a header row naming at
// least the columns job_id and actual_duration (whole minutes), one Job a
// row. Rows that can be applied are; the answer lists the others. A file
// that is not such a CSV gets an error matching ErrUnprocessable. r is
// streamed, read to its end, never closed; its Read must not block
// forever. Only an r that is an io.Seeker is ever sent twice (ErrNotResent).
//
// API: POST /customers/timesheet_import
func (s *CustomersService) ImportTimesheet(ctx context.Context, r io.Reader) (*TimesheetImport, *Response, error) {
	if r == nil {
		return nil, nil, &ArgumentError{Name: "r", Reason: "is required"}
	}
	file := newMultipartFile("file", "timesheet.csv", "text/csv", r)
	out, resp, err := call[*TimesheetImport](ctx, s.client, timesheetImports.upload(file))
	resendDue := errors.Is(err, ErrRateLimited) || (errors.Is(err, ErrUnauthorized) && s.client.tokens.CanRenew())
	if resendDue && !file.replayable() {
		err = fmt.Errorf("%w: %w", ErrNotResent, err)
	}
	return out, resp, err
}
