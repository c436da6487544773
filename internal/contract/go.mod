module github.com/workforce-marketplace/workforce-go/internal/contract

go 1.25

require (
	github.com/getkin/kin-openapi v0.153.0
	github.com/stretchr/testify v1.12.1
	github.com/workforce-marketplace/workforce-go v0.0.0-00010101000000-000000000000
)

require (
	github.com/go-openapi/jsonpointer v0.22.5 // indirect
	github.com/go-openapi/swag/jsonname v0.25.5 // indirect
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	go.yaml.in/yaml/v4 v4.0.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)

replace github.com/workforce-marketplace/workforce-go => ../..
