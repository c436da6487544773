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
	err := s.st.read(func(v view) error {
		for _, u := range scan(v, &v.st.users, func(u *user) bool {
			return has(u.firstName, u.lastName, u.firstName+" "+u.lastName, u.email) && userVisible(v, u, c.pool)
		}, maxSearch) {
			out.Users = append(out.Users, renderListedUser(v, u))
		}
		for _, cu := range scan(v, &v.st.customers, func(cu *customer) bool {
			return has(cu.name, cu.contactEmail, cu.billingEmail)
		}, maxSearch) {
			out.Customers = append(out.Customers, renderCustomer(cu))
		}
		for _, jr := range scan(v, &v.st.jobRequests, func(jr *jobRequest) bool {
			return (c.pool != poolPublic || jr.createdBy == poolPublic) && has(jr.name)
		}, maxSearch) {
			out.JobRequests = append(out.JobRequests, renderJobRequest(v, jr, c.pool))
		}
		for _, b := range scan(v, &v.st.badges, func(b *badge) bool { return has(b.name) }, maxSearch) {
			out.Badges = append(out.Badges, renderBadge(b))
		}
		return nil
	})
	return out, err
}
