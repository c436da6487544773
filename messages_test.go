package workforce_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// messageJSON is a Message with a field the SDK does not model.
const messageJSON = `{"id": 5, "job_id": 42, "sender_id": 7, "receiver_id": 3, "body": "On my way",
  "image_url": "https://img.example.com/gate.jpg", "read_at": null,
  "created_at": "2026-11-20T10:00:00.250-08:00", "delivered_via": "push"}`

func TestMessagesList(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/messages", got.respond(200, `{"messages": [`+messageJSON+`]}`))

	msgs, resp, err := c.Messages.List(context.Background(), &workforce.MessageListOptions{
		ListOptions: workforce.ListOptions{Page: 3, Per: 1}, JobID: 42, SenderID: 7, ReceiverID: 3,
	})
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	assert.Equal(t, 4, resp.NextPage, "a full page may have a successor")
	assert.Equal(t, "/api_v2/messages", got.req.URL.Path)
	assert.Equal(t, map[string][]string{
		"page": {"3"}, "per": {"1"}, "job_id": {"42"}, "sender_id": {"7"}, "receiver_id": {"3"}, "token": {testToken},
	}, map[string][]string(got.req.URL.Query()))
}

func TestMessagesGetDecodes(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/messages/5", got.respond(200, `{"message": `+messageJSON+`}`))

	msg, _, err := c.Messages.Get(context.Background(), 5)
	require.NoError(t, err)
	assert.Equal(t, http.MethodGet, got.req.Method)
	assert.Equal(t, workforce.Message{
		ID: 5, JobID: 42, SenderID: 7, ReceiverID: 3, Body: "On my way", ImageURL: "https://img.example.com/gate.jpg",
		CreatedAt: msg.CreatedAt, Raw: msg.Raw,
	}, *msg)
	assert.True(t, msg.ReadAt.IsZero(), "null is unread")
	assert.Equal(t, time.Date(2026, 11, 20, 18, 0, 0, 25e7, time.UTC), msg.CreatedAt.UTC())
	assert.JSONEq(t, `"push"`, string(rawField(t, msg.Raw, "delivered_via")))
}

func TestMessagesCreate(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/messages", got.respond(200, `{"message": `+messageJSON+`}`))
	ctx := context.Background()

	msg, _, err := c.Messages.Create(ctx, &workforce.MessageCreate{Body: "On my way", JobID: 42, SenderID: 7, ReceiverID: 3})
	require.NoError(t, err)
	assert.Equal(t, int64(5), msg.ID)
	assert.Equal(t, "application/json", got.req.Header.Get("Content-Type"))
	assert.Equal(t, map[string]any{"message": map[string]any{
		"body": "On my way", "job_id": float64(42), "sender_id": float64(7), "receiver_id": float64(3),
	}}, got.jsonBody(t), "unset optional fields are not sent")

	read := time.Date(2026, 11, 20, 10, 0, 0, 5e8, time.FixedZone("PST", -8*3600))
	_, _, err = c.Messages.Create(ctx, &workforce.MessageCreate{
		Body: "See photo", JobID: 42, SenderID: 3, ReceiverID: 7, ImageURL: "https://img.example.com/1.jpg", ReadAt: read,
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"message": map[string]any{
		"body": "See photo", "job_id": float64(42), "sender_id": float64(3), "receiver_id": float64(7),
		"image_url": "https://img.example.com/1.jpg", "read_at": "2026-11-20T10:00:00.5-08:00",
	}}, got.jsonBody(t))
}

func TestMessagesAll(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithPageWindow(1)) // pages asked one by one, in order
	asked := servePages(t, m, "messages", 50, 50)
	ids := walk(t, c.Messages.All(context.Background(), &workforce.MessageListOptions{JobID: 42}),
		func(m *workforce.Message) int64 { return m.ID })
	assertNewestFirst(t, ids)
	assert.Len(t, ids, 100)
	assert.Equal(t, []string{"1/50?job_id=42", "2/50?job_id=42", "3/50?job_id=42"}, *asked, "an empty page ends the iteration")
}

func TestMessagesRoundTripThroughTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
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
	assert.Contains(t, fieldErrors(t, err), "receiver_id")

	pub, err := srv.PublicClient()
	require.NoError(t, err)
	_, _, err = pub.Messages.Get(ctx, first.ID)
	assert.ErrorIs(t, err, workforce.ErrNotFound, "not a Job the Public Pool sees")
	_, _, err = tokenOnly(t, srv).Messages.List(ctx, nil)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
}

// TestMessagesRefusedBeforeIO checks every argument rule of Messages: each is refused with an
// *ArgumentError naming the field, and nothing is sent.
func TestMessagesRefusedBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	message := func(change func(*workforce.MessageCreate)) func() error {
		return func() error {
			msg := &workforce.MessageCreate{Body: "On my way", JobID: 42, SenderID: 7, ReceiverID: 3}
			change(msg)
			_, _, err := c.Messages.Create(ctx, msg)
			return err
		}
	}
	listMessages := func(o workforce.MessageListOptions) func() error {
		return func() error { _, _, err := c.Messages.List(ctx, &o); return err }
	}
	assertRefused(t, m, []refusal{
		{"messages: per over 50", "Per", listMessages(workforce.MessageListOptions{ListOptions: workforce.ListOptions{Per: 60}})},
		{"messages: negative job filter", "JobID", listMessages(workforce.MessageListOptions{JobID: -1})},
		{"messages: negative sender filter", "SenderID", listMessages(workforce.MessageListOptions{SenderID: -1})},
		{"messages: negative receiver filter", "ReceiverID", listMessages(workforce.MessageListOptions{ReceiverID: -1})},
		{"messages: all from a negative page", "Page", func() error {
			for _, err := range c.Messages.All(ctx, &workforce.MessageListOptions{ListOptions: workforce.ListOptions{Page: -1}}) {
				return err
			}
			return nil
		}},
		{"message get id 0", "id", func() error { _, _, err := c.Messages.Get(ctx, 0); return err }},
		{"message create nil", "MessageCreate", func() error { _, _, err := c.Messages.Create(ctx, nil); return err }},
		{"message no body", "Body", message(func(msg *workforce.MessageCreate) { msg.Body = " \n" })},
		{"message no job", "JobID", message(func(msg *workforce.MessageCreate) { msg.JobID = 0 })},
		{"message no sender", "SenderID", message(func(msg *workforce.MessageCreate) { msg.SenderID = 0 })},
		{"message negative receiver", "ReceiverID", message(func(msg *workforce.MessageCreate) { msg.ReceiverID = -3 })},
	})
}
