package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/workforce-marketplace/workforce-go"
)

// A row is one record to print: its document as the API sent it, and its table cells.
type row struct {
	raw   json.RawMessage
	cells []string
}

// filters holds the list flags of every resource; each resource registers the ones it has.
type filters struct {
	state, updatedAfter, updatedBefore, userType, email, query string
	jobRequest, customer, job, sender, receiver                int64
	after, before                                              time.Time
}

// A resource is one group of read commands: list and get.
type resource struct {
	name, what string // the command's name (jobs) and what it reads (Jobs)
	columns    []string
	flags      func(fs *pflag.FlagSet, f *filters)
	list       func(ctx context.Context, c *workforce.Client, f *filters, per int) iter.Seq2[row, error]
	get        func(ctx context.Context, c *workforce.Client, id int64) (row, error)
}

// rows turns an SDK iterator into rows.
func rows[T any](s iter.Seq2[*T, error], raw func(*T) json.RawMessage, cells func(*T) []string) iter.Seq2[row, error] {
	return func(yield func(row, error) bool) {
		for r, err := range s {
			if err != nil {
				yield(row{}, err)
				return
			}
			if !yield(row{raw: raw(r), cells: cells(r)}, nil) {
				return
			}
		}
	}
}

// one turns an SDK Get into a row.
func one[T any](r *T, _ *workforce.Response, err error, raw func(*T) json.RawMessage, cells func(*T) []string) (row, error) {
	if err != nil {
		return row{}, err
	}
	return row{raw: raw(r), cells: cells(r)}, nil
}

// resourceCommand makes the command group of r: r.name list, r.name get ID.
func (e *env) resourceCommand(r resource) *cobra.Command {
	group := &cobra.Command{
		Use:   r.name,
		Short: "Read " + r.what + ": list, get",
		Long:  r.name + " reads " + r.what + " from the API: list walks every page, get reads one by its id.",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  showHelp,
	}
	var output string
	group.PersistentFlags().StringVarP(&output, "output", "o", "table", "table (for people) or json (one record per line, as the API sent it)")
	var f filters
	var limit int
	list := &cobra.Command{
		Use:   "list",
		Short: "List " + r.what + ", every page",
		Long: "list prints every one of the " + r.what + " the filters select, walking all pages (at most --limit).\n" +
			"Times are RFC 3339 (2026-11-01T09:00:00Z) or dates (2026-11-01, midnight UTC).",
		Args: usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(output); err != nil {
				return err
			}
			if limit < 0 {
				return usagef("--limit must not be negative")
			}
			var err error
			if f.after, err = parseTime("--updated-after", f.updatedAfter); err != nil {
				return err
			}
			if f.before, err = parseTime("--updated-before", f.updatedBefore); err != nil {
				return err
			}
			c, _, err := e.client()
			if err != nil {
				return err
			}
			per := 0
			if limit > 0 && limit < workforce.MaxPerPage {
				per = limit
			}
			p := newPrinter(cmd.OutOrStdout(), output, r.columns)
			n := 0
			for rw, err := range r.list(cmd.Context(), c, &f, per) {
				if err != nil {
					_ = p.flushRows()
					return err
				}
				if err := p.print(rw); err != nil {
					return err
				}
				if n++; limit > 0 && n >= limit {
					break
				}
			}
			return p.flush()
		}),
	}
	list.Flags().IntVar(&limit, "limit", 0, "print at most `n` records (0: all)")
	r.flags(list.Flags(), &f)
	get := &cobra.Command{
		Use:   "get ID",
		Short: "Get one of the " + r.what + " by its id",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(output); err != nil {
				return err
			}
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id <= 0 {
				return usagef("%q is not an id (a number above 0)", args[0])
			}
			c, _, err := e.client()
			if err != nil {
				return err
			}
			rw, err := r.get(cmd.Context(), c, id)
			if err != nil {
				return err
			}
			p := newPrinter(cmd.OutOrStdout(), output, r.columns)
			if err := p.print(rw); err != nil {
				return err
			}
			return p.flush()
		}),
	}
	group.AddCommand(list, get)
	return group
}

// checkOutput refuses an unknown -o.
func checkOutput(o string) error {
	if o != "table" && o != "json" {
		return usagef("-o %q: want table or json", o)
	}
	return nil
}

// parseTime reads a time flag: RFC 3339, or a date (midnight UTC); "" is the zero time.
func parseTime(flag, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, usagef("%s %q: want a date (2026-11-01) or an RFC 3339 time (2026-11-01T09:00:00Z)", flag, s)
}

// printer writes rows as a table or as JSON lines. A table's header is written with its first
// row, or by flush when there is none, so that an error before any row prints no table.
type printer struct {
	w       io.Writer
	json    bool
	tw      *tabwriter.Writer
	columns []string
	started bool // the header is written
}

func newPrinter(w io.Writer, output string, columns []string) *printer {
	p := &printer{w: w, json: output == "json", columns: columns}
	if !p.json {
		p.tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	}
	return p
}

// header writes the table's header, once.
func (p *printer) header() {
	if p.tw != nil && !p.started {
		p.started = true
		fmt.Fprintln(p.tw, strings.Join(p.columns, "\t"))
	}
}

// print writes one row: its document compacted on one line, or its cells.
func (p *printer) print(r row) error {
	if p.json {
		var b bytes.Buffer
		if err := json.Compact(&b, r.raw); err != nil {
			return fmt.Errorf("the API sent a record that is not JSON: %w", err)
		}
		b.WriteByte('\n')
		_, err := p.w.Write(b.Bytes())
		return err
	}
	p.header()
	cells := make([]string, len(r.cells))
	for i, c := range r.cells {
		cells[i] = cell(c)
	}
	_, err := fmt.Fprintln(p.tw, strings.Join(cells, "\t"))
	return err
}

// flush ends the output: the header of an empty table, and the table's rows aligned.
func (p *printer) flush() error {
	p.header()
	return p.flushRows()
}

// flushRows writes the rows printed so far, before an error: no header without a row.
func (p *printer) flushRows() error {
	if p.tw != nil {
		return p.tw.Flush()
	}
	return nil
}

// cell makes a value fit a table cell: control characters (a terminal's escapes, tabs, line
// breaks) become spaces, long text is cut, and "" is "-".
func cell(s string) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > 40 {
		s = string(r[:39]) + "…"
	}
	if s == "" {
		return "-"
	}
	return s
}

// id and when format cells.
func id(n int64) string { return strconv.FormatInt(n, 10) }

func when(t workforce.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
