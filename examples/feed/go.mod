module github.com/workforce-marketplace/workforce-go/examples/feed

go 1.26.0

require (
	github.com/jackc/pgx/v5 v5.8.0
	github.com/stretchr/testify v1.12.1
	github.com/workforce-marketplace/workforce-go v0.0.0-00010101000000-000000000000
	github.com/workforce-marketplace/workforce-go/feed/postgres v0.0.0-00010101000000-000000000000
	github.com/workforce-marketplace/workforce-go/feed/sqlite v0.0.0-00010101000000-000000000000
	go.uber.org/goleak v1.3.0
)

require (
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.2 // indirect
	github.com/ncruces/go-sqlite3 v0.37.0 // indirect
	github.com/ncruces/go-sqlite3-wasm/v6 v6.5.35401 // indirect
	github.com/ncruces/julianday v1.0.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

// Development against the repository's modules; go.work at the root does the same for the
// repository's commands.
replace (
	github.com/workforce-marketplace/workforce-go => ../..
	github.com/workforce-marketplace/workforce-go/feed/postgres => ../../feed/postgres
	github.com/workforce-marketplace/workforce-go/feed/sqlite => ../../feed/sqlite
)
