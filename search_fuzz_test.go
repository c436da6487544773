package workforce_test

import (
	"encoding/json"
	"testing"

	"github.com/workforce-marketplace/workforce-go"
)

// FuzzSearchResult checks that no answer to GET /search makes decoding
// panic, and that what decodes keeps every record's own JSON.
func FuzzSearchResult(f *testing.F) {
	f.Add([]byte(`{"users": [{"id": 1, "rating": "4.5"}], "customers": [], "job_requests": [{"id": 2}], "badges": null}`))
	f.Add([]byte(`{"users": [null]}`))
	f.Add([]byte(`{"badges": {"id": 2}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var res workforce.SearchResult
		if json.Unmarshal(data, &res) != nil {
			return
		}
		for _, u := range res.Users {
			if u == nil || !json.Valid(u.Raw) {
				t.Fatalf("a user without its JSON: %q", data)
			}
		}
	})
}
