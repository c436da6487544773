package workforcetest

import (
	"bytes"
	"encoding/json"
	"testing"
)

// marshalJob writes the same bytes as json.Marshal for every Job of a seeded store, as each Pool
// sees it, and for values json escapes (HTML characters, line separators) or formats (floats, numbers),
// and empty fields.
func TestMarshalJobWritesWhatJSONWrites(t *testing.T) {
	t.Parallel()
	s := startStore(t, 120)
	var jobs []jobJSON
	_ = s.st.read(func(v view) error {
		for _, j := range s.st.jobs.order {
			jobs = append(jobs, renderJobFor(v, j, poolPrivate), renderJobFor(v, j, poolPublic))
		}
		return nil
	})
	odd := "<b>&amp; \u2028 \"quoted\"\n é"
	var hostile jobJSON
	if len(jobs) > 0 {
		hostile = jobs[0]
	}
	hostile.CancelledReason, hostile.RequestorNotes, hostile.State = &odd, &odd, odd
	hostile.Worker = marshalEmbeddedUser(&embeddedUserJSON{FirstName: odd})
	hostile.Transitions = nil
	jobs = append(jobs, hostile, jobJSON{})
	for _, f := range []float64{0, 1e-7, 0.25, 12.3456789, 1e21, -4} {
		for _, n := range []json.Number{"18.5", "0.5", "1e3", "-3", "", "12", "100.25"} { // valid, as optNumber makes them
			j := jobs[0]
			j.HoursWorked, j.AdjustedWage, j.W2HourlyRate = f, &n, n
			jobs = append(jobs, j)
		}
	}
	for i := range jobs {
		want, err := json.Marshal(&jobs[i])
		if err != nil {
			t.Fatal(err)
		}
		if got := marshalJob(&jobs[i]); !bytes.Equal(got, want) {
			t.Fatalf("job %d:\n got %s\nwant %s", i, got, want)
		}
	}
	if len(jobs) < 280 {
		t.Fatalf("rendered %d Jobs, want at least 240", len(jobs))
	}
}

// BenchmarkMarshalJob writes the JSON of 1,000 seeded Jobs as a first list of them does, with
// json.Marshal (the baseline) and with marshalJob:
//
//	go test -run '^$' -bench MarshalJob ./workforcetest/
func BenchmarkMarshalJob(b *testing.B) {
	s, err := Start()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	s.SeedJobs(1000)
	var jobs []jobJSON
	_ = s.st.read(func(v view) error {
		for _, j := range s.st.jobs.order {
			jobs = append(jobs, renderJob(v, j))
		}
		return nil
	})
	for _, bc := range []struct {
		name    string
		marshal func(*jobJSON) []byte
	}{
		{"json", func(j *jobJSON) []byte { data, _ := json.Marshal(j); return data }},
		{"append", marshalJob},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				for i := range jobs {
					bc.marshal(&jobs[i])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(jobs)), "ns/job")
		})
	}
}
