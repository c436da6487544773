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

// TestRealworldIsTheTeamsCopy checks testdata/realworld against the team's
// captures beside the repository, when they are there: the same files,
// byte for byte (they are evidence, never edited to fit the code).
func TestRealworldIsTheTeamsCopy(t *testing.T) {
	team, err := os.ReadDir("../../shared/realworld")
	if err != nil {
		t.Skip("no team captures beside the repository")
	}
	ours, err := os.ReadDir("../testdata/realworld")
	if err != nil {
		t.Fatal(err)
	}
	if len(ours) != len(team) {
		t.Errorf("testdata/realworld holds %d files, the team's captures %d: copy them again", len(ours), len(team))
	}
	for _, e := range team {
		want, err := os.ReadFile("../../shared/realworld/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile("../testdata/realworld/" + e.Name())
		if err != nil || string(got) != string(want) {
			t.Errorf("testdata/realworld/%s differs from the team's capture: copy it again", e.Name())
		}
	}
}
