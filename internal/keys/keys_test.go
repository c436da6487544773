package keys

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMode(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]string{
		"sk_test_abc": "test", "sk_live_x": "live", "sk_test_a_b": "test",
	} {
		got, err := Mode("secret key", "sk", key)
		assert.NoError(t, err, key)
		assert.Equal(t, want, got, key)
	}
	for key, reason := range map[string]string{
		" sk_test_abc": "space", "sk_test_abc\n": "space", "sk_test_a\x00": "control", "sk_test_a\u00a0": "space",
		"": "does not start", "sk_test_": "does not start", "sk_prod_abc": "does not start", "pk_test_abc": "does not start",
		"sk_testabc": "does not start",
	} {
		_, err := Mode("secret key", "sk", key)
		if assert.Error(t, err, "%q", key) {
			assert.Contains(t, err.Error(), reason, "%q", key)
			assert.Contains(t, err.Error(), "the secret key ")
		}
	}
}
