package workforce_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

const badgeJSON = `{"id": 2, "name": "Forklift", "description": "Certified forklift driver",
  "icon_url": "https://cdn.example.com/f.png", "info_url": "https://example.com/f", "is_soft": true,
  "created_at": "2026-11-20T10:00:00Z", "updated_at": "2026-11-21T10:00:00.250-05:00", "level": 3}`

func TestBadgesSendAndDecodeEveryEndpoint(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	var list, create, update, del capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/badges", list.respond(200, `{"badges": [`+badgeJSON+`]}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/badges/2", httpmock.NewStringResponder(200, `{"badge": `+badgeJSON+`}`))
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/badges", create.respond(200, `{"badge": `+badgeJSON+`}`))
	m.RegisterResponder(http.MethodPatch, mockBase+"/api_v2/badges/2", update.respond(200, `{"badge": `+badgeJSON+`}`))
	m.RegisterResponder(http.MethodDelete, mockBase+"/api_v2/badges/2", del.respond(200, `{"badge": `+badgeJSON+`}`))

	found, resp, err := c.Badges.List(ctx, &workforce.BadgeListOptions{Query: "fork", ListOptions: workforce.ListOptions{Page: 3, Per: 1}})
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, 4, resp.NextPage, "a full page may have a successor")
	assert.Equal(t, map[string][]string{"query": {"fork"}, "page": {"3"}, "per": {"1"}, "token": {testToken}},
		map[string][]string(list.req.URL.Query()))

	b, _, err := c.Badges.Get(ctx, 2)
	require.NoError(t, err)
	assert.Equal(t, "Forklift", b.Name)
	assert.Equal(t, "Certified forklift driver", b.Description)
	assert.Equal(t, "https://cdn.example.com/f.png", b.IconURL)
	assert.Equal(t, "https://example.com/f", b.InfoURL)
	assert.True(t, b.IsSoft)
	assert.Equal(t, time.Date(2026, 11, 21, 15, 0, 0, 250e6, time.UTC), b.UpdatedAt.UTC())
	assertKept(t, b.Raw, "level", "3")

	_, _, err = c.Badges.Create(ctx, &workforce.BadgeParams{Name: "Forklift", Description: "Certified",
		InfoURL: "https://example.com/f", RemoteIconURL: "https://cdn.example.com/f.png", IsSoft: workforce.Ptr(false)})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"badge": map[string]any{"name": "Forklift", "description": "Certified",
		"info_url": "https://example.com/f", "remote_icon_url": "https://cdn.example.com/f.png", "is_soft": false}}, create.jsonBody(t))

	_, _, err = c.Badges.Update(ctx, 2, &workforce.BadgeParams{Description: "Certified, 2026"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"badge": map[string]any{"description": "Certified, 2026"}}, update.jsonBody(t))

	deleted, _, err := c.Badges.Delete(ctx, 2)
	require.NoError(t, err)
	assert.Equal(t, int64(2), deleted.ID)
	assert.Empty(t, del.body)
}

func TestBadgesRoundTripThroughTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	created, _, err := c.Badges.Create(ctx, &workforce.BadgeParams{Name: "Food Handler", Description: "Holds a food handler card.",
		InfoURL: "https://badges.example.com/food", RemoteIconURL: "https://badges.example.com/food.png", IsSoft: workforce.Ptr(true)})
	require.NoError(t, err)
	assert.Positive(t, created.ID)
	assert.Equal(t, "Food Handler", created.Name)
	assert.Equal(t, "Holds a food handler card.", created.Description)
	assert.Equal(t, "https://badges.example.com/food", created.InfoURL)
	assert.Equal(t, "https://badges.example.com/food.png", created.IconURL, "remote_icon_url becomes icon_url")
	assert.True(t, created.IsSoft)
	assert.True(t, created.CreatedAt.Equal(srv.Now()))
	assert.True(t, created.UpdatedAt.Equal(created.CreatedAt.Time))

	got, _, err := c.Badges.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, created.Name, got.Name)
	assert.Equal(t, created.IconURL, got.IconURL)
	seeded, _, err := c.Badges.Get(ctx, seed.BadgeID)
	require.NoError(t, err)
	assert.Equal(t, "Forklift Certified", seeded.Name)
	assert.Equal(t, "https://badges.example.com/forklift", seeded.InfoURL)
	assert.Empty(t, seeded.IconURL, "null decodes to empty")
	assert.False(t, seeded.IsSoft)

	srv.Advance(time.Minute)
	updated, _, err := c.Badges.Update(ctx, created.ID, &workforce.BadgeParams{Description: "Holds a current food handler card.",
		IsSoft: workforce.Ptr(false)})
	require.NoError(t, err)
	assert.Equal(t, "Holds a current food handler card.", updated.Description)
	assert.False(t, updated.IsSoft, "Ptr(false) is sent")
	assert.Equal(t, "Food Handler", updated.Name)
	assert.True(t, updated.UpdatedAt.After(created.UpdatedAt.Time))

	page, _, err := c.Badges.List(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page, 2)
	assert.Equal(t, []int64{created.ID, seed.BadgeID}, []int64{page[0].ID, page[1].ID}, "newest first")
	page, _, err = c.Badges.List(ctx, &workforce.BadgeListOptions{Query: "forklift"})
	require.NoError(t, err)
	require.Len(t, page, 1, "query selects by name, in any case")
	assert.Equal(t, seed.BadgeID, page[0].ID)
	page, _, err = c.Badges.List(ctx, &workforce.BadgeListOptions{Query: "no such badge"})
	require.NoError(t, err)
	assert.Empty(t, page)

	// 422: a name over 255 characters; deleting a Badge a Job Request requires.
	_, _, err = c.Badges.Create(ctx, &workforce.BadgeParams{Name: strings.Repeat("b", 256), Description: "Too long."})
	assert.Contains(t, fieldErrors(t, err), "name")
	_, _, err = c.Badges.Update(ctx, created.ID, &workforce.BadgeParams{InfoURL: "https://example.com/" + strings.Repeat("u", 2048)})
	assert.Contains(t, fieldErrors(t, err), "info_url")
	_, _, err = c.Badges.Delete(ctx, seed.BadgeID)
	assert.Contains(t, fieldErrors(t, err), "badge")
	_, _, err = c.Badges.Get(ctx, seed.BadgeID)
	require.NoError(t, err, "a refused delete leaves the Badge")

	// Delete answers the Badge as it was; the Workers holding it lose it.
	require.NoError(t, srv.GrantBadge(seed.WorkerIDs[0], created.ID))
	deleted, _, err := c.Badges.Delete(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, created.ID, deleted.ID)
	assert.Equal(t, "Food Handler", deleted.Name)
	assert.Equal(t, "Holds a current food handler card.", deleted.Description)
	worker, _, err := c.Users.Get(ctx, seed.WorkerIDs[0])
	require.NoError(t, err)
	for _, b := range worker.UserBadges {
		assert.NotEqual(t, created.ID, b.BadgeID)
	}

	// 404
	_, _, err = c.Badges.Get(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrNotFound, "deleted")
	_, _, err = c.Badges.Delete(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrNotFound, "deleted already")
	_, _, err = c.Badges.Update(ctx, 99999, &workforce.BadgeParams{Name: "Ghost"})
	assert.ErrorIs(t, err, workforce.ErrNotFound)

	// 401
	bad := tokenOnly(t, srv)
	_, _, err = bad.Badges.List(ctx, nil)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Badges.Get(ctx, seed.BadgeID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Badges.Create(ctx, &workforce.BadgeParams{Name: "X", Description: "Y"})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Badges.Update(ctx, seed.BadgeID, &workforce.BadgeParams{Name: "X"})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Badges.Delete(ctx, seed.BadgeID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	still, _, err := c.Badges.Get(ctx, seed.BadgeID)
	require.NoError(t, err)
	assert.Equal(t, "Forklift Certified", still.Name, "refused calls changed nothing")
}

func TestBadgesAllWalksTheFakesPages(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()

	const n = 55
	created := make([]int64, n)
	for i := range n {
		b, _, err := c.Badges.Create(ctx, &workforce.BadgeParams{Name: fmt.Sprintf("Skill %02d", i), Description: "A skill."})
		require.NoError(t, err)
		created[i] = b.ID
	}
	ids := walk(t, c.Badges.All(ctx, nil), func(b *workforce.Badge) int64 { return b.ID })
	require.Len(t, ids, n+1, "every created Badge and the seeded one")
	assertNewestFirst(t, ids)
	assert.Equal(t, created[n-1], ids[0])
	pers, _ := listPages(srv, "/api_v2/badges")
	assert.Equal(t, []string{"50", "50"}, pers)

	skills := walk(t, c.Badges.All(ctx, &workforce.BadgeListOptions{Query: "SKILL"}), func(b *workforce.Badge) int64 { return b.ID })
	require.Len(t, skills, n, "the query holds on every page")
	assertNewestFirst(t, skills)
	queried := 0
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet && r.Path == "/api_v2/badges" && r.Query.Get("query") == "SKILL" {
			queried++
		}
	}
	assert.Equal(t, 2, queried, "both pages carry the query")
}

