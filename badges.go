package workforce

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"time"
)

// BadgesService reads, creates, changes and deletes Badges: qualifications
// Workers hold and Job Requests may require.
type BadgesService service

// A Badge is a qualification a Worker holds, such as a certificate.
type Badge struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	IconURL     string `json:"icon_url"`
	InfoURL     string `json:"info_url"`
	// IsSoft marks a Badge that is shown but not required to take a Job.
	IsSoft    bool `json:"is_soft"`
	CreatedAt Time `json:"created_at"`
	UpdatedAt Time `json:"updated_at"`

	// Raw is the Badge's JSON document as received, with every field,
	// including those this type does not model.
	Raw json.RawMessage `json:"-"`
}

func (b *Badge) setRaw(raw json.RawMessage) { b.Raw = raw }
func (b *Badge) listID() int64              { return b.ID }

// BadgeParams is the body of POST /badges and PATCH /badges/:id. Empty
// texts and a nil IsSoft are not sent, so an update changes only what is
// set. Name and Description are required to create.
type BadgeParams struct {
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	InfoURL     string `json:"info_url,omitempty"`
	// RemoteIconURL is where the API fetches the Badge's icon from.
	RemoteIconURL string `json:"remote_icon_url,omitempty"`
	IsSoft        *bool  `json:"is_soft,omitempty"`
}

func (p *BadgeParams) check(create bool) error {
	if err := checkSomething("BadgeParams", p); err != nil || !create {
		return err
	}
	return firstError(checkRequired("Name", p.Name), checkRequired("Description", p.Description))
}

// BadgeListOptions filters and pages GET /badges. Zero fields are not sent.
type BadgeListOptions struct {
	ListOptions
	// Query selects Badges by name.
	Query string `url:"query,omitempty"`
}

// List returns one page of Badges, newest first.
//
// API: GET /badges
func (s *BadgesService) List(ctx context.Context, opts *BadgeListOptions) ([]*Badge, *Response, error) {
	return call[[]*Badge](ctx, s.client, list(badges, opts))
}

// All iterates over every Badge that opts selects, from opts.Page on,
// fetching pages of 50 as it goes. opts.Per is ignored. The iteration ends
// at the first error, which it yields.
//
// API: GET /badges
func (s *BadgesService) All(ctx context.Context, opts *BadgeListOptions) iter.Seq2[*Badge, error] {
	return allPages(ctx, s.client, opts, s.List)
}

// Get returns one Badge.
//
// API: GET /badges/:id
func (s *BadgesService) Get(ctx context.Context, id int64) (*Badge, *Response, error) {
	return call[*Badge](ctx, s.client, badges.get(id))
}

// Create creates a Badge.
//
// When the error matches ErrOutcomeUnknown the Badge may exist: Settle
// tells whether this call made it, before creating it again.
//
// API: POST /badges
func (s *BadgesService) Create(ctx context.Context, badge *BadgeParams) (*Badge, *Response, error) {
	return call[*Badge](ctx, s.client, badges.create(badge))
}

// Settle returns the Badge that a Create of params, which failed with err
// matching ErrOutcomeUnknown, made, or an error matching ErrNotFound when
// it made none. Only a Badge with the name sent (in any case), made since
// the call began, counts (docs/settling.md). A Badge made since that was
// renamed may be the call's: the error then matches ErrUndecided, never
// ErrNotFound. err must be the create's own error.
//
// API: GET /info, then GET /badges with query (the name), and without it
// when none has the name
func (s *BadgesService) Settle(ctx context.Context, params *BadgeParams, err error) (*Badge, error) {
	if e := params.check(true); e != nil {
		return nil, e
	}
	made := func(b *Badge) Time { return b.CreatedAt }
	judge := func(b *Badge) verdict {
		if sameText(b.Name, params.Name) {
			return theCall
		}
		return doubtIf(editedSince(b.CreatedAt, b.UpdatedAt) && sameText(b.Description, params.Description)) // renamed since?
	}
	return settle(ctx, s.client, err, fmt.Sprintf("Badge %q", params.Name), func(floor time.Time) (*Badge, bool, error) {
		b, ok, err := settleIn(s.All(ctx, &BadgeListOptions{Query: strings.TrimSpace(params.Name)}), floor, "Badge", made, judge)
		if ok || err != nil {
			return b, ok, err
		}
		return settleIn(s.All(ctx, nil), floor, "Badge", made, judge) // those renamed too
	})
}

// Update changes the fields of a Badge that changes sets; at least one must
// be.
//
// API: PATCH /badges/:id
func (s *BadgesService) Update(ctx context.Context, id int64, changes *BadgeParams) (*Badge, *Response, error) {
	return call[*Badge](ctx, s.client, badges.update(id, changes))
}

// Delete deletes a Badge and returns it as it was. A Badge that a Job
// Request requires gets ErrUnprocessable.
//
// API: DELETE /badges/:id
func (s *BadgesService) Delete(ctx context.Context, id int64) (*Badge, *Response, error) {
	return call[*Badge](ctx, s.client, badges.delete(id))
}
