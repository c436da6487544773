package workforce

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadBody reads bodies whose announced length is right, wrong or
// unknown, and bodies over the limit, as io.ReadAll of limit+1 bytes does.
func TestReadBody(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("j", 1000)
	for _, c := range []struct {
		name   string
		length int64
		limit  int64
		want   int
	}{
		{"announced", 1000, 4096, 1000},
		{"unknown", -1, 4096, 1000},
		{"shorter than announced", 1500, 4096, 1000},
		{"longer than announced", 10, 4096, 1000},
		{"announced over the limit", 1000, 100, 101},
		{"unannounced over the limit", -1, 100, 101},
		{"longer than announced, over the limit", 10, 100, 101},
	} {
		got, err := readBody(iotest.HalfReader(strings.NewReader(body)), c.length, c.limit)
		require.NoError(t, err, c.name)
		assert.Equal(t, body[:c.want], string(got), c.name)
	}
	boom := errors.New("boom")
	_, err := readBody(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), 10, 100)
	assert.ErrorIs(t, err, boom)
}
