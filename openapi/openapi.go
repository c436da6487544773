// Package openapi holds the wire contract of Workforce Marketplace API v2 as an OpenAPI 3.1
// document: every endpoint with its parameters and request bodies, every answer's envelope and
// record in the JSON forms the platform really sends, the errors, the token and the webhooks.
// Each form says where it comes from in its x-source extension: observed in real answers, stated
// by the provider's documentation (spec), or the choice of this module. The fake server
// (package workforcetest) serves it at GET /_fake/openapi.yaml, and workforce-fake -openapi prints
// it: generate a client in another language from it, and test that client against the fake.
//
// The package has no dependencies: importing it costs the document's bytes.
package openapi

import (
	"bytes"
	_ "embed"
)

//go:embed workforce.yaml
var document []byte

// YAML returns the OpenAPI 3.1 document, as YAML. Each call returns a new copy, which the caller
// may change.
func YAML() []byte { return bytes.Clone(document) }
