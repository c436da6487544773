package workforcetest_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestClockStandsStillUnlessMoved(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
	srv := workforcetest.NewServer(t, workforcetest.WithClock(start))
	assert.Equal(t, start, srv.Now())
	srv.Advance(90 * time.Minute)
	assert.Equal(t, start.Add(90*time.Minute), srv.Now())
	later := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	srv.SetTime(later)
	assert.Equal(t, later, srv.Now())

	def := workforcetest.NewServer(t)
	assert.Equal(t, time.UTC, def.Now().Location())
	assert.Zero(t, def.Now().Nanosecond(), "truncated to the second")
	assert.WithinDuration(t, time.Now(), def.Now(), time.Minute)

	ticking := workforcetest.NewServer(t, workforcetest.WithClock(start), workforcetest.WithTickingClock())
	ticking.Advance(time.Hour)
	assert.False(t, ticking.Now().Before(start.Add(time.Hour)))
	assert.WithinDuration(t, start.Add(time.Hour), ticking.Now(), time.Minute)
}
