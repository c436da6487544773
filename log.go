package workforce

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// The client's log lines, all through the redacting handler New wraps the
// caller's logger in: one per call, one per retry and per answer that was
// not a success, the warnings of an answer, and a clock that runs ahead.

// logCall writes one line for the call cs: at debug level when it
// succeeded or was abandoned by its iterator, else at warn level with the
// error.
func (c *Client) logCall(cs *callState, resp *Response, err error) {
	if c.logger == nil {
		return
	}
	attrs := []slog.Attr{slog.String("method", cs.method), slog.String("path", cs.path), slog.Duration("duration", time.Since(cs.start))}
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode), slog.String("request_id", resp.RequestID))
	}
	if err != nil && cs.abandoned {
		c.logger.LogAttrs(cs.ctx, slog.LevelDebug, "workforce: call abandoned: its iterator needed it no more", attrs...)
		return
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
		c.logger.LogAttrs(cs.ctx, slog.LevelWarn, "workforce: call failed", attrs...)
		return
	}
	c.logger.LogAttrs(cs.ctx, slog.LevelDebug, "workforce: call", attrs...)
}

// logAnswer logs, at debug level, an attempt's answer that was not a
// success: why it may be retried.
func (c *Client) logAnswer(cs *callState, resp *http.Response) {
	if c.logger != nil && resp != nil && resp.StatusCode > 299 {
		c.logger.LogAttrs(cs.ctx, slog.LevelDebug, "workforce: attempt answered",
			slog.String("method", cs.method), slog.String("path", cs.path),
			slog.Int("status", resp.StatusCode), slog.String("retry_after", resp.Header.Get("Retry-After")))
	}
}

// logRetry logs that the call cs sends another attempt after wait, and why.
func (c *Client) logRetry(cs *callState, reason string, wait time.Duration) {
	if c.logger != nil {
		c.logger.LogAttrs(cs.ctx, slog.LevelInfo, "workforce: retrying",
			slog.String("method", cs.method), slog.String("path", cs.path), slog.Int("attempt", cs.attempts+1),
			slog.String("reason", cs.redactor.String(reason)), slog.Duration("wait", wait))
	}
}

// maxLoggedWarnings bounds the lines logged for the warnings of one answer.
const maxLoggedWarnings = 10

// reportWarnings readies the warnings of an answer to the call cs for the
// caller: each field and value redacted of the call's secrets, all in one
// pass, then each value cut to 64 bytes. It logs each (up to
// maxLoggedWarnings, then their number) at debug level.
func (c *Client) reportWarnings(cs *callState, found warnings) []Warning {
	list := found.list
	if len(list) == 0 {
		return nil
	}
	texts := make([]string, 0, 2*len(list))
	for _, w := range list {
		texts = append(texts, w.Field, w.Value)
	}
	cs.redactor.Strings(texts)
	for i := range list {
		v := texts[2*i+1]
		if len(v) > 64 {
			v = strings.ToValidUTF8(v[:64], "") + "…"
		}
		list[i].Field, list[i].Value = texts[2*i], v
	}
	if c.logger != nil {
		for i, w := range list {
			if i == maxLoggedWarnings {
				c.logger.LogAttrs(cs.ctx, slog.LevelDebug, "workforce: more values fit no form of their field",
					slog.String("method", cs.method), slog.String("path", cs.path), slog.Int("more", len(list)-i+found.more))
				break
			}
			c.logger.LogAttrs(cs.ctx, slog.LevelDebug, "workforce: a value fits no form of its field; the field is left zero",
				slog.String("method", cs.method), slog.String("path", cs.path), slog.Int("index", w.Index), slog.Int64("id", w.ID),
				slog.String("field", w.Field), slog.String("value", w.Value), slog.String("want", w.Want))
		}
	}
	return list
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
