package workforce

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"time"
)

// MessagesService reads and sends Messages between a Job's Worker and its
// Job Request's Employer.
type MessagesService service

// A Message is a text, with perhaps an image, sent about a Job.
type Message struct {
	ID         int64  `json:"id"`
	JobID      int64  `json:"job_id"`
	SenderID   int64  `json:"sender_id"`
	ReceiverID int64  `json:"receiver_id"`
	Body       string `json:"body"`
	ImageURL   string `json:"image_url"`
	// ReadAt is when the receiver read it; zero while unread.
	ReadAt    Time `json:"read_at"`
	CreatedAt Time `json:"created_at"`

	// Raw is the Message's JSON document as received, with every field,
	// including those this type does not model.
	Raw json.RawMessage `json:"-"`
}

func (m *Message) setRaw(b json.RawMessage) { m.Raw = b }
func (m *Message) listID() int64            { return m.ID }

// MessageListOptions filters and pages GET /messages. Zero fields are not
// sent.
type MessageListOptions struct {
	ListOptions
	// JobID selects the Messages about one Job.
	JobID int64 `url:"job_id,omitempty"`
	// SenderID and ReceiverID select the Messages one User sent or got.
	SenderID   int64 `url:"sender_id,omitempty"`
	ReceiverID int64 `url:"receiver_id,omitempty"`
}

func (o *MessageListOptions) check() error {
	for _, id := range messageIDs(o.JobID, o.SenderID, o.ReceiverID) {
		if id.value < 0 {
			return &ArgumentError{Name: id.name, Reason: fmt.Sprintf("must not be negative, got %d", id.value)}
		}
	}
	return o.ListOptions.check()
}

// An idArg is an ID argument and its name, for checks.
type idArg struct {
	name  string
	value int64
}

// messageIDs names a Message's job, sender and receiver IDs.
func messageIDs(job, sender, receiver int64) []idArg {
	return []idArg{{"JobID", job}, {"SenderID", sender}, {"ReceiverID", receiver}}
}

// MessageCreate is the body of POST /messages. Body, JobID, SenderID and
// ReceiverID are required; the sender and the receiver are the Job's Worker
// and its Job Request's Employer, either way round.
type MessageCreate struct {
	// Body is the text; it may not be empty.
	Body string `json:"body"`
	// JobID is the Job the Message is about.
	JobID int64 `json:"job_id"`
	// SenderID and ReceiverID are the Users who send and get it.
	SenderID   int64 `json:"sender_id"`
	ReceiverID int64 `json:"receiver_id"`
	// ImageURL, if set, is an image sent with the text.
	ImageURL string `json:"image_url,omitempty"`
	// ReadAt, if set, marks the Message read at that time.
	ReadAt time.Time `json:"read_at,omitzero"`
}

func (m *MessageCreate) check() error {
	if m == nil {
		return &ArgumentError{Name: "MessageCreate", Reason: "is required"}
	}
	if err := required(field{"Body", m.Body}); err != nil {
		return err
	}
	for _, id := range messageIDs(m.JobID, m.SenderID, m.ReceiverID) {
		if err := checkID(id.name, id.value); err != nil {
			return err
		}
	}
	return nil
}

// List returns one page of Messages, newest first.
//
// API: GET /messages
func (s *MessagesService) List(ctx context.Context, opts *MessageListOptions) ([]*Message, *Response, error) {
	if opts == nil {
		opts = &MessageListOptions{}
	}
	if err := opts.check(); err != nil {
		return nil, nil, err
	}
	return list[*Message](ctx, s.client, messages, opts, opts.ListOptions)
}

// All iterates over every Message that opts selects, from opts.Page on,
// fetching pages of 50 as it goes. opts.Per is ignored. The iteration ends
// at the first error, which it yields.
//
// API: GET /messages
func (s *MessagesService) All(ctx context.Context, opts *MessageListOptions) iter.Seq2[*Message, error] {
	return allPages(ctx, s.client, opts, s.List)
}

// Get returns one Message.
//
// API: GET /messages/:id
func (s *MessagesService) Get(ctx context.Context, id int64) (*Message, *Response, error) {
	if err := checkID("id", id); err != nil {
		return nil, nil, err
	}
	return call[*Message](ctx, s.client, request{method: http.MethodGet, path: fmt.Sprintf("messages/%d", id), key: "message"})
}

// Create sends a Message about a Job. A sender or receiver who is not one
// of the Job's two parties answers ErrUnprocessable.
//
// When the error matches ErrOutcomeUnknown the Message may have been sent:
// Settle tells whether this call sent it, before sending it again.
//
// API: POST /messages
func (s *MessagesService) Create(ctx context.Context, message *MessageCreate) (*Message, *Response, error) {
	if err := message.check(); err != nil {
		return nil, nil, err
	}
	body := map[string]*MessageCreate{"message": message}
	return call[*Message](ctx, s.client, request{method: http.MethodPost, path: "messages", body: body, key: "message", create: true})
}

// Settle answers the Message that a Create of message, which failed with
// err matching ErrOutcomeUnknown, sent; or an error matching ErrNotFound
// when it sent none, so that sending it again cannot send it twice (see
// JobsService.Settle for the pattern). The Message it answers is about the
// same Job, from the same sender to the same receiver, with the same text,
// and was made at or after the call began by the server's clock (see
// "Settle a write" in the package documentation): the same text sent
// earlier is not this call's. err must be the create's own error, which
// records when its call began.
//
// API: GET /info, then GET /messages with job_id, sender_id and
// receiver_id
func (s *MessagesService) Settle(ctx context.Context, message *MessageCreate, err error) (*Message, error) {
	if e := message.check(); e != nil {
		return nil, e
	}
	floor, e := s.client.settleFloor(ctx, err)
	if e != nil {
		return nil, e
	}
	opts := &MessageListOptions{JobID: message.JobID, SenderID: message.SenderID, ReceiverID: message.ReceiverID}
	return settleIn(s.All(ctx, opts), floor, func(m *Message) Time { return m.CreatedAt }, func(m *Message) bool {
		return m.JobID == message.JobID && m.SenderID == message.SenderID && m.ReceiverID == message.ReceiverID &&
			strings.TrimSpace(m.Body) == strings.TrimSpace(message.Body)
	}, fmt.Sprintf("Message from user %d to user %d about job %d", message.SenderID, message.ReceiverID, message.JobID))
}
