// Package gamekit is the game-server kit of the game platform: verify the platform's signed calls (spec 5.3),
// sign calls to the platform (5.1 md5, 5.2 MAC), typed notification bodies (2.4, 2.5) and the answers of 4.7-4.10.
// Standard library only.
package gamekit

import (
	"bytes"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Reason names the check a call failed.
type Reason string

const (
	MissingHeader   Reason = "missing_header"
	MalformedHeader Reason = "malformed_header"
	StaleTimestamp  Reason = "stale_timestamp"
	UnknownKey      Reason = "unknown_key"
	BadSignature    Reason = "bad_signature"
	ReplayedNonce   Reason = "replayed_nonce"
)

// VerificationError says which check refused the call (errors.As it to read Reason).
type VerificationError struct {
	Reason Reason
	Detail string
}

func (e *VerificationError) Error() string {
	return "callback signature: " + string(e.Reason) + ": " + e.Detail
}

func fail(r Reason, format string, a ...interface{}) error {
	return &VerificationError{Reason: r, Detail: fmt.Sprintf(format, a...)}
}

// NonceStore records nonces. Remember answers false when the nonce is already recorded and not expired (a replay).
// It must be atomic when several game server instances share it (e.g. Redis SET key 1 NX EX ttl).
type NonceStore interface {
	Remember(nonce string, expiresAt time.Time) (bool, error)
}

// MemoryNonceStore keeps nonces in this process: enough for one game server instance.
type MemoryNonceStore struct {
	mu         sync.Mutex
	seen       map[string]time.Time
	MaxEntries int
	Now        func() time.Time
}

func NewMemoryNonceStore() *MemoryNonceStore {
	return &MemoryNonceStore{seen: map[string]time.Time{}, MaxEntries: 100000, Now: time.Now}
}

func (s *MemoryNonceStore) Remember(nonce string, expiresAt time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil { // a zero MemoryNonceStore works too
		s.seen = map[string]time.Time{}
	}
	now := time.Now()
	if s.Now != nil {
		now = s.Now()
	}
	if s.MaxEntries <= 0 {
		s.MaxEntries = 100000
	}
	if until, ok := s.seen[nonce]; ok && until.After(now) {
		return false, nil
	}
	if len(s.seen) >= s.MaxEntries {
		for k, until := range s.seen {
			if !until.After(now) || len(s.seen) >= s.MaxEntries {
				delete(s.seen, k)
			}
		}
	}
	s.seen[nonce] = expiresAt
	return true, nil
}

// VerifiedCall is what a verified call carries.
type VerifiedCall struct {
	KeyID     string
	Timestamp int64
	Nonce     string
}

// Verifier checks the platform's calls: headers present and well formed, Timestamp within Window, key known
// (Key-Id picks among Keys), RSA-SHA256 over the raw request, then the nonce not seen before.
type Verifier struct {
	Keys   map[string]*rsa.PublicKey
	Window time.Duration
	Nonces NonceStore
	Now    func() time.Time
}

// NewVerifier takes the platform public keys (PEM, SubjectPublicKeyInfo) by key id; window 300 s, in-memory nonces.
func NewVerifier(pems map[string]string) (*Verifier, error) {
	keys := map[string]*rsa.PublicKey{}
	for kid, p := range pems {
		k, err := ParsePublicKeyPEM(p)
		if err != nil {
			return nil, fmt.Errorf("key %s: %w", kid, err)
		}
		keys[kid] = k
	}
	v := &Verifier{Keys: keys, Window: 300 * time.Second, Now: time.Now}
	// The default store reads the verifier's clock, so a Verifier.Now set later (tests, a skewed host) applies to
	// nonce expiry too (issue 32).
	store := NewMemoryNonceStore()
	store.Now = func() time.Time { return v.Now() }
	v.Nonces = store
	return v, nil
}

// utf16Len counts a string's UTF-16 code units: the "characters" of the Nonce limit, as the SDK (JavaScript),
// Java and C# count them. A "€" is one, an emoji two; invalid UTF-8 bytes count one each.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r > 0xFFFF {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// ParsePublicKeyPEM reads an RSA public key from a "PUBLIC KEY" PEM block.
func ParsePublicKeyPEM(p string) (*rsa.PublicKey, error) {
	block, _ := pem.Decode([]byte(p))
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	rk, ok := k.(*rsa.PublicKey)
	if !ok {
		return nil, errors.New("not an RSA key")
	}
	return rk, nil
}

// LoadPublicKeysDir reads every <key id>.pem file of a directory.
func LoadPublicKeysDir(dir string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.pem"))
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out[strings.TrimSuffix(filepath.Base(f), ".pem")] = string(b)
	}
	return out, nil
}

