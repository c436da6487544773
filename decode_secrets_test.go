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

// TestWarningsShowNoStartOfASecret has a server echo the client's token,
// whole or after other text, where a decimal or a timestamp is due: the
// record is kept and the value reported in a Warning, which quotes at most
// 64 bytes of it, and no start of the token of 8 characters or more may
// show.
func TestWarningsShowNoStartOfASecret(t *testing.T) {
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
			job, resp, err := c.Jobs.Get(context.Background(), 42)
			require.NoError(t, err)
			assert.Equal(t, int64(42), job.ID)
			require.Len(t, resp.Warnings, 1)
			assert.NotContains(t, resp.Warnings[0].String(), longToken[:8], "no start of the token of 8 characters or more")
		})
	}
}
