package workforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// tokenOnly answers a client of srv holding only token, which the fake does not know: every
// call is a 401 it cannot recover from, having no keys.
func tokenOnly(t *testing.T, srv *workforcetest.Server) *workforce.Client {
	t.Helper()
	c, err := workforce.New("", "", workforce.WithBaseURL(srv.URL), workforce.WithToken("not-a-token-the-fake-gave"),
		workforce.WithRetry(0, 0, 0))
	require.NoError(t, err)
	return c
}

// fieldErr answers the field errors of err, an *APIError.
func fieldErr(t *testing.T, err error) map[string][]string {
	t.Helper()
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	return apiErr.FieldErrors
}

func TestE2EUsers(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	u, _, err := c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Zoë", LastName: "Hale",
		Email: "zoe.hale@example.com", AddressState: "IL", DrugTested: workforce.Ptr(true),
		Password: "correct-horse", PasswordConfirmation: "correct-horse",
		UserBadgesAttributes: []workforce.UserBadgeAttributes{{BadgeID: seed.BadgeID}}})
	require.NoError(t, err)
	assert.Equal(t, workforce.UserWorker, u.Type)
	assert.Equal(t, "Zoë", u.FirstName)
	assert.Equal(t, "IL", u.AddressState)
	assert.True(t, u.DrugTested)
	require.Len(t, u.UserBadges, 1)
	assert.Equal(t, seed.BadgeID, u.UserBadges[0].BadgeID)
	assert.Equal(t, u.ID, u.UserBadges[0].UserID)
	assert.NotContains(t, string(u.Raw), "correct-horse")
	for _, req := range srv.Requests() {
		assert.NotContains(t, string(req.Body), "correct-horse", "the fake's log hides passwords")
	}

	got, _, err := c.Users.Get(ctx, u.ID)
	require.NoError(t, err)
	assert.Equal(t, u.Email, got.Email)

	srv.Advance(time.Second)
	updated, _, err := c.Users.Update(ctx, u.ID, &workforce.UserUpdate{City: "Chicago", Suspended: workforce.Ptr(true)})
	require.NoError(t, err)
	assert.Equal(t, "Chicago", updated.City)
	assert.True(t, updated.Suspended)
	assert.False(t, updated.SuspendedAt.IsZero())
	assert.True(t, updated.UpdatedAt.After(u.UpdatedAt.Time))

	invited, _, err := c.Users.Invite(ctx, &workforce.UserInvite{Type: workforce.UserWorker, Phone: "+13125550123",
		FirstName: "Gus", LastName: "Hale", ExternalID: "EXT-77"})
	require.NoError(t, err)
	assert.Equal(t, "invited", invited.OnboardingLastState)

	found, _, err := c.Users.List(ctx, &workforce.UserListOptions{LastName: []string{"Hale"}, Type: workforce.UserWorker})
	require.NoError(t, err)
	require.Len(t, found, 2)
	assert.Equal(t, []int64{invited.ID, u.ID}, []int64{found[0].ID, found[1].ID}, "newest first")
	found, _, err = c.Users.List(ctx, &workforce.UserListOptions{Email: []string{"WORKER1@example.com", "zoe.hale@example.com"}})
	require.NoError(t, err)
	assert.Len(t, found, 2, "several values, any of them, emails in any case")
	found, _, err = c.Users.List(ctx, &workforce.UserListOptions{DrugTested: []string{"true"}, AddressState: []string{"IL"}})
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, u.ID, found[0].ID)

	_, _, err = c.Users.Get(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.Users.Update(ctx, u.ID, &workforce.UserUpdate{CustomerID: 99999})
	assert.ErrorIs(t, err, workforce.ErrUnprocessable)
	assert.Contains(t, fieldErr(t, err), "customer_id")
	_, _, err = c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserEmployer, FirstName: "A", LastName: "B",
		Email: "a@example.com", UserBadgesAttributes: []workforce.UserBadgeAttributes{{BadgeID: 99999}}})
	assert.ErrorIs(t, err, workforce.ErrUnprocessable)
	assert.Contains(t, fieldErr(t, err), "user_badges_attributes")

	_, _, err = tokenOnly(t, srv).Users.List(ctx, nil)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
}

func TestE2EUsersPublicPool(t *testing.T) {
	t.Parallel()
	srv, _ := fake(t)
	ctx := context.Background()
	seed := srv.Seed()
	pub, err := srv.PublicClient()
	require.NoError(t, err)

	var ids []int64
	for u, err := range pub.Users.All(ctx, nil) {
		require.NoError(t, err)
		ids = append(ids, u.ID)
	}
	assert.Equal(t, []int64{seed.WorkerIDs[0]}, ids, "only the Workers of its own active Jobs")
	_, _, err = pub.Users.Get(ctx, seed.WorkerIDs[1])
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = pub.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "A", LastName: "B", Phone: "+1555"})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.Users.Invite(ctx, &workforce.UserInvite{Type: workforce.UserWorker, Phone: "+1555", FirstName: "A", LastName: "B"})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.Users.Update(ctx, seed.WorkerIDs[0], &workforce.UserUpdate{City: "X"})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.Users.Tracking(ctx, seed.WorkerIDs[0])
	assert.ErrorIs(t, err, workforce.ErrForbidden)
}

