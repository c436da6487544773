package workforce

import (
	"net/url"
	pathpkg "path"
	"strings"
	"testing"
)

// FuzzCheckPath checks that every path Client.Do accepts makes a URL that
// stays below /api_v2/: no step up, no empty segment, no query, no
// fragment, once a server decodes it.
func FuzzCheckPath(f *testing.F) {
	for _, p := range []string{"jobs/42", "badges/%zz", "jobs/%2e%2e/x", "x/%41%3a", "a//b", "users/7/tracking", "%2F"} {
		f.Add(p)
	}
	base, _ := url.Parse("https://api.example.com/api_v2/")
	f.Fuzz(func(t *testing.T, p string) {
		if checkPath(p) != nil {
			return
		}
		u := base.JoinPath(p)
		sent, err := url.Parse(u.String())
		if err != nil {
			t.Fatalf("%q: the URL %q does not parse: %v", p, u, err)
		}
		got := sent.Path // as a server decodes it
		if !strings.HasPrefix(got, "/api_v2/") || pathpkg.Clean(got) != got || sent.RawQuery != "" || sent.Fragment != "" || sent.Host != base.Host {
			t.Fatalf("%q is sent as %q (query %q, fragment %q, host %q)", p, got, sent.RawQuery, sent.Fragment, sent.Host)
		}
		if strings.Count(got, "/") != strings.Count(p, "/")+2 {
			t.Fatalf("%q is sent as %q: its segments changed", p, got)
		}
	})
}
