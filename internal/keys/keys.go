// Package keys checks the shape of API keys, the one rule the client and
// the webhook receiver both apply.
package keys

import (
	"errors"
	"strings"
	"unicode"
)

// Mode returns the mode of key, "test" or "live": key must be prefix ("pk"
// for a publishable key, "sk" for a secret key), then "_test_" or
// "_live_", then at least one character, with no space or control
// character anywhere. Otherwise the error says what is wrong, naming the
// key as name (such as "secret key") and never quoting it.
func Mode(name, prefix, key string) (string, error) {
	if strings.ContainsFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return "", errors.New("the " + name + " holds a space or a control character")
	}
	rest, ok := strings.CutPrefix(key, prefix+"_")
	mode, secret, _ := strings.Cut(rest, "_")
	if !ok || (mode != "test" && mode != "live") || secret == "" {
		return "", errors.New("the " + name + " does not start with " + prefix + "_test_ or " + prefix + "_live_")
	}
	return mode, nil
}
