package workforce

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// log writes one line for a call: at debug level when it succeeded, else
// at warn level with the error.
func (c *Client) log(req *retryablehttp.Request, resp *Response, took time.Duration, err error) {
	attrs := []slog.Attr{slog.String("method", req.Method), slog.String("path", req.URL.Path), slog.Duration("duration", took)}
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode), slog.String("request_id", resp.RequestID))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
		c.logger.LogAttrs(req.Context(), slog.LevelWarn, "workforce: call failed", attrs...)
		return
	}
	c.logger.LogAttrs(req.Context(), slog.LevelDebug, "workforce: call", attrs...)
}

// logAttempt is retryablehttp's RequestLogHook: it logs each attempt after
// the first.
func (c *Client) logAttempt(_ retryablehttp.Logger, req *http.Request, attempt int) {
	if c.logger != nil && attempt > 0 {
		c.logger.LogAttrs(req.Context(), slog.LevelInfo, "workforce: retrying",
			slog.String("method", req.Method), slog.String("path", req.URL.Path), slog.Int("attempt", attempt+1))
	}
}

// logAnswer is retryablehttp's ResponseLogHook: it logs each answer that
// was not a success, which is why an attempt is retried.
func (c *Client) logAnswer(_ retryablehttp.Logger, resp *http.Response) {
	if resp.Request != nil {
		if last, ok := resp.Request.Context().Value(lastStatusKey{}).(*atomic.Int64); ok {
			last.Store(int64(resp.StatusCode))
		}
	}
	if c.logger != nil && resp.StatusCode > 299 && resp.Request != nil {
		c.logger.LogAttrs(resp.Request.Context(), slog.LevelDebug, "workforce: attempt answered",
			slog.String("method", resp.Request.Method), slog.String("path", resp.Request.URL.Path),
			slog.Int("status", resp.StatusCode), slog.String("retry_after", resp.Header.Get("Retry-After")))
	}
}

// logSkew warns, once, that a token arrived already within its renewal
// margin by the local clock: short-lived, or the clock runs ahead.
func (c *Client) logSkew(left time.Duration) {
	if c.logger != nil {
		c.logger.LogAttrs(context.Background(), slog.LevelWarn,
			"workforce: a fresh token expires within minutes by the local clock; is the clock ahead? it is used anyway and renewed when rejected",
			slog.Duration("expires_in", left))
	}
}

// lastStatusKey holds, in a call's context, the status of the last answer
// an attempt got, for the error of a call whose context ends meanwhile.
type lastStatusKey struct{}
