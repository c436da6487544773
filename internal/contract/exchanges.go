package contract

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// CheckExchange returns the violations of one exchange: req, whose body was reqBody, answered
// status with header and body.
//
// A request that breaks the document is a violation only when it was answered with a 2xx: the
// contract promises an error for it, and tests send such requests on purpose. The answer is
// always checked: its status must be one the operation lists, and its body the schema of that
// status.
func (c *Contract) CheckExchange(req *http.Request, reqBody []byte, status int, header http.Header, body []byte) []Violation {
	var found []Violation
	if err := c.CheckRequest(req, reqBody); err != nil && status >= 200 && status < 300 {
		found = append(found, Violation{Method: req.Method, Path: req.URL.Path, Status: status, Side: "request", Err: err,
			Sent: excerpt(req.Header.Get("Content-Type"), reqBody)})
	}
	if err := c.CheckResponse(req, reqBody, status, header, body); err != nil {
		found = append(found, Violation{Method: req.Method, Path: req.URL.Path, Status: status, Side: "response", Err: err})
	}
	return found
}

// LogReport is what CheckLog found in a directory of exchange logs.
type LogReport struct {
	Files      int         // the logs read
	Checked    int         // the exchanges checked, webhook deliveries included
	Webhooks   int         // the webhook deliveries checked
	Faults     int         // the answers of injected faults, not checked
	Truncated  int         // the exchanges with a body cut short in the log, not checked
	Violations []Violation // in no particular order (Summary sorts them)
}

// CheckLog checks every exchange that fakes logged in dir (workforcetest.WithExchangeLog: the
// files exchanges-*.jsonl, one workforcetest.Exchange a line), as CheckExchange does, and every
// webhook delivery as CheckWebhook does, leaving out HEAD requests (answered as GET without a
// body), the answers of injected faults and the exchanges whose bodies the log cut. It checks on
// every CPU.
func (c *Contract) CheckLog(dir string) (LogReport, error) {
	var report LogReport
	files, err := filepath.Glob(filepath.Join(dir, "exchanges-*.jsonl"))
	if err != nil {
		return report, err
	}
	todo := make(chan workforcetest.Exchange, 64)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for e := range todo {
				if found := c.checkLogged(e); len(found) > 0 {
					mu.Lock()
					report.Violations = append(report.Violations, found...)
					mu.Unlock()
				}
			}
		})
	}
	for _, name := range files {
		if err = readLog(name, func(e workforcetest.Exchange) {
			switch {
			case e.Method == http.MethodHead:
			case e.Fault():
				report.Faults++
			case e.Truncated:
				report.Truncated++
			case e.Webhook:
				report.Checked++
				report.Webhooks++
				todo <- e
			default:
				report.Checked++
				todo <- e
			}
		}); err != nil {
			break
		}
		report.Files++
	}
	close(todo)
	wg.Wait()
	return report, err
}

// readLog calls each with every exchange of the log file name, in order.
func readLog(name string, each func(workforcetest.Exchange)) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	lines := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, err := lines.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var e workforcetest.Exchange
			if jerr := json.Unmarshal(line, &e); jerr != nil {
				return fmt.Errorf("contract: %s:%d: %w", filepath.Base(name), n, jerr)
			}
			each(e)
		}
		if errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// checkLogged checks one logged exchange.
func (c *Contract) checkLogged(e workforcetest.Exchange) []Violation {
	if e.Webhook {
		if err := c.CheckWebhook(e.RequestHeader, e.RequestBody); err != nil {
			return []Violation{{Method: e.Method, Path: e.Path, Status: e.Status, Side: "webhook", Err: err}}
		}
		return nil
	}
	u := &url.URL{Scheme: "http", Host: "127.0.0.1", Path: e.Path, RawQuery: e.Query}
	req, err := http.NewRequest(e.Method, u.String(), bytes.NewReader(e.RequestBody))
	if err != nil {
		return []Violation{{Method: e.Method, Path: e.Path, Status: e.Status, Side: "request", Err: err}}
	}
	req.Header = e.RequestHeader.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	return c.CheckExchange(req, e.RequestBody, e.Status, e.ResponseHeader, e.ResponseBody)
}

// Summary groups violations that say the same of the same operation, most frequent first, as
// lines: how many, the method, the document's path, the status, the side and what is wrong (the
// values found aside, which the first violation of each group shows), with the first path seen.
func (c *Contract) Summary(violations []Violation) []string {
	type group struct {
		line string // the first violation's
		n    int
	}
	groups := map[string]*group{}
	var order []string
	for _, v := range violations {
		path := v.Path
		if op, _, ok := c.Find(v.Method, v.Path); ok {
			path = Prefix + op.Path
		}
		lines := Describe(v.Err)
		head := fmt.Sprintf("%s %s -> %d: %s: ", v.Method, path, v.Status, v.Side)
		key := head + strings.Join(withoutValues(lines), "; ")
		if groups[key] == nil {
			line := head + strings.Join(lines, "; ") + " (first: " + v.Path
			if v.Sent != "" {
				line += " with " + v.Sent
			}
			groups[key] = &group{line: line + ")"}
			order = append(order, key)
		}
		groups[key].n++
	}
	sort.SliceStable(order, func(i, j int) bool { return groups[order[i]].n > groups[order[j]].n })
	out := make([]string, len(order))
	for i, key := range order {
		out[i] = fmt.Sprintf("%d× %s", groups[key].n, groups[key].line)
	}
	return out
}

// withoutValues returns the lines of Describe without the values they quote.
func withoutValues(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if at := strings.LastIndex(l, " (got "); at >= 0 {
			l = l[:at]
		}
		out[i] = l
	}
	return out
}

// excerpt returns the start of a request body of contentType, to show: its first 300 bytes,
// quoted.
func excerpt(contentType string, body []byte) string {
	if len(body) == 0 {
		return ""
	}
	const most = 300
	text := fmt.Sprintf("%s %q", contentType, body[:min(len(body), most)])
	if len(body) > most {
		text += "…"
	}
	return text
}