// TestBadgesRefusedBeforeIO checks every argument rule of Badges: each is refused with an
// *ArgumentError naming the field, and nothing is sent.
func TestBadgesRefusedBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	assertRefused(t, m, []refusal{
		{"badges per over 50", "Per", func() error {
			_, _, err := c.Badges.List(ctx, &workforce.BadgeListOptions{ListOptions: workforce.ListOptions{Per: 60}})
			return err
		}},
		{"badge get id 0", "id", func() error { _, _, err := c.Badges.Get(ctx, 0); return err }},
		{"badge delete id 0", "id", func() error { _, _, err := c.Badges.Delete(ctx, 0); return err }},
		{"badge create nil", "BadgeParams", func() error { _, _, err := c.Badges.Create(ctx, nil); return err }},
		{"badge create without name", "Name", func() error {
			_, _, err := c.Badges.Create(ctx, &workforce.BadgeParams{Description: "d"})
			return err
		}},
		{"badge create without description", "Description", func() error {
			_, _, err := c.Badges.Create(ctx, &workforce.BadgeParams{Name: "n"})
			return err
		}},
		{"badge update nothing", "BadgeParams", func() error {
			_, _, err := c.Badges.Update(ctx, 3, &workforce.BadgeParams{})
			return err
		}},
		{"badge update id 0", "id", func() error {
			_, _, err := c.Badges.Update(ctx, 0, &workforce.BadgeParams{Name: "n"})
			return err
		}},
	})
}

// TestBadgesAllWalksEveryPage checks that All walks every Badge, a page of 50 at a time, keeping the filter and the caller's options.
func TestBadgesAllWalksEveryPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, m := newMock(t, workforce.WithPageWindow(1)) // pages asked one by one, in order
	asked := servePages(t, m, "badges", 50, 50)
	opts := &workforce.BadgeListOptions{Query: "fork", ListOptions: workforce.ListOptions{Per: 5}}
	ids := walk(t, c.Badges.All(ctx, opts), func(v *workforce.Badge) int64 { return v.ID })
	assertNewestFirst(t, ids)
	assert.Len(t, ids, 100)
	assert.Equal(t, []string{"1/50?query=fork", "2/50?query=fork", "3/50?query=fork"}, *asked)
	assert.Equal(t, 5, opts.Per, "the caller's options are left as they were")
}
