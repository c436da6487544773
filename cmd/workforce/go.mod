module github.com/workforce-marketplace/workforce-go/cmd/workforce

go 1.26.0

require (
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	github.com/stretchr/testify v1.12.1
	github.com/workforce-marketplace/workforce-go v0.0.0-00010101000000-000000000000
	github.com/workforce-marketplace/workforce-go/feed/sqlite v0.0.0-00010101000000-000000000000
	go.uber.org/goleak v1.3.0
)

require (
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/ncruces/go-sqlite3 v0.37.0 // indirect
	github.com/ncruces/go-sqlite3-wasm/v6 v6.5.35401 // indirect
	github.com/ncruces/julianday v1.0.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

// Development against the repository's modules; go.work at the root does the same for the
// repository's commands.
replace (
	github.com/workforce-marketplace/workforce-go => ../..
	github.com/workforce-marketplace/workforce-go/feed/sqlite => ../../feed/sqlite
)
