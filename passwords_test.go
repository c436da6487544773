package workforce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// A made-up password, distinct enough to search for.
const madeUpPassword = "Pa55-made-up-Xq9"

func TestUserWritesNeverPrintPasswords(t *testing.T) {
	t.Parallel()
	create := workforce.UserCreate{
		Type: workforce.UserWorker, FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com",
		Suspended: workforce.Ptr(false), Password: madeUpPassword, PasswordConfirmation: madeUpPassword,
		UserBadgesAttributes: []workforce.UserBadgeAttributes{{BadgeID: 11}},
	}
	update := workforce.UserUpdate{City: "Chicago", Password: madeUpPassword, PasswordConfirmation: madeUpPassword}
	values := map[string]any{
		"UserCreate": create, "*UserCreate": &create,
		"UserUpdate": update, "*UserUpdate": &update,
		"[]UserCreate":             []workforce.UserCreate{create},
		"map of *UserUpdate":       map[string]*workforce.UserUpdate{"u": &update},
		"struct with a UserCreate": struct{ User workforce.UserCreate }{create},
	}
	for name, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T %v"} {
			out := fmt.Sprintf(verb, v)
			assert.NotContains(t, out, madeUpPassword, "%s printed with %s: %s", name, verb, out)
		}
		assert.NotContains(t, fmt.Sprint(v), madeUpPassword, name)
		assert.NotContains(t, fmt.Sprintln(v), madeUpPassword, name)

		var text, js bytes.Buffer
		slog.New(slog.NewTextHandler(&text, nil)).Info("writing", "user", v)
		slog.New(slog.NewJSONHandler(&js, nil)).Info("writing", "user", v, slog.Group("g", "user", v))
		assert.NotContains(t, text.String(), madeUpPassword, "%s in a slog text line", name)
		assert.NotContains(t, js.String(), madeUpPassword, "%s in a slog JSON line", name)

		b, err := json.Marshal(v)
		require.NoError(t, err, name)
		assert.NotContains(t, string(b), madeUpPassword, "%s marshalled by a caller", name)
	}

	// What is printed is still useful: the other fields, and that a
	// password is set.
	out := fmt.Sprintf("%+v", create)
	assert.Contains(t, out, "FirstName:Ada")
	assert.Contains(t, out, "Suspended:false")
	assert.Contains(t, out, "Password:[REDACTED]")
	assert.Contains(t, out, "BadgeID:11")
	var js bytes.Buffer
	slog.New(slog.NewJSONHandler(&js, nil)).Info("writing", "user", &update)
	assert.Contains(t, js.String(), `"City":"Chicago"`)
	assert.Contains(t, js.String(), `"Password":"[REDACTED]"`)

	// A nil pointer prints without a panic.
	var nilCreate *workforce.UserCreate
	assert.NotPanics(t, func() { _ = fmt.Sprintf("%v %+v", nilCreate, (*workforce.UserUpdate)(nil)) })
}

