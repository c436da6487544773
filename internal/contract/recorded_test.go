package contract_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/internal/contract"
)

// checkEnv names the directory of exchange logs that TestRecordedExchangesKeepTheContract checks.
// It is not workforcetest.ExchangeLogEnv, which makes fakes write there: .ci/run sets that one
// for its whole test run, and this one for a run of this test alone, after it, once every log is
// written.
const checkEnv = "WORKFORCE_CONTRACT_CHECK"

// TestRecordedExchangesKeepTheContract holds every exchange the suite's fakes logged (run the
// tests with WORKFORCE_CONTRACT_LOG naming a directory, then this test with
// WORKFORCE_CONTRACT_CHECK naming it) to the document: every answer, every request answered
// with a 2xx, every webhook delivered. Injected faults' answers are left out: they are the tests'
// own.
func TestRecordedExchangesKeepTheContract(t *testing.T) {
	dir := os.Getenv(checkEnv)
	if dir == "" {
		t.Skip(checkEnv + " is not set: no exchange log to check (.ci/run sets it)")
	}
	c, err := contract.Load()
	require.NoError(t, err)
	report, err := c.CheckLog(dir)
	require.NoError(t, err)
	t.Logf("%d exchanges checked in %d logs (%d webhook deliveries); %d answers of injected faults and %d cut exchanges left out",
		report.Checked, report.Files, report.Webhooks, report.Faults, report.Truncated)
	require.NotZero(t, report.Checked, "no exchange logged in %s: were the tests run with WORKFORCE_CONTRACT_LOG=%[1]s?", dir)
	lines := c.Summary(report.Violations)
	for i, line := range lines {
		if i == 100 {
			t.Errorf("and %d kinds more", len(lines)-i)
			break
		}
		t.Error(line)
	}
	if len(report.Violations) > 0 {
		t.Errorf("%d violations of the OpenAPI document", len(report.Violations))
	}
}
