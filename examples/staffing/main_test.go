package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStaffingDay(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out), out.String())
	for _, want := range []string{"Customer", "Badge", "posted", "invited", "Search", "422", "now holds Badge",
		"assigned to Worker", "Message", "checked in", "Timesheet imported: 1", "is approved", "The day is done"} {
		assert.Contains(t, out.String(), want)
	}
	assert.Equal(t, 2, strings.Count(out.String(), "checked in on Job"), "a check-in and a check-out")
}
