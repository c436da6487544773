// Package docs holds the project's documents; its test keeps the contract
// in step with the team's copy.
package docs

import (
	"os"
	"strings"
	"testing"
)

// TestContractIsTheTeamsCopy checks docs/CONTRACT.md against the team's
// copy beside the repository, when there is one (a fresh clone has none).
func TestContractIsTheTeamsCopy(t *testing.T) {
	team, err := os.ReadFile("../../shared/CONTRACT.md")
	if err != nil {
		t.Skip("no team copy beside the repository")
	}
	ours, err := os.ReadFile("CONTRACT.md")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(ours), "\n") // after the header line
	if body != string(team) {
		t.Error("docs/CONTRACT.md differs from ../shared/CONTRACT.md: copy the team's version")
	}
}
