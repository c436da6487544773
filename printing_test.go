package workforce_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/davecgh/go-spew/spew"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// failures is a testify TestingT that keeps the failure messages.
type failures struct{ out strings.Builder }

func (f *failures) Errorf(format string, args ...any) { fmt.Fprintf(&f.out, format, args...) }

// holder is a value a caller might compare or print: SDK values after
// calls that fetched, renewed and used tokens.
type holder struct {
	Client *workforce.Client
	Resp   *workforce.Response
	Err    error
	Job    *workforce.Job
	Note   string
}

// TestNoPrinterShowsASecret prints values holding a used *Client with
// fmt, with go-spew as deep as it goes, in testify's failure diff, and
// with go-cmp told to read every unexported field: no key, no token the
// client held (current or earlier), no 8 characters of one in a row, may
// show.
func TestNoPrinterShowsASecret(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t)
	ctx := context.Background()
	c, err := srv.Client()
	require.NoError(t, err)
	var tokens []string
	for range 2 { // a token, then a newer one: the first is held still
		tok, _, err := c.Authentication.Authenticate(ctx)
		require.NoError(t, err)
		tokens = append(tokens, tok.Value)
	}
	job, resp, err := c.Jobs.Get(ctx, srv.Seed().PublicJobID)
	require.NoError(t, err)
	_, _, notFound := c.Jobs.Get(ctx, 999999)
	require.Error(t, notFound)
	a := holder{Client: c, Resp: resp, Err: notFound, Job: job, Note: "a"}
	b := a
	b.Note = "b"
	secrets := append([]string{srv.Private.APIKey, srv.Private.SecretKey}, tokens...)

	deep := spew.ConfigState{DisableMethods: true, DisablePointerAddresses: true}
	var diff failures
	assert.Equal(&diff, a, b)
	require.Contains(t, diff.out.String(), "Diff:", "testify printed its diff")
	outputs := map[string]string{
		"%v": fmt.Sprintf("%v", a), "%+v": fmt.Sprintf("%+v", a), "%#v": fmt.Sprintf("%#v", a),
		"%#v of the Client": fmt.Sprintf("%#v", *c), "Sprint": fmt.Sprint(a),
		"go-spew, every field": deep.Sdump(a), "go-spew, methods": spew.Sdump(a),
		"testify's failure diff": diff.out.String(),
		"go-cmp, every field":    cmp.Diff(a, b, cmp.Exporter(func(reflect.Type) bool { return true })),
	}
	for name, out := range outputs {
		require.NotEmpty(t, out, name)
		for _, s := range secrets {
			for i := 0; i+8 <= len(s); i++ {
				if strings.Contains(out, s[i:i+8]) {
					t.Errorf("%s shows %q of a secret", name, s[i:i+8])
					break
				}
			}
		}
	}
}
