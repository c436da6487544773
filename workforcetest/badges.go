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
		st: s.st, one: "badge", many: "badges", table: &s.st.badges,
		render: plain(renderBadge), read: readBadge, filters: badgeFilters, publicWrites: true,
	}
}

// readBadge reads badge[…] into b: name and description are required.
func readBadge(_ *tx, f fields, b *badge, _ int64) {
	f.text(&b.name, "name", 1, 255)
	f.text(&b.description, "description", 1, 0)
	f.notBlank(map[string]string{"name": b.name, "description": b.description})
	f.text(&b.infoURL, "info_url", 0, 2048)
	f.text(&b.iconURL, "remote_icon_url", 0, 2048)
	f.boolean(&b.isSoft, "is_soft")
}

// badgeFilters are the filters of GET /badges: query, the Badges whose name contains it,
// case-insensitively.
var badgeFilters = []filter[badge]{
	byTest("query", func(text string, _ fieldErrors) func(*badge) bool {
		q := strings.ToLower(strings.TrimSpace(text))
		return func(b *badge) bool { return strings.Contains(strings.ToLower(b.name), q) }
	}),
}

// deleteBadge serves DELETE /api_v2/badges/:id, answering the deleted Badge. A Badge that a Job
// Request requires is a 422; the Workers holding it lose it.
func (s *Server) deleteBadge(c *call) (any, error) {
	r := s.badges()
	var out badgeJSON
	err := s.st.write(func(tx *tx) error {
		b, err := r.find(tx.view, c)
		if err != nil {
			return err
		}
		requiring := scan(tx.view, &tx.st.jobRequests, func(jr *jobRequest) bool { return jr.requires(b.id) }, 1)
		if len(requiring) > 0 {
			return invalid("badge", "is required by job request "+itoa(requiring[0].id))
		}
		remove(tx, &tx.st.badges, b.id)
		for _, holder := range scan(tx.view, &tx.st.users, func(u *user) bool { return u.holds(b.id) }, 0) {
			u, _ := tx.editUser(holder.id)
			u.badges = slices.DeleteFunc(u.badges, func(h userBadge) bool { return h.badgeID == b.id })
		}
		out = renderBadge(b)
		return nil
	})
	return wrap("badge", out, err)
}

// missingBadges names the Badges jr requires that worker does not hold ("" when none).
func missingBadges(v view, jr *jobRequest, worker *user) string {
	var missing []string
	for _, r := range jr.badges {
		if id := r.badgeID; !worker.holds(id) {
			name := ""
			if b, ok := v.badge(id); ok {
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
