module github.com/workforce-marketplace/workforce-go/feed/postgres

go 1.24.0

require (
	github.com/jackc/pgx/v5 v5.8.0
	github.com/stretchr/testify v1.12.1
	github.com/workforce-marketplace/workforce-go v0.0.0-00010101000000-000000000000
	go.uber.org/goleak v1.3.0
)

require (
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.2 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sync v0.17.0 // indirect
	golang.org/x/text v0.29.0 // indirect
)

// Development against the repository's root module; go.work at the root does the same for the
// repository's commands.
replace github.com/workforce-marketplace/workforce-go => ../..
