package workforce_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestTimeDecodes(t *testing.T) {
	t.Parallel()
	utc := time.Date(2017, 9, 13, 18, 34, 36, 0, time.UTC)
	tests := []struct {
		json string
		want time.Time // zero: absent
	}{
		{`"2017-09-13T18:34:36Z"`, utc},
		{`"2017-09-13T11:34:36-07:00"`, utc},
		{`"2017-09-13T11:34:36.820-07:00"`, utc.Add(820 * time.Millisecond)},
		{`"2017-09-13T18:34:36.123456789Z"`, utc.Add(123456789)},
		{`"2017-09-13T18:34:36+0000"`, utc},
		{`"2017-09-13 18:34:36Z"`, utc},
		{`" 2017-09-13T18:34:36Z "`, utc},
		{`"2017-09-13t18:34:36z"`, utc},
		{`""`, time.Time{}},
		{`"   "`, time.Time{}},
		{`null`, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.json, func(t *testing.T) {
			t.Parallel()
			var s stamp
			require.NoError(t, json.Unmarshal([]byte(`{"at": `+tt.json+`}`), &s))
			assert.True(t, tt.want.Equal(s.At.Time), "got %v", s.At.Time)
			assert.Equal(t, tt.want.IsZero(), s.At.IsZero())
		})
	}
}

func TestTimeKeepsItsOffset(t *testing.T) {
	t.Parallel()
	var s stamp
	require.NoError(t, json.Unmarshal([]byte(`{"at": "2017-09-13T11:34:36.820-07:00"}`), &s))
	_, offset := s.At.Zone()
	assert.Equal(t, -7*3600, offset)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.Equal(t, `{"at":"2017-09-13T11:34:36.820-07:00"}`, string(b))
}

func TestTimeRefusesGarbage(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`"yesterday"`, `"2017-09-13"`, `"2017-13-45T99:00:00Z"`, `"13/09/2017 18:34"`,
		`1505327676`, `true`, `{}`, `["2017-09-13T18:34:36Z"]`} {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			var s stamp
			assert.Error(t, json.Unmarshal([]byte(`{"at": `+in+`}`), &s))
		})
	}
}

func TestTimeMarshals(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(stamp{})
	require.NoError(t, err)
	assert.Equal(t, `{"at":null}`, string(b))
	b, err = json.Marshal(stamp{workforce.Time{Time: time.Date(2026, 11, 23, 4, 50, 40, 0, time.UTC)}})
	require.NoError(t, err)
	assert.Equal(t, `{"at":"2026-11-23T04:50:40Z"}`, string(b))
}

func FuzzTime(f *testing.F) {
	for _, seed := range []string{`"2017-09-13T18:34:36Z"`, `"2017-09-13T11:34:36.820-07:00"`, `"2017-09-13T18:34:36+0000"`,
		`"2017-09-13 18:34:36 -0700"`, `""`, `null`, `"garbage"`, `12`, `"0000-01-01T00:00:00+23:59"`,
		`"9999-12-31T23:59:59-23:59"`, `"2017-09-13T18:34:36.1234567891Z"`, `"`, `"\u0032017-09-13T18:34:36Z"`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var direct workforce.Time
		_ = direct.UnmarshalJSON(b)

		var tm workforce.Time
		if json.Unmarshal(b, &tm) != nil {
			return
		}
		out, err := json.Marshal(tm)
		require.NoError(t, err, "decoded from %q", b)
		var again workforce.Time
		require.NoError(t, json.Unmarshal(out, &again), "re-decoding %s", out)
		assert.True(t, tm.Equal(again.Time), "%v != %v", tm.Time, again.Time)
		assert.Equal(t, tm.IsZero(), again.IsZero())
	})
}

func TestWallClock(t *testing.T) {
	t.Parallel()
	w := workforce.NewWallClock(2026, 12, 1, 9, 5)
	assert.Equal(t, "2026-12-01 09:05", w.String())
	assert.Equal(t, w, workforce.WallClockOf(time.Date(2026, 12, 1, 9, 5, 30, 0, time.FixedZone("X", -11*3600))), "the zone is ignored")
	parsed, err := workforce.ParseWallClock("2026-12-01 09:05")
	require.NoError(t, err)
	assert.Equal(t, w, parsed)
	_, err = workforce.ParseWallClock("2026-12-01T09:05:00Z")
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
	la, _ := time.LoadLocation("America/Los_Angeles")
	if la != nil {
		assert.Equal(t, "2026-12-01T09:05:00-08:00", w.In(la).Format(time.RFC3339))
	}
	assert.True(t, workforce.WallClock{}.IsZero())
	assert.Equal(t, "", workforce.WallClock{}.String())
	assert.Equal(t, "2026-12-02 00:00", workforce.NewWallClock(2026, 12, 1, 24, 0).String())
}

// A Time read from text writes as many digits of fraction as it read, so
// that its precision survives a round trip.
func TestTimeKeepsItsPrecision(t *testing.T) {
	t.Parallel()
	for _, text := range []string{`"2017-09-13T11:34:36.820-07:00"`, `"2017-09-13T11:34:36Z"`, `"2017-09-13T11:34:36.000Z"`, `"2017-09-13T11:34:36.123456789Z"`} {
		var a, b workforce.Time
		require.NoError(t, json.Unmarshal([]byte(text), &a))
		out, err := json.Marshal(a)
		require.NoError(t, err)
		assert.Equal(t, text, string(out))
		require.NoError(t, json.Unmarshal(out, &b))
		assert.Equal(t, a, b)
	}
}

// A timestamp from the fake prints as the API wrote it, its offset once, and writes back the
// offset of its day: -07:00 in Pacific daylight time, -08:00 in standard time.
func TestTimePrintsAsTheAPIWroteIt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		clock  time.Time
		offset string
	}{
		{time.Date(2026, time.July, 1, 18, 0, 0, 0, time.UTC), "-07:00"},
		{time.Date(2026, time.January, 15, 18, 0, 0, 0, time.UTC), "-08:00"},
	} {
		srv := workforcetest.NewServer(t, workforcetest.WithClock(tc.clock))
		c, err := srv.Client()
		require.NoError(t, err)
		job, _, err := c.Jobs.Get(t.Context(), srv.Seed().PublicJobID)
		require.NoError(t, err)
		printed := fmt.Sprint(job.CreatedAt)
		assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}`+tc.offset+`$`, printed)
		assert.NotContains(t, fmt.Sprintf("%v %+v", job.CreatedAt, job), "00 -0")
		b, err := json.Marshal(job.CreatedAt)
		require.NoError(t, err)
		assert.Equal(t, `"`+printed+`"`, string(b), "the JSON form is the printed one")
		assert.True(t, job.CreatedAt.Equal(tc.clock) || job.CreatedAt.Before(tc.clock))
	}
	assert.Empty(t, workforce.Time{}.String())
}