// SignBase is METHOD LF path LF Timestamp LF Nonce LF body LF, the path without its query string.
func SignBase(method, path, timestamp, nonce string, body []byte) []byte {
	if q := strings.IndexByte(path, '?'); q >= 0 {
		path = path[:q]
	}
	var b bytes.Buffer
	for _, p := range []string{strings.ToUpper(method), path, timestamp, nonce} {
		b.WriteString(p)
		b.WriteByte('\n')
	}
	b.Write(body)
	b.WriteByte('\n')
	return b.Bytes()
}

var (
	timestampRe = regexp.MustCompile(`^[0-9]{1,15}$`)
	base64Re    = regexp.MustCompile(`^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`)
	controlRe   = regexp.MustCompile("[\x00-\x1f\x7f]")
)

func header(h http.Header, name string) (string, error) {
	var found []string
	for k, v := range h {
		if strings.EqualFold(k, name) {
			found = append(found, v...)
		}
	}
	if len(found) > 1 {
		return "", fail(MalformedHeader, "%s given twice", name)
	}
	if len(found) == 0 {
		return "", nil
	}
	return found[0], nil
}

// Verify checks a call from its method, path (a query string is ignored), headers and raw body bytes exactly as
// received. Never hand it a body that was parsed and re-serialised.
func (v *Verifier) Verify(method, path string, h http.Header, body []byte) (*VerifiedCall, error) {
	vals := map[string]string{}
	for _, name := range []string{"Timestamp", "Nonce", "Signature", "Key-Id"} {
		val, err := header(h, name)
		if err != nil {
			return nil, err
		}
		vals[name] = val
	}
	for _, name := range []string{"Timestamp", "Nonce", "Signature"} {
		if vals[name] == "" {
			return nil, fail(MissingHeader, "%s is missing", name)
		}
	}
	timestamp, nonce, signature, keyID := vals["Timestamp"], vals["Nonce"], vals["Signature"], vals["Key-Id"]
	if !timestampRe.MatchString(timestamp) {
		return nil, fail(MalformedHeader, "Timestamp is not 1-15 decimal digits")
	}
	if utf16Len(nonce) > 256 || controlRe.MatchString(nonce) {
		return nil, fail(MalformedHeader, "Nonce is too long or has control characters")
	}
	if len(signature) > 2048 || !base64Re.MatchString(signature) {
		return nil, fail(MalformedHeader, "Signature is not standard base64")
	}
	ts, _ := strconv.ParseInt(timestamp, 10, 64)
	window := int64(v.Window / time.Second)
	if d := v.Now().Unix() - ts; d > window || d < -window {
		return nil, fail(StaleTimestamp, "Timestamp %d is outside the %d s window", ts, window)
	}
	var ids []string
	if keyID != "" {
		if _, ok := v.Keys[keyID]; !ok {
			return nil, fail(UnknownKey, "no public key with id %q", keyID)
		}
		ids = []string{keyID}
	} else {
		for id := range v.Keys {
			ids = append(ids, id)
		}
		if len(ids) == 0 {
			return nil, fail(UnknownKey, "no public key configured")
		}
		sort.Strings(ids)
	}
	sig, err := base64.StdEncoding.DecodeString(signature)
	if err != nil {
		return nil, fail(MalformedHeader, "Signature is not standard base64")
	}
	digest := sha256.Sum256(SignBase(method, path, timestamp, nonce, body))
	matched := ""
	for _, id := range ids {
		if rsa.VerifyPKCS1v15(v.Keys[id], crypto.SHA256, digest[:], sig) == nil {
			matched = id
			break
		}
	}
	if matched == "" {
		return nil, fail(BadSignature, "the signature does not verify (was the body changed?)")
	}
	fresh, err := v.Nonces.Remember(nonce, time.Unix(ts+window+1, 0))
	if err != nil {
		return nil, err
	}
	if !fresh {
		return nil, fail(ReplayedNonce, "nonce %q was already used", nonce)
	}
	return &VerifiedCall{KeyID: matched, Timestamp: ts, Nonce: nonce}, nil
}

// ErrBodyTooLarge is VerifyRequest's error for a body past its limit.
var ErrBodyTooLarge = errors.New("body too large")

// VerifyRequest reads the request body (at most maxBody bytes) and verifies the call; it returns the raw body
// to parse afterwards.
func (v *Verifier) VerifyRequest(r *http.Request, maxBody int64) ([]byte, *VerifiedCall, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(body)) > maxBody {
		return nil, nil, ErrBodyTooLarge
	}
	call, err := v.Verify(r.Method, r.RequestURI, r.Header, body) // the path as sent, not re-encoded
	return body, call, err
}
