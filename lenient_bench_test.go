package workforce

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// BenchmarkDecodeForms decodes the captured page of 50 Jobs as it is (the
// fast path: json.Unmarshal alone), and with every embedded User's
// "suspended" sent as text, a form json.Unmarshal refuses into a bool: the
// whole page then takes the record-by-record lenient path; and a page
// whose every value fits no form, which keeps MaxWarnings warnings.
func BenchmarkDecodeForms(b *testing.B) {
	page, err := os.ReadFile("testdata/jobs_page_2017.json")
	if err != nil {
		b.Fatal(err)
	}
	text := bytes.ReplaceAll(page, []byte(`"suspended": false,
    "latitude"`), []byte(`"suspended": "false",
    "latitude"`))
	if bytes.Equal(text, page) {
		b.Fatal("no value replaced")
	}
	// The most warnings a page within the bounds holds: 50 Jobs of 990
	// values that fit no form, 4 MiB.
	var bad bytes.Buffer
	bad.WriteString(`{"jobs":[`)
	for i := range 50 {
		if i > 0 {
			bad.WriteByte(',')
		}
		fmt.Fprintf(&bad, `{"id":%d`, 1000-i)
		for range 990 {
			bad.WriteString(`,"hours_worked":"` + strings.Repeat("x", 60) + `"`)
		}
		bad.WriteByte('}')
	}
	bad.WriteString(`]}`)
	for _, bc := range []struct {
		name     string
		page     []byte
		warnings int
	}{{"every value fits", page, 0}, {"every record has a value as text", text, 0}, {"49,500 values fit no form", bad.Bytes(), MaxWarnings}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.page)))
			for b.Loop() {
				var jobs []*Job
				found, err := decodeEnvelope(bc.page, "jobs", &jobs, MaxWarnings)
				if err != nil || len(jobs) != 50 || len(found.list) != bc.warnings {
					b.Fatalf("%d jobs, %d warnings, %v", len(jobs), len(found.list), err)
				}
			}
		})
	}
}
