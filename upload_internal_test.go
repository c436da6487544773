package workforce

import (
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fileOf reads the one file a multipart body holds.
func fileOf(t *testing.T, f *multipartFile, body io.Reader) string {
	t.Helper()
	_, params, err := mime.ParseMediaType(f.contentType())
	require.NoError(t, err)
	part, err := multipart.NewReader(body, params["boundary"]).NextPart()
	require.NoError(t, err)
	b, err := io.ReadAll(part)
	require.NoError(t, err)
	return string(b)
}

func TestMultipartFileSupersedesABodyHalfRead(t *testing.T) {
	t.Parallel()
	content := strings.Repeat("42,480\n", 100<<10) // far more than the pipe holds at once
	src := strings.NewReader("header\n" + content)
	_, err := src.Seek(7, io.SeekStart)
	require.NoError(t, err)
	f := newMultipartFile("file", "t.csv", "text/csv", src)
	require.True(t, f.replayable())

	probe := f.open() // an attempt that failed before sending
	probe.Close()

	first := f.open()
	_, err = io.ReadFull(first, make([]byte, 1000)) // an attempt cut short
	require.NoError(t, err)
	second := f.open()
	assert.Equal(t, content, fileOf(t, f, second), "rewound to the start offset and sent whole")
	_, err = first.Read(make([]byte, 10))
	assert.Error(t, err, "the superseded body reads no more")

	f.close()
	third := f.open()
	_, err = third.Read(make([]byte, 10))
	assert.ErrorIs(t, err, errUploadDone, "nothing is read once the call is over")
}

func TestMultipartFileUnseekableIsReadOnce(t *testing.T) {
	t.Parallel()
	f := newMultipartFile("file", "t.csv", "text/csv", io.MultiReader(strings.NewReader("a,b\n")))
	require.False(t, f.replayable())
	first := f.open()
	assert.Equal(t, "a,b\n", fileOf(t, f, first))
	second := f.open()
	_, err := second.Read(make([]byte, 10))
	assert.ErrorIs(t, err, errNotRewindable)
	f.close()
}
