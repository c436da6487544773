package workforce_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// A front end answers a POST with 303 See Other after acting (Post/Redirect/Get).
func TestR2SeeOtherAfterCreateIsNotUnknown(t *testing.T) {
	var created atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		created.Add(1)
		w.Header().Set("Location", "/api_v2/badges/7")
		w.WriteHeader(http.StatusSeeOther)
	}))
	defer srv.Close()
	c, err := workforce.New("", "", workforce.WithToken("tok"), workforce.WithBaseURL(srv.URL))
	require.NoError(t, err)
	_, _, err = c.Badges.Create(context.Background(), &workforce.BadgeParams{Name: "n", Description: "d"})
	t.Logf("created=%d err=%v", created.Load(), err)
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
}
