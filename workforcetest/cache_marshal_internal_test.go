package workforcetest

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// marshalJob writes the same bytes as json.Marshal for every Job of a seeded store, for values
// json escapes (HTML characters, line separators) or formats (floats, numbers), and empty fields
// (no Worker, no Employer).
func TestMarshalJobWritesWhatJSONWrites(t *testing.T) {
	t.Parallel()
	s := startStore(t, 120)
	var jobs []jobJSON
	_ = s.st.read(func(v view) error {
		for _, j := range s.st.jobs.order {
			jobs = append(jobs, renderJob(v, j))
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
	if len(jobs) < 160 {
		t.Fatalf("rendered %d Jobs, want at least 160", len(jobs))
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

// FuzzMarshalJob holds marshalJob to json.Marshal's bytes on arbitrary
// strings (invalid UTF-8, HTML and line separators included), floats and
// numbers, in every field that marshalJob writes its own way.
func FuzzMarshalJob(f *testing.F) {
	f.Add("a", 1.5, "12.5", int64(3), "x")
	f.Add("\xff\x7f\u2028<&>", math.Copysign(0, -1), "1e400", int64(-1), "\x00")
	f.Fuzz(func(t *testing.T, s string, hours float64, number string, n int64, rate string) {
		if math.IsNaN(hours) || math.IsInf(hours, 0) {
			t.Skip("json.Marshal refuses it")
		}
		var valid json.Number
		if json.Unmarshal([]byte(number), &valid) != nil {
			t.Skip("not a JSON number")
		}
		wage, duration := json.Number(number), int(n)
		j := jobJSON{ID: n, State: s, CreatedAt: s, ConfirmedAt: &s, HoursWorked: hours, ActualDuration: &duration,
			TimeToStart: &n, AdjustedWage: &wage, RequestorNotes: &s, Classification: s,
			Worker:      marshalEmbeddedUser(&embeddedUserJSON{FirstName: s}),
			Transitions: []transitionJSON{{ID: n, Name: s, Latitude: &s}}}
		for _, r := range []any{rate, wage, hours, nil} {
			j.W2HourlyRate = r
			want, err := json.Marshal(&j)
			if err != nil {
				t.Skip(err)
			}
			if got := marshalJob(&j); !bytes.Equal(got, want) {
				t.Fatalf("W2HourlyRate %T %v:\n got %s\nwant %s", r, r, got, want)
			}
		}
	})
}
