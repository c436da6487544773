// Package webhook receives the deliveries of Workforce Marketplace API v2:
// it verifies their X-Service-Webhook-Token header, parses them into typed
// events, and serves them as an http.Handler.
//
// A delivery is signed with the SHA-256 digest of its body immediately
// followed by the secret API key of the key pair that owns the resource.
// The scheme is a plain hash, not an HMAC, and carries no timestamp or
// delivery ID: a delivery recorded by someone who saw it can be sent again,
// and the platform itself retries one that did not get a 2xx. A receiver
// that must act once per change drops repeated deliveries itself, for
// example by remembering the digest of each body it handled (see the
// Handler example), or by comparing the resource's updated_at with what it
// stored.
//
// # What Handler answers
//
// For each request, in this order, Handler:
//
//   - refuses a method other than POST (405);
//   - reads the body up to the cap (DefaultMaxBody, or WithMaxBody), and
//     answers 413 beyond it, within the read timeout (DefaultReadTimeout,
//     or WithReadTimeout), and answers 408 past it;
//   - verifies the signature before anything else looks at the body, and
//     answers 401 when it does not verify;
//   - parses the body (400 when it is not an event), and calls fn with the
//     request's context;
//   - answers 204 when fn returns nil, 422 when fn's error matches
//     ErrMalformedEvent (a refusal that is permanent), and 500 otherwise.
//
// The read timeout is a read deadline on the connection, set through
// http.ResponseController and cleared once the body is read. When the
// ResponseWriter does not support deadlines (a wrapper without an Unwrap
// method, say), Handler stops waiting at the timeout all the same and
// answers 408, but the read it leaves behind ends only when the server
// closes the connection: give the http.Server a ReadTimeout too, as it
// should have anyway, with ReadHeaderTimeout, WriteTimeout and IdleTimeout.
package webhook

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"strings"
)

// Header is the header that carries a delivery's signature.
const Header = "X-Service-Webhook-Token"

// The errors of Verify. Each is distinct, so a receiver can tell a
// misconfiguration (ErrNoSecret) from a forged or damaged delivery.
var (
	// ErrNoSecret is returned when the secret key to verify with is empty.
	ErrNoSecret = errors.New("webhook: no secret key to verify with")
	// ErrNoSignature is returned when the delivery has no signature.
	ErrNoSignature = errors.New("webhook: the " + Header + " header is missing or empty")
	// ErrMalformedSignature is returned when the signature is neither the
	// hex (either case) nor the standard base64 form of a SHA-256 digest.
	ErrMalformedSignature = errors.New("webhook: the " + Header + " header is not a SHA-256 digest in hex or base64")
	// ErrMismatch is returned when the signature is well formed but not
	// the one of this body and secret key.
	ErrMismatch = errors.New("webhook: the signature does not match the body and secret key")
)

// Verify checks that header, the value of the X-Service-Webhook-Token
// header, is the signature of body with secretKey: the SHA-256 digest of
// body immediately followed by secretKey, written as 64 hex digits of
// either case or in standard base64. body must be the exact bytes
// received, before any parsing. The digests are compared in constant
// time. Verify does not parse body and allocates nothing in proportion to
// it.
func Verify(body []byte, header, secretKey string) error {
	if secretKey == "" {
		return ErrNoSecret
	}
	header = strings.TrimSpace(header)
	if header == "" {
		return ErrNoSignature
	}
	var got [sha256.Size]byte
	if !decodeDigest(header, &got) {
		return ErrMalformedSignature
	}
	want := digest(body, secretKey)
	if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
		return ErrMismatch
	}
	return nil
}

// Sign returns the X-Service-Webhook-Token value for body and secretKey,
// in lowercase hex, as the platform sends it. It is for tests and fakes
// that send deliveries; an empty secretKey signs a delivery that Verify
// refuses.
func Sign(body []byte, secretKey string) string {
	d := digest(body, secretKey)
	return hex.EncodeToString(d[:])
}

// digest is SHA-256 over body followed by secretKey.
func digest(body []byte, secretKey string) [sha256.Size]byte {
	var h hash.Hash = sha256.New()
	h.Write(body)
	_, _ = io.WriteString(h, secretKey)
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// decodeDigest reads a SHA-256 digest written in hex (either case) or in
// standard base64 (with or without padding) into out.
func decodeDigest(s string, out *[sha256.Size]byte) bool {
	var buf [48]byte // room for what the decoders may write
	var n int
	var err error
	switch len(s) {
	case hex.EncodedLen(sha256.Size):
		n, err = hex.Decode(buf[:], []byte(s))
	case base64.StdEncoding.EncodedLen(sha256.Size):
		n, err = base64.StdEncoding.Strict().Decode(buf[:], []byte(s))
	case base64.RawStdEncoding.EncodedLen(sha256.Size):
		n, err = base64.RawStdEncoding.Strict().Decode(buf[:], []byte(s))
	default:
		return false
	}
	copy(out[:], buf[:n])
	return err == nil && n == sha256.Size
}
