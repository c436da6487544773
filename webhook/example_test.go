package webhook_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/workforce-marketplace/workforce-go/webhook"
)

// The scheme has no timestamp and the platform retries deliveries that did
// not get a 2xx, so the same body can arrive twice. This receiver handles
// each body once by remembering its digest (a real one would keep them in
// its database, with the change it made, and forget them after a while).
func ExampleHandler() {
	secretKey := "sk_test_51Hfake0000000000000000" // the secret key of your key pair
	var mu sync.Mutex
	seen := map[[32]byte]bool{}
	h, err := webhook.Handler(secretKey, func(ctx context.Context, ev *webhook.Event) error {
		mu.Lock()
		defer mu.Unlock()
		sum := sha256.Sum256(ev.Body)
		if seen[sum] {
			return nil // a repeated delivery: answer 2xx so it stops
		}
		seen[sum] = true
		fmt.Printf("%s %d is now %s\n", ev.Kind, ev.ID, ev.State)
		return nil
	})
	if err != nil {
		panic(err) // a secret key workforce.New would refuse too
	}

	body := `{"job":{"id":1001,"state":"in_progress"}}`
	for range 2 { // the same delivery, twice
		req := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(body))
		req.Header.Set(webhook.Header, webhook.Sign([]byte(body), secretKey))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		fmt.Println(rec.Code)
	}
	// Output:
	// job 1001 is now in_progress
	// 204
	// 204
}

func ExampleVerify() {
	body := []byte(`{"job":{"id":1001,"state":"in_progress"}}`)
	header := "fc3878741de1a519a0047e76be1fd2224c013eb2f25986dd4e22cf35af7aba50"
	fmt.Println(webhook.Verify(body, header, "sk_test_51Hfake0000000000000000"))
	fmt.Println(webhook.Verify(body, header, "sk_test_wrong"))
	// Output:
	// <nil>
	// webhook: the signature does not match the body and secret key
}
