package workforce

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
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

// maxLoggedWarnings bounds the lines logged for the warnings of one answer.
const maxLoggedWarnings = 10

// reportWarnings readies the warnings of an answer to method path for the
// caller: each value redacted of the call's secrets, then cut to 64 bytes.
// It logs each (up to maxLoggedWarnings, then their number) at debug level.
func (c *Client) reportWarnings(ctx context.Context, method, path string, warnings []Warning) []Warning {
	if len(warnings) == 0 {
		return nil
	}
	rd := c.redactorFor(ctx)
	for i := range warnings {
		v := rd.String(warnings[i].Value)
		if len(v) > 64 {
			v = strings.ToValidUTF8(v[:64], "") + "…"
		}
		warnings[i].Value = v
	}
	if c.logger != nil {
		for i, w := range warnings {
			if i == maxLoggedWarnings {
				c.logger.LogAttrs(ctx, slog.LevelDebug, "workforce: more values fit no form of their field",
					slog.String("method", method), slog.String("path", path), slog.Int("more", len(warnings)-i))
				break
			}
			c.logger.LogAttrs(ctx, slog.LevelDebug, "workforce: a value fits no form of its field; the field is left zero",
				slog.String("method", method), slog.String("path", path), slog.Int("index", w.Index), slog.Int64("id", w.ID),
				slog.String("field", w.Field), slog.String("value", w.Value), slog.String("want", w.Want))
		}
	}
	return warnings
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
