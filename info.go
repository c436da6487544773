package workforce

import (
	"context"
	"encoding/json"
	"net/http"
)

// InfoService reads the API's status. It needs no token.
type InfoService service

// Info is the API's status: the keys the live API answers (CONTRACT §10.1).
type Info struct {
	// UTCTimeNow is the server's clock.
	UTCTimeNow Time `json:"utc_time_now"`
	// Environment names the API environment, such as "production".
	Environment string `json:"environment"`
	// RailsEnvironment names the environment the platform (a Rails application) runs in, such
	// as "production"; the live API's equals Environment.
	RailsEnvironment string `json:"rails_environment"`
	// RackEnvironment names the environment of the platform's web server, such as
	// "production"; the live API's equals Environment.
	RackEnvironment string `json:"rack_environment"`
	// ReleaseVersion is the platform's release, nil when null, the only value seen: the form of
	// a set one is unknown, and text is the OpenAPI document's choice. A value of another form
	// leaves it nil, with a Warning, and stays in Raw.
	ReleaseVersion *string `json:"release_version"`
	// Deploy names the platform's deploy, nil when null, the only value seen; as ReleaseVersion.
	Deploy *string `json:"deploy"`
	// Raw is the whole answer, with the fields this type does not model.
	Raw json.RawMessage `json:"-"`
}

func (i *Info) setRaw(b json.RawMessage) { i.Raw = b }

// Get returns the API's status. The API answers a flat object; one wrapped
// in "info" is read too. It asks caches for a fresh answer (Cache-Control:
// no-cache): its clock is what syncs and settles reckon from.
//
// API: GET /info
func (s *InfoService) Get(ctx context.Context) (*Info, *Response, error) {
	r := info.find(nil)
	r.header = http.Header{"Cache-Control": {"no-cache"}}
	return call[*Info](ctx, s.client, r)
}
