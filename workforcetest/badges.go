package workforcetest

import (
	"slices"
	"strings"
)

// badge is a qualification a Worker may hold and a Job Request may require.
type badge struct {
	stored
	name        string
	description string
	iconURL     string
	infoURL     string
	isSoft      bool
}

// badges serves the Badges from the store.
func (s *Server) badges() resource[badge, badgeJSON] {
	return resource[badge, badgeJSON]{
		st: s.st, one: "badge", many: "badges", rows: &s.st.badges,
		meta: func(b *badge) *stored { return &b.stored }, render: renderBadge,
		read: readBadge, filter: badgeFilter, publicWrites: true,
	}
}

// readBadge reads badge[…] into b: name and description are required.
func readBadge(f fields, b *badge, _ int64) {
	f.text(&b.name, "name", 1, 255)
	f.text(&b.description, "description", 1, 0)
	f.notBlank(map[string]string{"name": b.name, "description": b.description})
	f.text(&b.infoURL, "info_url", 0, 2048)
	f.text(&b.iconURL, "remote_icon_url", 0, 2048)
	f.boolean(&b.isSoft, "is_soft")
}

// badgeFilter reads GET /badges' query: the Badges whose name contains it, case-insensitively.
func badgeFilter(p params, _ fieldErrors) func(*badge) bool {
	q, _ := p.str("query")
	q = strings.ToLower(strings.TrimSpace(q))
	return func(b *badge) bool { return strings.Contains(strings.ToLower(b.name), q) }
}

// deleteBadge serves DELETE /api_v2/badges/:id, answering the deleted Badge. A Badge that a Job
// Request requires is a 422; the Workers holding it lose it.
func (s *Server) deleteBadge(c *call) (any, error) {
	r := s.badges()
	return r.answer(func() (*badge, error) {
		b, err := r.find(c)
		if err != nil {
			return nil, err
		}
		for _, jr := range s.st.jobRequests.desc() {
			if jr.requires(b.id) {
				return nil, invalid("badge", "is required by job request "+itoa(jr.id))
			}
		}
		s.st.badges.remove(b.id)
		for _, u := range s.st.users.rows {
			u.badges = slices.DeleteFunc(u.badges, func(h userBadge) bool { return h.badgeID == b.id })
		}
		return b, nil
	})
}

// missingBadges names the Badges jr requires that worker does not hold ("" when none). The
// caller holds st.mu.
func (st *store) missingBadges(jr *jobRequest, worker *user) string {
	var missing []string
	for _, r := range jr.badges {
		if id := r.badgeID; !worker.holds(id) {
			name := ""
			if b := st.badges.rows[id]; b != nil {
				name = " (" + b.name + ")"
			}
			missing = append(missing, itoa(id)+name)
		}
	}
	return strings.Join(missing, ", ")
}

// badgeJSON is a Badge as the API writes it.
type badgeJSON struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	IconURL     *string `json:"icon_url"`
	InfoURL     *string `json:"info_url"`
	IsSoft      bool    `json:"is_soft"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
}

// renderBadge writes b.
func renderBadge(b *badge) badgeJSON {
	return badgeJSON{ID: b.id, Name: b.name, Description: b.description, IconURL: optString(b.iconURL),
		InfoURL: optString(b.infoURL), IsSoft: b.isSoft, CreatedAt: localTime(b.createdAt), UpdatedAt: localTime(b.updatedAt)}
}
