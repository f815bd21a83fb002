package gamekit

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The middleware over a real net/http server: a signed vector call reaches the handler with its exact body and
// the verified call; the same call again, a tampered body and a forged signature are refused with 401 before it.
func TestMiddleware(t *testing.T) {
	v := load(t)
	c := v.Callback[0]
	pems := map[string]string{}
	for _, kid := range c.PublicKeys {
		pems[kid] = v.Keys[kid].PublicKeyPem
	}
	ver, _ := NewVerifier(pems)
	ver.Now = func() time.Time { return time.Unix(c.Now, 0) }
	reached := 0
	app := http.NewServeMux()
	app.Handle(c.Path, Middleware(ver, MiddlewareOptions{})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached++
		body, _ := io.ReadAll(r.Body)
		if string(body) != c.Body || VerifiedCallFrom(r.Context()).KeyID != c.ExpectKeyID {
			t.Errorf("handler got %q / %+v", body, VerifiedCallFrom(r.Context()))
		}
		WriteAnswer(w, AcceptNotification())
	})))
	srv := httptest.NewServer(app)
	defer srv.Close()
	send := func(body string, edit func(http.Header)) int {
		req, _ := http.NewRequest(c.Method, srv.URL+c.Path, strings.NewReader(body))
		for _, p := range c.Headers {
			req.Header.Add(p[0], p[1])
		}
		if edit != nil {
			edit(req.Header)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if s := send(c.Body+" ", nil); s != 401 {
		t.Errorf("tampered body: %d", s)
	}
	if s := send(c.Body, func(h http.Header) { h.Set("Signature", "AAAA") }); s != 401 {
		t.Errorf("forged signature: %d", s)
	}
	if s := send(c.Body, nil); s != 200 {
		t.Errorf("signed call: %d", s)
	}
	if s := send(c.Body, nil); s != 401 {
		t.Errorf("replayed call: %d", s)
	}
	if reached != 1 {
		t.Errorf("the handler ran %d times, want 1", reached)
	}
}
