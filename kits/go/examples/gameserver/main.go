// A minimal game server: verifies the platform's payment notification (5.3) on the raw body, parses it (2.4/2.5),
// grants once per trxNo and answers 200 (4.7).
//
//	PLATFORM_KEYS_DIR=keys/ PORT=8080 go run ./examples/gameserver
//
// PLATFORM_KEYS_DIR holds one <key id>.pem per platform public key (GET /admin/v1/platform-keys).
package main

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"sync"

	"github.com/gameplatform/gamekit"
)

func main() {
	pems, err := gamekit.LoadPublicKeysDir(os.Getenv("PLATFORM_KEYS_DIR"))
	if err != nil {
		log.Fatal(err)
	}
	verifier, err := gamekit.NewVerifier(pems)
	if err != nil {
		log.Fatal(err)
	}
	var mu sync.Mutex
	granted := map[int64]bool{} // a real game keeps this in its database

	// The middleware verifies the raw bytes (never a re-serialised body) and refuses with 401 before the handler.
	verified := gamekit.Middleware(verifier, gamekit.MiddlewareOptions{MaxBody: 1 << 20})
	http.Handle("/pay/callback", verified(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body) // the verified bytes
		if err != nil {
			answer(w, gamekit.RejectNotification(400, err.Error()))
			return
		}
		n, err := gamekit.ParseNotification(body)
		if err != nil {
			answer(w, gamekit.RejectNotification(400, "bad body: "+err.Error()))
			return
		}
		mu.Lock()
		if !granted[n.TrxNo] {
			granted[n.TrxNo] = true
			switch {
			case n.IsPayment():
				fmt.Printf("grant %v to %s\n", n.Products, n.UserID)
			case n.IsRefund():
				fmt.Printf("refund of %d: take back the goods of %s\n", *n.OriginalTrxNo, n.UserID)
			}
		}
		mu.Unlock()
		answer(w, gamekit.AcceptNotification())
	})))

	port := os.Getenv("PORT")
	if port == "" {
		port = "8080"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, nil))
}

func answer(w http.ResponseWriter, a gamekit.Answer) { gamekit.WriteAnswer(w, a) }
