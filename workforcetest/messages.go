package workforcetest

import (
	"strings"
	"time"
)

// message is a text between a Job's Worker and its Job Request's employer. Empty strings and
// zero times are null.
type message struct {
	stored
	jobID, senderID, receiverID int64
	body, imageURL              string
	readAt                      time.Time
}

// messages serves the Messages from the store: a token sees the Messages of the Jobs it sees,
// and Public Pool keys may write on those.
func (s *Server) messages() resource[message, messageJSON] {
	return resource[message, messageJSON]{
		st: s.st, one: "message", many: "messages", table: &s.st.messages,
		render: plain(renderMessage), read: readMessage, filters: messageFilters, publicWrites: true,
		visible: func(v view, m *message, p pool) bool {
			j, ok := v.job(m.jobID)
			return ok && j.visibleTo(p)
		},
	}
}

// readMessage reads message[…] into m and checks it: body, job_id, sender_id and receiver_id
// are required, the Job must be one the key sees, and the sender and the receiver must be its
// Worker and its Job Request's employer, either way round. read_at is RFC 3339.
func readMessage(tx *tx, f fields, m *message, _ int64) {
	f.text(&m.body, "body", 1, 5000)
	f.text(&m.imageURL, "image_url", 0, 2048)
	f.id(&m.jobID, "job_id")
	f.id(&m.senderID, "sender_id")
	f.id(&m.receiverID, "receiver_id")
	if s, ok := f.scalar("read_at", func() { m.readAt = time.Time{} }); ok && s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			f.fe.add("read_at", "must be an RFC 3339 date-time")
		}
		m.readAt = t.Truncate(time.Millisecond)
	}
	f.notBlank(map[string]string{"body": strings.TrimSpace(m.body), "job_id": idText(m.jobID),
		"sender_id": idText(m.senderID), "receiver_id": idText(m.receiverID)})
	if m.jobID == 0 || len(f.fe["job_id"]) > 0 {
		return
	}
	j, ok := tx.job(m.jobID)
	if !ok || !j.visibleTo(f.pool) {
		f.fe.add("job_id", "does not exist")
		return
	}
	var employerID int64
	if jr, ok := tx.jobRequest(j.jobRequestID); ok {
		employerID = jr.employerID
	}
	pair := func(a, b int64) bool { return a == j.workerID && b == employerID }
	if m.senderID != 0 && m.receiverID != 0 && !pair(m.senderID, m.receiverID) && !pair(m.receiverID, m.senderID) {
		f.fe.add("receiver_id", "sender and receiver must be the job's worker ("+itoa(j.workerID)+
			") and its employer ("+itoa(employerID)+")")
	}
}

// idText writes an id for notBlank: "" for 0.
func idText(id int64) string {
	if id == 0 {
		return ""
	}
	return itoa(id)
}

// messageFilters are the filters of GET /messages.
var messageFilters = []filter[message]{
	byKey("job_id", func(m *message) string { return itoa(m.jobID) }, false, asID("job_id")),
	byKey("sender_id", func(m *message) string { return itoa(m.senderID) }, false, asID("sender_id")),
	byKey("receiver_id", func(m *message) string { return itoa(m.receiverID) }, false, asID("receiver_id")),
}

// messageJSON is a Message as the API writes it (CONTRACT §6 Messages).
type messageJSON struct {
	ID         int64   `json:"id"`
	JobID      int64   `json:"job_id"`
	SenderID   int64   `json:"sender_id"`
	ReceiverID int64   `json:"receiver_id"`
	Body       string  `json:"body"`
	ImageURL   *string `json:"image_url"`
	ReadAt     *string `json:"read_at"`
	CreatedAt  string  `json:"created_at"`
}

// renderMessage writes m.
func renderMessage(m *message) messageJSON {
	return messageJSON{ID: m.id, JobID: m.jobID, SenderID: m.senderID, ReceiverID: m.receiverID, Body: m.body,
		ImageURL: optString(m.imageURL), ReadAt: optLocal(m.readAt), CreatedAt: localTime(m.createdAt)}
}
