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
	asked := pagesOf(t, m, "messages", 50, 50)
	n := 0
	for msg, err := range c.Messages.All(context.Background(), &workforce.MessageListOptions{JobID: 42}) {
		require.NoError(t, err)
		require.NotNil(t, msg)
		n++
	}
	assert.Equal(t, 100, n)
	assert.Equal(t, []string{
		"job_id=42&page=1&per=50", "job_id=42&page=2&per=50", "job_id=42&page=3&per=50",
	}, *asked, "an empty page ends the iteration")
}
