package workforce_test

import (
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// TestVersionIsTheNewestRelease keeps Version and the CHANGELOG together:
// the newest release the CHANGELOG records ("## 0.2.0 - 2026-11-24", below
// "## Unreleased") is Version, a semantic version, with a date.
func TestVersionIsTheNewestRelease(t *testing.T) {
	t.Parallel()
	assert.Regexp(t, `^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$`, workforce.Version, "a tag v%s must be a module version", workforce.Version)
	changelog, err := os.ReadFile("CHANGELOG.md")
	require.NoError(t, err)
	heading := regexp.MustCompile(`(?m)^## (.*)$`)
	release := regexp.MustCompile(`^(\d+\.\d+\.\d+)(?: - (\d{4}-\d{2}-\d{2}))?$`)
	for _, h := range heading.FindAllStringSubmatch(string(changelog), -1) {
		if h[1] == "Unreleased" {
			continue
		}
		m := release.FindStringSubmatch(h[1])
		require.NotNil(t, m, "the heading %q names no release: ## X.Y.Z - YYYY-MM-DD", h[0])
		assert.Equal(t, workforce.Version, m[1], "Version and the CHANGELOG's newest release")
		_, err := time.Parse(time.DateOnly, m[2])
		assert.NoError(t, err, "the newest release, %s, is dated", m[1])
		return
	}
	t.Fatal("the CHANGELOG records no release")
}
