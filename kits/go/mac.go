package gamekit

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// MacInput is what the 5.2 MAC of 4.3 and 4.5 covers. URI is the path and query exactly as sent; Port is 443.
type MacInput struct {
	TS     string
	Nonce  string
	Method string
	URI    string
	Host   string
	Port   string
}

// MacSignBase is ts LF nonce LF METHOD LF uri LF host LF port LF.
func MacSignBase(i MacInput) (string, error) {
	parts := []string{i.TS, i.Nonce, strings.ToUpper(i.Method), i.URI, i.Host, i.Port}
	var b strings.Builder
	for _, p := range parts {
		if strings.Contains(p, "\n") {
			return "", errors.New("MAC sign base: a value contains a line feed")
		}
		b.WriteString(p)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// MacSign is base64(HMAC-SHA1(mac key, sign base)).
func MacSign(i MacInput, macKey string) (string, error) {
	base, err := MacSignBase(i)
	if err != nil {
		return "", err
	}
	h := hmac.New(sha1.New, []byte(macKey))
	h.Write([]byte(base))
	return base64.StdEncoding.EncodeToString(h.Sum(nil)), nil
}

func quote(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

// MacAuthorization is the Authorization header value MAC id="..",ts="..",nonce="..",mac="..". Empty TS, Nonce
// and Port default to now, 16 random bytes (base64url) and 443.
func MacAuthorization(kid, macKey string, i MacInput) (string, error) {
	if i.TS == "" {
		i.TS = strconv.FormatInt(time.Now().Unix(), 10)
	}
	if i.Nonce == "" {
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return "", err
		}
		i.Nonce = base64.RawURLEncoding.EncodeToString(b)
	}
	if i.Port == "" {
		i.Port = "443"
	}
	mac, err := MacSign(i, macKey)
	if err != nil {
		return "", err
	}
	return "MAC id=" + quote(kid) + ",ts=" + quote(i.TS) + ",nonce=" + quote(i.Nonce) + ",mac=" + quote(mac), nil
}
