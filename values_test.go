package workforce_test

import (
	"encoding/json"
	"math"
	"net/url"
	"testing"

	"github.com/google/go-querystring/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// wage is a document holding one Decimal, as resources do.
type wage struct {
	Wage workforce.Decimal `json:"wage"`
}

func TestDecimalDecodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		json  string
		valid bool
		text  string
		f     float64
	}{
		{`5`, true, "5", 5},
		{`5.0`, true, "5.0", 5},
		{`18.50`, true, "18.50", 18.5},
		{`"18.50"`, true, "18.50", 18.5},
		{`"34.042019"`, true, "34.042019", 34.042019},
		{`-118.2437`, true, "-118.2437", -118.2437},
		{`"-3e2"`, true, "-3e2", -300},
		{`" 7.25 "`, true, "7.25", 7.25},
		{`0`, true, "0", 0},
		{`"0.0"`, true, "0.0", 0},
		{`""`, false, "", 0},
		{`"  "`, false, "", 0},
		{`null`, false, "", 0},
		{`123456789012345678901234567890.123456789`, true, "123456789012345678901234567890.123456789", 1.2345678901234568e29},
		{`"+5"`, true, "5", 5},
		{`".5"`, true, "0.5", 0.5},
		{`"5."`, true, "5", 5},
	}
	for _, tt := range tests {
		t.Run(tt.json, func(t *testing.T) {
			t.Parallel()
			var w wage
			require.NoError(t, json.Unmarshal([]byte(`{"wage": `+tt.json+`}`), &w))
			assert.Equal(t, tt.valid, w.Wage.Valid())
			assert.Equal(t, tt.text, w.Wage.String(), "the digits are kept as sent")
			assert.InDelta(t, tt.f, w.Wage.Float64(), 1e-9)
		})
	}
}

func TestDecimalRefusesGarbage(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`"abc"`, `"5 dollars"`, `"NaN"`, `"Infinity"`, `"-inf"`, `"0x10"`, `"1_000"`,
		`"5.0.0"`, `true`, `{}`, `[1]`} {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			var w wage
			assert.Error(t, json.Unmarshal([]byte(`{"wage": `+in+`}`), &w))
		})
	}
}

func TestDecimalBeyondFloat64KeepsItsDigits(t *testing.T) {
	t.Parallel()
	var w wage
	require.NoError(t, json.Unmarshal([]byte(`{"wage": "1e400"}`), &w))
	assert.Equal(t, "1e400", w.Wage.String())
	assert.True(t, math.IsInf(w.Wage.Float64(), 1))
}

func TestDecimalZeroIsAbsentNotZero(t *testing.T) {
	t.Parallel()
	var absent workforce.Decimal
	zero := workforce.NewDecimal(0)
	assert.False(t, absent.Valid())
	assert.True(t, zero.Valid())
	assert.Equal(t, "0", zero.String())
	assert.Equal(t, absent.Float64(), zero.Float64(), "only Valid tells them apart")
}

func TestDecimalMarshals(t *testing.T) {
	t.Parallel()
	parsed, err := workforce.ParseDecimal(" 18.50 ")
	require.NoError(t, err)
	tests := []struct {
		name string
		d    workforce.Decimal
		want string
	}{
		{"absent", workforce.Decimal{}, `{"wage":null}`},
		{"parsed keeps its digits", parsed, `{"wage":18.50}`},
		{"from float", workforce.NewDecimal(12.5), `{"wage":12.5}`},
		{"from small float", workforce.NewDecimal(0.000001), `{"wage":0.000001}`},
		{"negative", workforce.NewDecimal(-3), `{"wage":-3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(wage{tt.d})
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(b))
		})
	}
	_, err = workforce.ParseDecimal("12,5")
	assert.Error(t, err)
}

func TestDecimalQueryValue(t *testing.T) {
	t.Parallel()
	v := url.Values{}
	require.NoError(t, workforce.Decimal{}.EncodeValues("w2_hourly_rate", &v))
	assert.Empty(t, v, "an absent Decimal is left out")
	d, err := workforce.ParseDecimal("18.50")
	require.NoError(t, err)
	require.NoError(t, d.EncodeValues("w2_hourly_rate", &v))
	assert.Equal(t, "18.50", v.Get("w2_hourly_rate"))
}

// stamp is a document holding one Time.
type stamp struct {
	At workforce.Time `json:"at"`
}

func FuzzDecimal(f *testing.F) {
	for _, seed := range []string{`5`, `5.0`, `"18.50"`, `""`, `null`, `"abc"`, `-0`, `1e308`, `"1e400"`, `" 7 "`,
		`"\u0035"`, `"NaN"`, `true`, `{}`, `[]`, `"`, `"12`, ``, `0.000000000000000000001`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var direct workforce.Decimal
		_ = direct.UnmarshalJSON(b) // arbitrary bytes: an error, never a panic

		var d workforce.Decimal
		if json.Unmarshal(b, &d) != nil {
			return
		}
		out, err := json.Marshal(d)
		require.NoError(t, err, "decoded from %q", b)
		var again workforce.Decimal
		require.NoError(t, json.Unmarshal(out, &again), "re-decoding %s", out)
		assert.Equal(t, d, again)
		assert.Equal(t, d.Valid(), again.Valid())
	})
}

func FuzzDecodeJob(f *testing.F) {
	for _, seed := range []string{
		`{"id": 1, "state": "filled", "adjusted_wage": "18.50", "created_at": "2017-09-13T18:34:36Z"}`,
		`{"id": 2, "state": "teleported", "hours_worked": 3.5, "worker": {"id": 7, "rating": "4.9"}, "extra": [1, {"a": null}]}`,
		`{"transitions": [{"id": 1, "name": "filled", "latitude": "34.04", "longitude": -118.24}]}`,
		`{"job": {"id": 3}}`, `null`, `[]`, `{}`, `{"id": "1"}`, `{"worker": []}`, `{"created_at": ""}`, `{`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var job workforce.Job
		if json.Unmarshal(b, &job) != nil {
			return
		}
		if len(job.Raw) > 0 {
			assert.True(t, json.Valid(job.Raw), "Raw is JSON")
		}
		_, _ = json.Marshal(job) // never panics
	})
}

func TestDecimalWithoutDecimalFormIsRefused(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		d := workforce.NewDecimal(f)
		_, err := json.Marshal(d)
		assert.Error(t, err)
		_, err = query.Values(struct {
			D workforce.Decimal `url:"d"`
		}{d})
		assert.Error(t, err)
	}
}
