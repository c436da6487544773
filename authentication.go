package workforce

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/workforce-marketplace/workforce-go/internal/auth"
)

// AuthenticationService obtains tokens from the client's API keys. The
// client does this by itself when it needs a token; call it to check the
// keys up front or to hand a token to another process.
type AuthenticationService service

// A Token grants access to the API until ExpiresAt. Printing a Token with
// any fmt verb hides its value.
type Token struct {
	// Value is the token itself, sent with every call.
	Value string `json:"token"`
	// ExpiresAt is when the API stops accepting it (24 hours after issue).
	ExpiresAt Time `json:"expires_at"`
}

// Format prints the token's expiry and hides its value.
func (t Token) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "workforce.Token{Value:[REDACTED] ExpiresAt:%s}", t.ExpiresAt.Format(time.RFC3339))
}

// credentials are the body of POST /authenticate.
type credentials struct {
	APIKey    string `json:"api_key"`
	SecretKey string `json:"secret_key"`
}

func (credentials) check(bool) error { return nil }

// Authenticate exchanges the client's keys for a new token, which the
// client then uses. Wrong keys get ErrUnauthorized. A client made with
// WithToken and no keys gets an ErrInvalidArgument error.
//
// API: POST /authenticate
func (s *AuthenticationService) Authenticate(ctx context.Context) (*Token, *Response, error) {
	if err := s.client.ready(); err != nil {
		return nil, nil, err
	}
	if !s.client.tokens.CanRenew() {
		return nil, nil, &ArgumentError{Name: "keys", Reason: "are required to authenticate; the client holds only a token"}
	}
	tok, resp, err := s.authenticate(ctx)
	if err != nil {
		return nil, resp, err
	}
	s.client.tokens.Set(auth.Token{Value: tok.Value, ExpiresAt: tok.ExpiresAt.Time})
	return tok, resp, nil
}

func (s *AuthenticationService) authenticate(ctx context.Context) (*Token, *Response, error) {
	tok, resp, err := call[*Token](ctx, s.client, authentication.post(s.client.keys()))
	if err == nil && (tok == nil || tok.Value == "") {
		err = &DecodeError{Method: http.MethodPost, Path: s.client.base.JoinPath("authenticate").Path, Err: errors.New("the answer holds no token")}
		tok = nil
	}
	return tok, resp, err
}

// fetchToken is the token source's way to get a token.
func (c *Client) fetchToken(ctx context.Context) (auth.Token, error) {
	tok, _, err := c.Authentication.authenticate(ctx)
	if err != nil {
		return auth.Token{}, err
	}
	return auth.Token{Value: tok.Value, ExpiresAt: tok.ExpiresAt.Time}, nil
}
