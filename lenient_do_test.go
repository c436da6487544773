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

type DoInner struct {
	A    int `json:"a"`
	Deep *DoDeep
}

type DoDeep struct {
	D bool `json:"d"`
}

// doSelf is embedded in itself: the lenient decoder's field table must
// not follow it forever.
type doSelf struct {
	*doSelf
	N int `json:"n"`
}

var _ = doSelf{doSelf: nil}

type doOut struct {
	*DoInner
	*DoDeep
	Blob  []byte            `json:"blob"`
	Blobs map[string][]byte `json:"blobs"`
	B     int               `json:"b"`
	Self  doSelf            `json:"self"`
}

// When one value of an answer read by Client.Do does not fit, the rest is
// decoded leniently as encoding/json decodes it: fields promoted from
// embedded pointers to structs (allocated), []byte from base64 (C8).
func TestDoLenientKeepsPromotedAndByteFields(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/things/1", httpmock.NewStringResponder(200,
		`{"a":"7","d":"yes","Deep":{"d":true},"blob":"aGk=","blobs":{"x":"aGk="},"b":"x","self":{"n":"3"}}`))
	var out doOut
	resp, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "things/1"}, &out)
	require.NoError(t, err)
	assert.Equal(t, []workforce.Warning{{Field: "b", Value: `"x"`, Want: "integer"}}, resp.Warnings)
	require.NotNil(t, out.DoInner, "allocated for its promoted field")
	assert.Equal(t, 7, out.A)
	require.NotNil(t, out.Deep)
	assert.True(t, out.Deep.D)
	require.NotNil(t, out.DoDeep)
	assert.True(t, out.D)
	assert.Equal(t, "hi", string(out.Blob))
	assert.Equal(t, "hi", string(out.Blobs["x"]))
	assert.Equal(t, 3, out.Self.N)

	// A []byte that is not base64 is a warning, not a silent nil.
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/things/2", httpmock.NewStringResponder(200, `{"blob":"not base64!","b":1}`))
	out = doOut{}
	resp, err = c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "things/2"}, &out)
	require.NoError(t, err)
	assert.Equal(t, []workforce.Warning{{Field: "blob", Value: `"not base64!"`, Want: "base64 text"}}, resp.Warnings)
}
