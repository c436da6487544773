package workforce_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// longToken is a made-up token of the length of a real one, 48 characters:
// longer than the 40 a decode error quotes of a value.
const longToken = "tok_3f9a1c7e5b2d4068a1b3c5d7e9f02468ace13579bdf0"

// TestDecodeErrorsShowNoStartOfASecret has a server echo the client's
// token, whole or after other text, where a decimal or a timestamp is due:
// the error quotes at most 40 characters of the value, and no start of the
// token of 8 characters or more may show.
func TestDecodeErrorsShowNoStartOfASecret(t *testing.T) {
	t.Parallel()
	values := map[string]string{
		"decimal":             `"adjusted_wage": "` + longToken + `"`,
		"timestamp":           `"updated_at": "` + longToken + `"`,
		"timestamp, later":    `"updated_at": "at ` + longToken + `"`,
		"not a string":        `"updated_at": {"t": "` + longToken + `"}`,
		"decimal, at the cut": `"adjusted_wage": "` + "0123456789012345678901234567890" + longToken + `"`,
	}
	for name, field := range values {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, workforce.WithToken(longToken))
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42",
				httpmock.NewStringResponder(200, `{"job": {"id": 42, `+field+`}}`))
			_, _, err := c.Jobs.Get(context.Background(), 42)
			var decodeErr *workforce.DecodeError
			require.ErrorAs(t, err, &decodeErr)
			assert.NotContains(t, err.Error(), longToken[:8], "no start of the token of 8 characters or more")
		})
	}
}