func TestE2EUsersAllAcrossPages(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	want := map[int64]bool{}
	for i := range 60 {
		u, _, err := c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Page",
			LastName: fmt.Sprintf("W%d", i), Phone: "+1555" + fmt.Sprint(i)})
		require.NoError(t, err)
		want[u.ID] = true
	}
	srv.ResetRequests()
	var got []int64
	for u, err := range c.Users.All(ctx, &workforce.UserListOptions{FirstName: []string{"Page"}}) {
		require.NoError(t, err)
		got = append(got, u.ID)
	}
	require.Len(t, got, 60)
	for i, id := range got {
		assert.True(t, want[id])
		if i > 0 {
			assert.Less(t, id, got[i-1], "newest first, no repeats")
		}
	}
	assert.GreaterOrEqual(t, len(srv.Requests()), 2, "two pages of 50")
}

func TestE2ETracking(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()
	job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[3], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)
	require.NoError(t, srv.StartJobAt(job.ID, workforcetest.Position{Latitude: 41.8781, Longitude: -87.6298}))
	srv.Advance(4 * time.Hour)
	require.NoError(t, srv.CompleteAt(job.ID, workforcetest.Position{Latitude: 41.88, Longitude: -87.63}))

	points, _, err := c.Users.Tracking(ctx, seed.WorkerIDs[3])
	require.NoError(t, err)
	require.Len(t, points, 2)
	assert.Equal(t, job.ID, points[0].JobID)
	assert.Equal(t, "41.88", points[0].Latitude.String(), "newest first")
	assert.Equal(t, "41.8781", points[1].Latitude.String())
	assert.Equal(t, "-87.6298", points[1].Longitude.String())
	assert.Equal(t, 4*time.Hour, points[0].RecordedAt.Sub(points[1].RecordedAt.Time))

	none, _, err := c.Users.Tracking(ctx, seed.WorkerIDs[4])
	require.NoError(t, err)
	assert.Empty(t, none)
	_, _, err = c.Users.Tracking(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = tokenOnly(t, srv).Users.Tracking(ctx, seed.WorkerIDs[3])
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
}

func TestE2EMessages(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()
	job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)

	readAt := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	first, _, err := c.Messages.Create(ctx, &workforce.MessageCreate{Body: "Gate B at 7", JobID: job.ID,
		SenderID: seed.EmployerID, ReceiverID: seed.WorkerIDs[1], ReadAt: readAt})
	require.NoError(t, err)
	assert.Equal(t, "Gate B at 7", first.Body)
	assert.True(t, first.ReadAt.Equal(readAt))
	var ids []int64
	for range 55 {
		m, _, err := c.Messages.Create(ctx, &workforce.MessageCreate{Body: "ok", JobID: job.ID,
			SenderID: seed.WorkerIDs[1], ReceiverID: seed.EmployerID})
		require.NoError(t, err)
		ids = append([]int64{m.ID}, ids...)
	}
	ids = append(ids, first.ID)

	var got []int64
	for m, err := range c.Messages.All(ctx, &workforce.MessageListOptions{JobID: job.ID}) {
		require.NoError(t, err)
		got = append(got, m.ID)
	}
	assert.Equal(t, ids, got, "every Message across two pages, newest first")
	page, _, err := c.Messages.List(ctx, &workforce.MessageListOptions{SenderID: seed.EmployerID, ReceiverID: seed.WorkerIDs[1]})
	require.NoError(t, err)
	require.Len(t, page, 1)
	assert.Equal(t, first.ID, page[0].ID)

	again, _, err := c.Messages.Get(ctx, first.ID)
	require.NoError(t, err)
	assert.Equal(t, first.Body, again.Body)
	_, _, err = c.Messages.Get(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.Messages.Create(ctx, &workforce.MessageCreate{Body: "hi", JobID: job.ID, SenderID: seed.EmployerID,
		ReceiverID: seed.WorkerIDs[2]})
	assert.ErrorIs(t, err, workforce.ErrUnprocessable, "only the Job's Worker and its employer talk")
	assert.Contains(t, fieldErr(t, err), "receiver_id")

	pub, err := srv.PublicClient()
	require.NoError(t, err)
	_, _, err = pub.Messages.Get(ctx, first.ID)
	assert.ErrorIs(t, err, workforce.ErrNotFound, "not a Job the Public Pool sees")
	_, _, err = tokenOnly(t, srv).Messages.List(ctx, nil)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
}

func TestE2ESearch(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()
	res, _, err := c.Search.Query(ctx, "forklift")
	require.NoError(t, err)
	require.Len(t, res.Badges, 1)
	assert.Equal(t, seed.BadgeID, res.Badges[0].ID)
	require.Len(t, res.JobRequests, 1)
	assert.Equal(t, seed.BadgeJobRequestID, res.JobRequests[0].ID)
	assert.Empty(t, res.Users)
	assert.Empty(t, res.Customers)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(res.Raw, &raw))
	assert.Len(t, raw, 4, "every kind's list is present")

	res, _, err = c.Search.Query(ctx, "Harbor")
	require.NoError(t, err)
	require.Len(t, res.Customers, 1)
	assert.Equal(t, seed.PendingCustomerID, res.Customers[0].ID)
	require.Len(t, res.Users, 1)
	assert.Equal(t, seed.PendingEmployerID, res.Users[0].ID)

	pub, err := srv.PublicClient()
	require.NoError(t, err)
	res, _, err = pub.Search.Query(ctx, "example.com")
	require.NoError(t, err)
	require.Len(t, res.Users, 1)
	assert.Equal(t, seed.WorkerIDs[0], res.Users[0].ID, "the Public Pool finds only whom it may see")

	_, _, err = c.Search.Query(ctx, "  ")
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
	_, _, err = tokenOnly(t, srv).Search.Query(ctx, "a")
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
}
