package workforce

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
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
	return firstError(checkNotNegative("JobID", o.JobID), checkNotNegative("SenderID", o.SenderID),
		checkNotNegative("ReceiverID", o.ReceiverID), o.ListOptions.check())
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

// check refuses a Message without its text or its three IDs; it only
// ever creates.
func (m *MessageCreate) check(bool) error {
	if err := checkPresent("MessageCreate", m); err != nil {
		return err
	}
	return firstError(checkRequired("Body", m.Body), checkID("JobID", m.JobID), checkID("SenderID", m.SenderID),
		checkID("ReceiverID", m.ReceiverID))
}

// List returns one page of Messages, newest first.
//
// API: GET /messages
func (s *MessagesService) List(ctx context.Context, opts *MessageListOptions) ([]*Message, *Response, error) {
	return call[[]*Message](ctx, s.client, list(messages, opts))
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
	return call[*Message](ctx, s.client, messages.get(id))
}

// Create sends a Message about a Job. A sender or receiver who is not one
// of the Job's two parties gets ErrUnprocessable.
//
// When the error matches ErrOutcomeUnknown the Message may have been sent:
// Settle tells whether this call sent it, before sending it again.
//
// API: POST /messages
func (s *MessagesService) Create(ctx context.Context, message *MessageCreate) (*Message, *Response, error) {
	return call[*Message](ctx, s.client, messages.create(message))
}

// Settle returns the Message that a Create of message, which failed with
// err matching ErrOutcomeUnknown, sent, or an error matching ErrNotFound
// when it sent none. Only a Message on the same Job, sender, receiver and
// text, made since the call began, counts (docs/settling.md): the same
// text sent earlier is not this call's. err must be the create's own error.
//
// API: GET /info, then GET /messages with job_id, sender_id and
// receiver_id
func (s *MessagesService) Settle(ctx context.Context, message *MessageCreate, err error) (*Message, error) {
	if e := message.check(true); e != nil {
		return nil, e
	}
	what := fmt.Sprintf("Message from user %d to user %d about job %d", message.SenderID, message.ReceiverID, message.JobID)
	return settle(ctx, s.client, err, what, func(floor time.Time) (*Message, bool, error) {
		opts := &MessageListOptions{JobID: message.JobID, SenderID: message.SenderID, ReceiverID: message.ReceiverID}
		// A Message is never changed (the API has no update of one), so
		// what it was sent with still tells it.
		return settleIn(s.All(ctx, opts), floor, "Message", func(m *Message) Time { return m.CreatedAt }, func(m *Message) verdict {
			if m.JobID == message.JobID && m.SenderID == message.SenderID && m.ReceiverID == message.ReceiverID &&
				strings.TrimSpace(m.Body) == strings.TrimSpace(message.Body) {
				return theCall
			}
			return notTheCall
		})
	})
}
