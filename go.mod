module github.com/workforce-marketplace/workforce-go

go 1.24

require (
	github.com/davecgh/go-spew v1.1.1
	github.com/google/go-cmp v0.6.0
	github.com/google/go-querystring v1.2.0
	github.com/jarcoal/httpmock v1.4.2
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
