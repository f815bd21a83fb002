package gamekit

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
)

type verifiedKey struct{}

// MiddlewareOptions tune Middleware. The zero value is usable.
type MiddlewareOptions struct {
	// MaxBody bounds the body read before verification (default 1 MiB).
	MaxBody int64
	// OnRefused answers a call that is not verified. Default: 401 for a VerificationError, 413 for a body past
	// MaxBody, 400 otherwise, each with the 4.7 refusal body (WriteAnswer(RejectNotification(...))).
	OnRefused func(w http.ResponseWriter, r *http.Request, err error)
}

// Middleware verifies every call of the platform (5.3) before next runs: the raw body is read and verified, then
// given back to next unchanged (r.Body reads the same bytes), with the VerifiedCall in the request's context
// (VerifiedCallFrom). A call that does not verify never reaches next.
//
//	mux.Handle("/pay/callback", gamekit.Middleware(verifier, gamekit.MiddlewareOptions{})(payHandler))
func Middleware(v *Verifier, opts MiddlewareOptions) func(http.Handler) http.Handler {
	maxBody := opts.MaxBody
	if maxBody <= 0 {
		maxBody = 1 << 20
	}
	refuse := opts.OnRefused
	if refuse == nil {
		refuse = defaultRefusal
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, call, err := v.VerifyRequest(r, maxBody)
			if err != nil {
				refuse(w, r, err)
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), verifiedKey{}, call))
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			next.ServeHTTP(w, r)
		})
	}
}

// VerifiedCallFrom is the call Middleware verified for this request, or nil.
func VerifiedCallFrom(ctx context.Context) *VerifiedCall {
	c, _ := ctx.Value(verifiedKey{}).(*VerifiedCall)
	return c
}

// WriteAnswer writes an answer of 4.7-4.10 as JSON with its status.
func WriteAnswer(w http.ResponseWriter, a Answer) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.Status)
	w.Write(a.JSON())
}

func defaultRefusal(w http.ResponseWriter, _ *http.Request, err error) {
	var ve *VerificationError
	switch {
	case errors.As(err, &ve):
		WriteAnswer(w, RejectNotification(401, "signature check failed: "+string(ve.Reason)))
	case errors.Is(err, ErrBodyTooLarge):
		WriteAnswer(w, RejectNotification(413, err.Error()))
	default:
		WriteAnswer(w, RejectNotification(400, err.Error()))
	}
}
