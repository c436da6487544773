package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/openapi"
)

// The environment variables the keys are read from, as the SDK's README names them.
const (
	envAPIKey    = "WORKFORCE_API_KEY"
	envSecretKey = "WORKFORCE_SECRET_KEY"
)

// connFlags are the flags that say how to reach the API. The secret key has no flag of its
// own, so that it never shows in a process list or a shell's history: a file holds it instead.
type connFlags struct {
	baseURL, apiKey, secretKeyFile string
}

// register adds the flags to every command. No default is read from the environment here, so
// that --help never shows a key.
func (f *connFlags) register(cmd *cobra.Command) {
	p := cmd.PersistentFlags()
	p.StringVar(&f.baseURL, "base-url", "", "the API's base URL (default $"+workforce.EnvTestBaseURL+" for test keys, else $"+workforce.EnvBaseURL+")")
	p.StringVar(&f.apiKey, "api-key", "", "the API key, pk_test_… or pk_live_… (default $"+envAPIKey+")")
	p.StringVar(&f.secretKeyFile, "secret-key-file", "", "a file holding the secret key (default $"+envSecretKey+"); no flag takes the key itself")
}

// keys answers the API key and the secret key, from the flags or the environment.
func (e *env) keys() (apiKey, secretKey string, err error) {
	apiKey = e.conn.apiKey
	if apiKey == "" {
		apiKey = e.getenv(envAPIKey)
	}
	if apiKey == "" {
		return "", "", usagef("no API key: set %s or --api-key", envAPIKey)
	}
	if e.conn.secretKeyFile != "" {
		b, err := os.ReadFile(e.conn.secretKeyFile)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path only: the file's content is never in an error anyway
			}
			return "", "", usagef("reading --secret-key-file %s: %v", e.conn.secretKeyFile, err)
		}
		secretKey = strings.TrimRight(string(b), "\r\n")
	} else {
		secretKey = e.getenv(envSecretKey)
	}
	if secretKey == "" {
		return "", "", usagef("no secret key: set %s or --secret-key-file", envSecretKey)
	}
	return apiKey, secretKey, nil
}

// client answers a client of the API configured from the flags and the environment, and the
// secret key (for signing deliveries). A missing or malformed key or base URL is a usage error.
func (e *env) client() (*workforce.Client, string, error) {
	apiKey, secretKey, err := e.keys()
	if err != nil {
		return nil, "", err
	}
	base, err := e.baseURL(apiKey)
	if err != nil {
		return nil, "", err
	}
	c, err := workforce.New(apiKey, secretKey, workforce.WithBaseURL(base), workforce.WithUserAgent("workforce-cli"))
	if err != nil {
		return nil, "", usageError{err} // the SDK's errors name no key
	}
	return c, secretKey, nil
}

// baseURL answers the API's base URL for apiKey, from the flags and the environment.
func (e *env) baseURL(apiKey string) (string, error) {
	base := e.conn.baseURL
	if base == "" && strings.HasPrefix(apiKey, "pk_test_") {
		base = e.getenv(workforce.EnvTestBaseURL)
	}
	if base == "" {
		base = e.getenv(workforce.EnvBaseURL)
	}
	if base == "" {
		return "", usagef("no base URL: set %s (test keys), %s or --base-url", workforce.EnvTestBaseURL, workforce.EnvBaseURL)
	}
	return base, nil
}

// openapiCommand prints the API's contract.
func (e *env) openapiCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "openapi",
		Short: "Print the API's OpenAPI 3.1 document (YAML)",
		Long:  "openapi prints the contract of Workforce Marketplace API v2 as an OpenAPI 3.1 document, in YAML.",
		Args:  usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			_, err := cmd.OutOrStdout().Write(openapi.YAML())
			return err
		}),
	}
}

// errorf wraps an error with a description of what was being done.
func errorf(err error, format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, err)...)
}