func TestUserPasswordsReachOnlyTheWire(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	c, m := newMock(t, workforce.WithLogger(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	var created, updated capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/users", created.respond(200, `{"user": {"id": 8}}`))
	m.RegisterResponder(http.MethodPatch, mockBase+"/api_v2/users/8", updated.respond(422, `{"error": "invalid", "errors": {"password": ["is too common"]}}`))
	ctx := context.Background()

	_, _, err := c.Users.Create(ctx, &workforce.UserCreate{
		Type: workforce.UserWorker, FirstName: "Ada", LastName: "Lovelace", Phone: "+15555550100",
		Password: madeUpPassword, PasswordConfirmation: madeUpPassword,
	})
	require.NoError(t, err)
	assert.Equal(t, madeUpPassword, created.jsonBody(t)["user"].(map[string]any)["password"])
	assert.Equal(t, madeUpPassword, created.jsonBody(t)["user"].(map[string]any)["password_confirmation"])

	_, _, err = c.Users.Update(ctx, 8, &workforce.UserUpdate{Password: madeUpPassword, PasswordConfirmation: madeUpPassword})
	require.ErrorIs(t, err, workforce.ErrUnprocessable)
	assert.Equal(t, madeUpPassword, updated.jsonBody(t)["user"].(map[string]any)["password"])
	assert.NotContains(t, err.Error(), madeUpPassword)
	assert.NotContains(t, logs.String(), madeUpPassword)
	assert.Contains(t, logs.String(), "/api_v2/users/8", "the calls were logged")
}

// A server that echoes the password it was sent: the error and the log
// line show [REDACTED] instead.
func TestEchoedPasswordsAreRedacted(t *testing.T) {
	t.Parallel()
	const password = "Sup3rSecretPW"
	var logs bytes.Buffer
	c, m := newMock(t, workforce.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/users", httpmock.NewStringResponder(422,
		`{"error": "bad password `+password+`", "errors": {"password": ["`+password+` is too common"]}}`))
	_, _, err := c.Users.Create(context.Background(), &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "A",
		LastName: "B", Phone: "+1555", Password: password, PasswordConfirmation: password})
	require.ErrorIs(t, err, workforce.ErrUnprocessable)
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	for _, s := range []string{err.Error(), fmt.Sprintf("%#v", err), string(apiErr.Body), logs.String()} {
		assert.NotContains(t, s, password)
	}
	assert.Contains(t, err.Error(), "[REDACTED]")
}

// TestPasswordNamedLikeItsFieldLeavesTheFieldName sends the password
// "password": the 422's field errors keep the field's name, which a
// redaction of the password as text would have hidden.
func TestPasswordNamedLikeItsFieldLeavesTheFieldName(t *testing.T) {
	t.Parallel()
	_, c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(422)
		io.WriteString(w, `{"error":"invalid","errors":{"password":["is too common"]}}`)
	})
	_, _, err := c.Users.Update(context.Background(), 5, &workforce.UserUpdate{Password: "password", PasswordConfirmation: "password"})
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	t.Logf("FieldErrors: %v; err: %v", apiErr.FieldErrors, err)
	require.Contains(t, apiErr.FieldErrors, "password")
}

// TestPasswordStartsStayReadable sends a password that begins with a word
// (C9): it is hidden whole wherever the server repeats it, but the word,
// in the server's own message and field errors, stays readable.
func TestPasswordStartsStayReadable(t *testing.T) {
	t.Parallel()
	const password = "Password2024"
	_, c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(422)
		io.WriteString(w, `{"error":"Password must contain a symbol, not `+password+`","errors":{"password":["Password must contain a symbol"]}}`)
	})
	_, _, err := c.Users.Update(context.Background(), 5, &workforce.UserUpdate{Password: password, PasswordConfirmation: password})
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "Password must contain a symbol, not [REDACTED]", apiErr.Message)
	assert.Equal(t, map[string][]string{"password": {"Password must contain a symbol"}}, apiErr.FieldErrors)
	assert.NotContains(t, err.Error(), password)
}

// TestPasswordsAreHiddenInRequestIDsAndFieldNames has a server echo the
// call's password in its request ID and as the name of a field (A4):
// neither the error, the Response nor the log shows it.
func TestPasswordsAreHiddenInRequestIDsAndFieldNames(t *testing.T) {
	t.Parallel()
	const password = "Correct-Horse-Battery-9"
	var logs syncBuffer
	_, c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "req-"+password)
		w.WriteHeader(422)
		io.WriteString(w, `{"error":"invalid","errors":{"`+password+`":["is too common"]}}`)
	}, workforce.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	_, resp, err := c.Users.Update(context.Background(), 5, &workforce.UserUpdate{Password: password, PasswordConfirmation: password})
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	require.NotNil(t, resp)
	for _, s := range []string{err.Error(), apiErr.RequestID, resp.RequestID, fmt.Sprint(apiErr.FieldErrors), logs.String()} {
		assert.NotContains(t, s, password)
		assert.NotContains(t, s, "Correct-Horse-Batt")
	}
	assert.Equal(t, "req-[REDACTED]", apiErr.RequestID)
}
