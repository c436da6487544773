package workforcetest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMalformedBodies(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for name, tc := range map[string]struct {
		contentType, body string
		status            int
	}{
		"broken JSON":     {"application/json", `{"api_key":`, http.StatusBadRequest},
		"JSON null":       {"application/json", `null`, http.StatusBadRequest},
		"JSON array":      {"application/json", `[1,2]`, http.StatusBadRequest},
		"two objects":     {"application/json", `{}{}`, http.StatusBadRequest},
		"trailing data":   {"application/json", `{"api_key": "a"} {}`, http.StatusBadRequest},
		"sniffed broken":  {"", `{"job":`, http.StatusBadRequest},
		"bad form escape": {"application/x-www-form-urlencoded", "api_key=%zz", http.StatusUnprocessableEntity},
		"too large":       {"application/json", `{"a": "` + strings.Repeat("x", 2<<20) + `"}`, http.StatusRequestEntityTooLarge},
		"other type":      {"text/plain", "api_key=a&secret_key=b", http.StatusUnprocessableEntity},
		"sniffed JSON":    {"", `{"api_key": "a", "secret_key": "b"}`, http.StatusUnauthorized},
		"sniffed form":    {"", "api_key=a&secret_key=b", http.StatusUnauthorized},
		"bracket garbage": {"application/x-www-form-urlencoded", "api_key[=1&[x]=2&a[b]c=3&api_key=a&secret_key=b", http.StatusUnauthorized},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := f.decode(f.send(http.MethodPost, "/api_v2/authenticate", nil, tc.contentType, []byte(tc.body)))
			assert.Equal(t, tc.status, status, body)
			assert.NotEmpty(t, body["error"])
			if status == http.StatusUnprocessableEntity && tc.contentType != "text/plain" {
				errs := fieldErrors(t, body)
				assert.Len(t, errs, 1, errs)
				assert.Contains(t, errs, "body")
			}
		})
	}
	for _, raw := range []string{`{"job":`, `null`, `[1,2]`, `{}{}`} { // before the token is checked, as any invalid parameter
		status, body := f.decode(f.send(http.MethodPatch, jobPath(f.Seed().PublicJobID), nil, "application/json", []byte(raw)))
		assert.Equal(t, http.StatusBadRequest, status, raw) // as Rails answers a body it cannot parse
		assert.NotEmpty(t, body["error"], raw)
	}
	status, body := f.decode(f.send(http.MethodPost, "/api_v2/jobs", with(f.private), "application/x-www-form-urlencoded",
		[]byte("job=1&job[worker_id]=2&job[job_request_id][]=3")))
	assert.Equal(t, http.StatusUnprocessableEntity, status, "conflicting nesting is a validation error, not a crash")
	assert.Contains(t, fieldErrors(t, body), "job_request_id")
}
