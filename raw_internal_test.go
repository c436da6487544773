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

// selfByte is a byte that encodes itself as JSON, textByte as text.
type selfByte byte

func (b selfByte) MarshalJSON() ([]byte, error) { return []byte(`{"v": 1}`), nil }

type textByte byte

func (b textByte) MarshalText() ([]byte, error) { return []byte("x"), nil }

// Bytes whose type encodes itself are sent as that encoding says, not as
// base64 or numbers, so a Body of them is no mistake (outside attack 9,
// A9-1); bytes of any other type are.
func TestIsBytesFollowsEncodingJSON(t *testing.T) {
	t.Parallel()
	raw := []byte("x")
	for body, want := range map[any]bool{
		&raw: true, [2]byte{}: true, &[2]byte{}: true,
		&[]selfByte{1, 2}: false, &[]textByte{1}: false, [2]selfByte{}: false, [1]textByte{}: false,
	} {
		if got := isBytes(body); got != want {
			t.Errorf("isBytes(%T) = %v, want %v", body, got, want)
		}
	}
}

// FuzzBodyStrings runs bodyStrings over arbitrary bodies: it never panics.
func FuzzBodyStrings(f *testing.F) {
	for _, s := range []string{`{"a":"\u00"}`, `"\`, `"`, `{"a":"abc\"`, `"\ud800"`, `{"x":"YWJj"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for range bodyStrings(b) {
		}
	})
}
