package workforcetest

import (
	"strings"
)

// maxSearch is how many records of each kind GET /search answers at most.
const maxSearch = 50

// searchJSON is the answer of GET /search: every key present, each list newest first.
type searchJSON struct {
	Users       []*userJSON      `json:"users"`
	Customers   []customerJSON   `json:"customers"`
	JobRequests []jobRequestJSON `json:"job_requests"`
	Badges      []badgeJSON      `json:"badges"`
}

// search serves GET /api_v2/search?q=…: the Users (first name, last name, both, email),
// Customers (name, contact and billing emails), Job Requests (request name) and Badges (name)
// the key sees whose text holds q, case-insensitively; at most 50 of each. A blank q is a 422.
func (s *Server) search(c *call) (any, error) {
	q, _ := c.p.str("q")
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return nil, invalid("q", "can't be blank")
	}
	has := func(texts ...string) bool {
		for _, t := range texts {
			if strings.Contains(strings.ToLower(t), q) {
				return true
			}
		}
		return false
	}
	out := searchJSON{Users: []*userJSON{}, Customers: []customerJSON{}, JobRequests: []jobRequestJSON{}, Badges: []badgeJSON{}}
	err := s.st.run(func() error {
		st := s.st
		out.Users = found(st.users.desc(), out.Users, func(u *user) bool {
			return st.userVisible(u, c.pool) && has(u.firstName, u.lastName, u.firstName+" "+u.lastName, u.email)
		}, st.renderUser)
		out.Customers = found(st.customers.desc(), out.Customers, func(cu *customer) bool {
			return has(cu.name, cu.contactEmail, cu.billingEmail)
		}, renderCustomer)
		out.JobRequests = found(st.jobRequests.desc(), out.JobRequests, func(jr *jobRequest) bool {
			return (c.pool != poolPublic || jr.createdBy == poolPublic) && has(jr.name)
		}, st.renderJobRequest)
		out.Badges = found(st.badges.desc(), out.Badges, func(b *badge) bool { return has(b.name) }, renderBadge)
		return nil
	})
	return out, err
}

// found appends to out the first maxSearch items that match, rendered.
func found[T, J any](items []*T, out []J, match func(*T) bool, render func(*T) J) []J {
	for _, item := range items {
		if len(out) == maxSearch {
			break
		}
		if match(item) {
			out = append(out, render(item))
		}
	}
	return out
}
