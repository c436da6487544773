package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestRun(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	assert.Contains(t, out.String(), "GET /jobs/:id")
	assert.Contains(t, out.String(), "4 spans")
}

// The recipe: one client span per call, named by its endpoint, child of the
// caller's span, with the answer's status; its context sent on every
// attempt; no secret in any attribute, event or status.
func TestTracingRecordsEachCallOnceWithoutSecrets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := workforcetest.NewServer(t)
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	c, err := newClient(srv, tp)
	require.NoError(t, err)
	tok, _, err := c.Authentication.Authenticate(ctx) // untraced: its body holds the keys, its answer the token
	require.NoError(t, err)

	require.NoError(t, book(ctx, c, srv, tp))
	_, _, err = c.Jobs.Get(ctx, 987654)
	require.ErrorIs(t, err, workforce.ErrNotFound)

	got := spans.GetSpans()
	var names []string
	for _, s := range got {
		names = append(names, s.Name)
	}
	assert.Equal(t, []string{"GET /jobs", "POST /jobs/assign", "GET /jobs/:id", "book a Worker", "GET /jobs/:id"}, names)
	root := got[3]
	for _, s := range got[:3] {
		assert.Equal(t, trace.SpanKindClient, s.SpanKind, s.Name)
		assert.Equal(t, root.SpanContext.SpanID(), s.Parent.SpanID(), "%s is a child of the caller's span", s.Name)
		assertAttr(t, s, "http.response.status_code", "200")
	}
	assert.Equal(t, codes.Error, got[4].Status.Code, "a 404 is an error")

	// Every attempt carried the trace context, the two 503s included.
	inBooking := 0
	for _, r := range srv.Requests() {
		if r.Path == "/api_v2/authenticate" {
			continue
		}
		require.NotEmpty(t, r.Header.Get("Traceparent"), "%s %s", r.Method, r.Path)
		if strings.Contains(r.Header.Get("Traceparent"), "-"+root.SpanContext.TraceID().String()+"-") {
			inBooking++
		}
	}
	assert.Equal(t, 5, inBooking, "the booking's three calls, one of them retried twice")

	var all strings.Builder
	for _, s := range got {
		fmt.Fprintln(&all, s.Name, s.Status, s.Attributes, s.Events, s.Links)
	}
	require.Contains(t, all.String(), "url.full", "the spans hold the calls' URLs")
	for _, secret := range []string{tok.Value, tok.Value[:8], srv.Private.APIKey, srv.Private.SecretKey, "token="} {
		assert.NotContains(t, all.String(), secret)
	}
}

// assertAttr checks that s has the attribute key, of the value want.
func assertAttr(t *testing.T, s tracetest.SpanStub, key, want string) {
	t.Helper()
	for _, a := range s.Attributes {
		if string(a.Key) == key {
			assert.Equal(t, want, a.Value.Emit(), "%s of %s", key, s.Name)
			return
		}
	}
	t.Errorf("%s has no %s", s.Name, key)
}
