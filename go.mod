module github.com/workforce-marketplace/workforce-go

go 1.25

require (
	github.com/davecgh/go-spew v1.1.1
	github.com/google/go-cmp v0.6.0
	github.com/google/go-querystring v1.2.0
	github.com/jarcoal/httpmock v1.4.2
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
)

require (
	github.com/getkin/kin-openapi v0.153.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
