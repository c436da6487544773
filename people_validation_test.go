package workforce_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// TestPeopleRefusedBeforeIO checks every rule of Users, Messages and
// Search: each refuses with an *ArgumentError naming the field, and
// nothing at all is sent, not even POST /authenticate.
func TestPeopleRefusedBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	const pw = "s3cret-made-up"
	// valid is a UserCreate that passes; each case changes one thing.
	valid := func(change func(*workforce.UserCreate)) *workforce.UserCreate {
		u := &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"}
		change(u)
		return u
	}
	create := func(change func(*workforce.UserCreate)) func() error {
		return func() error { _, _, err := c.Users.Create(ctx, valid(change)); return err }
	}
	update := func(u workforce.UserUpdate) func() error {
		return func() error { _, _, err := c.Users.Update(ctx, 7, &u); return err }
	}
	invite := func(change func(*workforce.UserInvite)) func() error {
		return func() error {
			u := &workforce.UserInvite{Type: workforce.UserWorker, Phone: "+15555550100", FirstName: "Ada", LastName: "Lovelace"}
			change(u)
			_, _, err := c.Users.Invite(ctx, u)
			return err
		}
	}
	listUsers := func(o workforce.UserListOptions) func() error {
		return func() error { _, _, err := c.Users.List(ctx, &o); return err }
	}
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
	firstOf := func(seq func(yield func(*workforce.User, error) bool)) func() error {
		return func() error {
			for _, err := range seq {
				return err
			}
			return nil
		}
	}

	cases := []struct {
		name  string
		field string
		run   func() error
	}{
		// Users: lists.
		{"list: per over 50", "Per", listUsers(workforce.UserListOptions{ListOptions: workforce.ListOptions{Per: 51}})},
		{"list: negative page", "Page", listUsers(workforce.UserListOptions{ListOptions: workforce.ListOptions{Page: -1}})},
		{"list: unknown type", "Type", listUsers(workforce.UserListOptions{Type: "Admin"})},
		{"list: comma in a value", "Email[1]", listUsers(workforce.UserListOptions{Email: []string{"a@example.com", "b@example.com,c@example.com"}})},
		{"list: empty value", "AddressState[0]", listUsers(workforce.UserListOptions{AddressState: []string{" "}})},
		{"all: negative page", "Page", firstOf(c.Users.All(ctx, &workforce.UserListOptions{ListOptions: workforce.ListOptions{Page: -2}}))},
		{"all: unknown type", "Type", firstOf(c.Users.All(ctx, &workforce.UserListOptions{Type: "worker"}))},
		// Users: path IDs.
		{"get id 0", "id", func() error { _, _, err := c.Users.Get(ctx, 0); return err }},
		{"get id -1", "id", func() error { _, _, err := c.Users.Get(ctx, -1); return err }},
		{"tracking id 0", "id", func() error { _, _, err := c.Users.Tracking(ctx, 0); return err }},
		{"update id -5", "id", func() error { _, _, err := c.Users.Update(ctx, -5, &workforce.UserUpdate{City: "Chicago"}); return err }},
		// Users: create.
		{"create nil", "UserCreate", func() error { _, _, err := c.Users.Create(ctx, nil); return err }},
		{"create no type", "Type", create(func(u *workforce.UserCreate) { u.Type = "" })},
		{"create unknown type", "Type", create(func(u *workforce.UserCreate) { u.Type = "Admin" })},
		{"create no first name", "FirstName", create(func(u *workforce.UserCreate) { u.FirstName = "  " })},
		{"create no last name", "LastName", create(func(u *workforce.UserCreate) { u.LastName = "" })},
		{"create no email nor phone", "Email", create(func(u *workforce.UserCreate) { u.Email = "" })},
		{"create name with a space", "FirstName", create(func(u *workforce.UserCreate) { u.FirstName = "Ada May" })},
		{"create name with an apostrophe", "LastName", create(func(u *workforce.UserCreate) { u.LastName = "O'Neil" })},
		{"create email that does not parse", "Email", create(func(u *workforce.UserCreate) { u.Email = "ada@" })},
		{"create email with a display name", "Email", create(func(u *workforce.UserCreate) { u.Email = "Ada <ada@example.com>" })},
		{"create email with spaces", "Email", create(func(u *workforce.UserCreate) { u.Email = " ada@example.com" })},
		{"create short password", "Password", create(func(u *workforce.UserCreate) { u.Password, u.PasswordConfirmation = "short7!", "short7!" })},
		{"create password unconfirmed", "PasswordConfirmation", create(func(u *workforce.UserCreate) { u.Password = pw })},
		{"create confirmation differs", "PasswordConfirmation", create(func(u *workforce.UserCreate) { u.Password, u.PasswordConfirmation = pw, pw+"x" })},
		{"create confirmation alone", "Password", create(func(u *workforce.UserCreate) { u.PasswordConfirmation = pw })},
		{"create negative customer", "CustomerID", create(func(u *workforce.UserCreate) { u.CustomerID = -1 })},
		{"create badge with no id", "UserBadgesAttributes[1].BadgeID", create(func(u *workforce.UserCreate) {
			u.UserBadgesAttributes = []workforce.UserBadgeAttributes{{BadgeID: 1}, {}}
		})},
		{"create badge destroy without id", "UserBadgesAttributes[0].ID", create(func(u *workforce.UserCreate) {
			u.UserBadgesAttributes = []workforce.UserBadgeAttributes{{BadgeID: 1, Destroy: true}}
		})},
		{"create negative badge", "UserBadgesAttributes[0]", create(func(u *workforce.UserCreate) {
			u.UserBadgesAttributes = []workforce.UserBadgeAttributes{{BadgeID: -1}}
		})},
		// Users: update.
		{"update nil", "UserUpdate", func() error { _, _, err := c.Users.Update(ctx, 7, nil); return err }},
		{"update nothing", "UserUpdate", update(workforce.UserUpdate{})},
		{"update an empty badge list", "UserUpdate", update(workforce.UserUpdate{UserBadgesAttributes: []workforce.UserBadgeAttributes{}})},
		{"update unknown type", "Type", update(workforce.UserUpdate{Type: "Robot"})},
		{"update bad name", "LastName", update(workforce.UserUpdate{LastName: "Love_lace"})},
		{"update bad email", "Email", update(workforce.UserUpdate{Email: "not an email"})},
		{"update short password", "Password", update(workforce.UserUpdate{Password: "1234567", PasswordConfirmation: "1234567"})},
		{"update confirmation differs", "PasswordConfirmation", update(workforce.UserUpdate{Password: pw, PasswordConfirmation: "other-made-up"})},
		{"update confirmation alone", "Password", update(workforce.UserUpdate{PasswordConfirmation: pw})},
		// Users: invite.
		{"invite nil", "UserInvite", func() error { _, _, err := c.Users.Invite(ctx, nil); return err }},
		{"invite no type", "Type", invite(func(u *workforce.UserInvite) { u.Type = "" })},
		{"invite unknown type", "Type", invite(func(u *workforce.UserInvite) { u.Type = "Requestor" })},
		{"invite no phone", "Phone", invite(func(u *workforce.UserInvite) { u.Phone = " " })},
		{"invite no first name", "FirstName", invite(func(u *workforce.UserInvite) { u.FirstName = "" })},
		{"invite no last name", "LastName", invite(func(u *workforce.UserInvite) { u.LastName = "" })},
		{"invite bad name", "FirstName", invite(func(u *workforce.UserInvite) { u.FirstName = "Ada!" })},
		{"invite bad email", "Email", invite(func(u *workforce.UserInvite) { u.Email = "ada@example.com, bob@example.com" })},
		// Messages.
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
		// Search.
		{"search empty", "q", func() error { _, _, err := c.Search.Query(ctx, ""); return err }},
		{"search spaces", "q", func() error { _, _, err := c.Search.Query(ctx, " \t "); return err }},
	}
	for _, tc := range cases {
		err := tc.run()
		require.Error(t, err, tc.name)
		assert.ErrorIs(t, err, workforce.ErrInvalidArgument, tc.name)
		var argErr *workforce.ArgumentError
		if assert.True(t, errors.As(err, &argErr), tc.name) {
			assert.Equal(t, tc.field, argErr.Name, tc.name)
		}
		assert.NotContains(t, err.Error(), pw, "%s: no error repeats a password", tc.name)
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing may be sent")
}

// TestPeopleAcceptedNames checks that the name rule lets through what the
// API accepts: letters of any script, digits, - and . .
func TestPeopleAcceptedNames(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder("POST", mockBase+"/api_v2/users", got.respond(200, `{"user": {"id": 1}}`))
	for _, name := range []string{"Zoë", "Jean-Luc", "St.John", "Nguyễn", "Ada2", "José", "Jose\u0301"} {
		_, _, err := c.Users.Create(context.Background(), &workforce.UserCreate{
			Type: workforce.UserWorker, FirstName: name, LastName: name, Phone: "+15555550100",
		})
		assert.NoError(t, err, name)
	}
}
