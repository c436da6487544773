// Command otel traces the SDK's calls with OpenTelemetry's otelhttp: each
// call is one client span named by its endpoint ("GET /jobs/:id"), however
// many attempts its retries take, with no token or key in any attribute;
// its trace context reaches the server in the traceparent header of every
// attempt.
//
// It runs against the in-memory fake API, started in-process, and prints
// the spans an in-memory exporter received:
//
//	go run ./examples/otel
//
// In a program of yours, Tracing is the recipe: pass your TracerProvider
// (exporting over OTLP, say) and hand the middleware to workforce.New.
//
// This is a module of its own, so that importing the SDK downloads and
// builds nothing of OpenTelemetry.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// Tracing returns a middleware for workforce.WithMiddleware that records
// each call of the SDK as a client span of tp, named by its endpoint, and
// propagates the trace context to the server (W3C traceparent).
func Tracing(tp trace.TracerProvider) func(http.RoundTripper) http.RoundTripper {
	return func(next http.RoundTripper) http.RoundTripper {
		return otelhttp.NewTransport(next,
			otelhttp.WithTracerProvider(tp),
			otelhttp.WithPropagators(propagation.TraceContext{}),
			otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return workforce.Endpoint(r) }))
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "otel:", err)
		os.Exit(1)
	}
}

// run books a Worker against the fake with every call traced, and prints
// the spans.
func run(ctx context.Context, out io.Writer) error {
	srv, err := workforcetest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	defer tp.Shutdown(context.Background())

	c, err := newClient(srv, tp)
	if err != nil {
		return err
	}
	if err := book(ctx, c, srv, tp); err != nil {
		return err
	}
	for _, s := range spans.GetSpans() {
		fmt.Fprintf(out, "%-22s %-8s trace %s", s.Name, s.SpanKind, s.SpanContext.TraceID())
		for _, a := range s.Attributes {
			if slices.Contains([]string{"http.response.status_code", "url.full"}, string(a.Key)) {
				fmt.Fprintf(out, " %s=%s", a.Key, a.Value.Emit())
			}
		}
		fmt.Fprintln(out)
	}
	attempts := 0
	for _, r := range srv.Requests() {
		if r.Path != "/api_v2/authenticate" { // the token fetch, which no middleware sees
			attempts++
		}
	}
	fmt.Fprintf(out, "%d spans: 3 calls and the booking; the server got %d requests of those calls (two 503s retried within a span)\n",
		len(spans.GetSpans()), attempts)
	return nil
}

// newClient returns a client of srv whose calls tp traces, retrying in
// milliseconds.
func newClient(srv *workforcetest.Server, tp trace.TracerProvider) (*workforce.Client, error) {
	return workforce.New(srv.Private.APIKey, srv.Private.SecretKey,
		workforce.WithBaseURL(srv.URL),
		workforce.WithRetry(3, time.Millisecond, 10*time.Millisecond),
		workforce.WithMiddleware(Tracing(tp)))
}

// book lists the open Jobs (the server fails twice first), assigns a
// Worker and reads the Job back, all within a span of the program's own.
func book(ctx context.Context, c *workforce.Client, srv *workforcetest.Server, tp trace.TracerProvider) error {
	ctx, span := tp.Tracer("booking").Start(ctx, "book a Worker")
	defer span.End()
	seed := srv.Seed()
	srv.InjectFault(workforcetest.Fault{Method: "GET", Path: "/api_v2/jobs", Times: 2, Status: 503})
	if _, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{JobRequestID: seed.JobRequest1099ID}); err != nil {
		return err
	}
	job, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[2], JobRequestID: seed.JobRequest1099ID})
	if err != nil {
		return err
	}
	_, _, err = c.Jobs.Get(ctx, job.ID)
	return err
}
