package workforce

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkDecodeForms decodes the captured page of 50 Jobs as it is (the
// fast path: json.Unmarshal alone), and with every embedded User's
// "suspended" sent as text, a form json.Unmarshal refuses into a bool: the
// whole page then takes the record-by-record lenient path.
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
	for _, bc := range []struct {
		name string
		page []byte
	}{{"every value fits", page}, {"every record has a value as text", text}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.page)))
			for b.Loop() {
				var jobs []*Job
				warnings, err := decodeEnvelope(bc.page, "jobs", &jobs)
				if err != nil || len(jobs) != 50 || len(warnings) != 0 {
					b.Fatalf("%d jobs, %d warnings, %v", len(jobs), len(warnings), err)
				}
			}
		})
	}
}
