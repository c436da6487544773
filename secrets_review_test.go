package workforce_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

func TestReviewPasswordRedactsFieldNames(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(422)
		io.WriteString(w, `{"error":"invalid","errors":{"password":["is too common"]}}`)
	}))
	defer srv.Close()
	c, err := workforce.New("", "", workforce.WithToken("tok"), workforce.WithBaseURL(srv.URL))
	require.NoError(t, err)
	_, _, err = c.Users.Update(context.Background(), 5, &workforce.UserUpdate{Password: "password", PasswordConfirmation: "password"})
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	t.Logf("FieldErrors: %v; err: %v", apiErr.FieldErrors, err)
	require.Contains(t, apiErr.FieldErrors, "password")
}
