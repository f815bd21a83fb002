package gamekit

import (
	"bytes"
	"crypto/md5"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// MaxSignDepth bounds nesting in Md5Sign.
const MaxSignDepth = 32

// JSNumber formats a double as ECMAScript Number#toString does (shortest round-trip digits): 1.5, 1e+21,
// 0.000001, 1e-7. It is the text of a non-integer number in the 5.1 canonical form.
func JSNumber(x float64) (string, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "", fmt.Errorf("md5 sign: %v cannot be signed, only finite numbers", x)
	}
	if x == 0 {
		return "0", nil
	}
	if x < 0 {
		s, err := JSNumber(-x)
		return "-" + s, err
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±XX, shortest round-trip
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k), nil
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:], nil
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits, nil
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	m := digits[:1]
	if k > 1 {
		m += "." + digits[1:]
	}
	return m + "e" + sign + strconv.Itoa(abs(n-1)), nil
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

var integerRe = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

type pair struct{ k, v string }

func scalar(key string, v interface{}) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case bool:
		if t {
			return "true", nil
		}
		return "false", nil
	case json.Number:
		// An integer keeps its exact digits however long (the service reads integers past 2^53 as their digits).
		if integerRe.MatchString(string(t)) {
			if t == "-0" {
				return "0", nil
			}
			return string(t), nil
		}
		f, err := t.Float64()
		if err != nil {
			return "", fmt.Errorf("md5 sign: %s is not a number", key)
		}
		return JSNumber(f)
	case *big.Int:
		return t.String(), nil
	case big.Int:
		return t.String(), nil
	case float32:
		return JSNumber(float64(t))
	case float64:
		return JSNumber(t)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(rv.Uint(), 10), nil
	}
	return "", fmt.Errorf("md5 sign: %s has unsupported type %T", key, v)
}

func flatten(key string, v interface{}, depth int, out *[]pair) error {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	if _, isBig := v.(big.Int); !isBig && (rv.Kind() == reflect.Struct || isMarshaler(v)) {
		// A struct (or a type with its own JSON form, such as a decimal type) signs as the JSON it is sent as:
		// its encoding/json tags name the members, `omitempty` and "-" apply, numbers keep their text.
		return flattenJSON(key, v, depth, out)
	}
	switch rv.Kind() {
	case reflect.Map, reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Map && rv.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("md5 sign: %s is a map without string keys", key)
		}
		if rv.Kind() == reflect.Slice && rv.IsNil() || rv.Kind() == reflect.Map && rv.IsNil() {
			return nil
		}
		if depth >= MaxSignDepth {
			return fmt.Errorf("md5 sign: %s is nested deeper than %d", key, MaxSignDepth)
		}
		if rv.Kind() == reflect.Map {
			for _, mk := range rv.MapKeys() {
				if err := flatten(key+"."+mk.String(), rv.MapIndex(mk).Interface(), depth+1, out); err != nil {
					return err
				}
			}
			return nil
		}
		for i := 0; i < rv.Len(); i++ {
			if err := flatten(key+"."+strconv.Itoa(i), rv.Index(i).Interface(), depth+1, out); err != nil {
				return err
			}
		}
		return nil
	case reflect.Ptr, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
		return flatten(key, rv.Elem().Interface(), depth, out)
	}
	s, err := scalar(key, v)
	if err != nil {
		return err
	}
	*out = append(*out, pair{key, s})
	return nil
}

func isMarshaler(v interface{}) bool {
	switch v.(type) {
	case json.Number, *big.Int:
		return false
	case json.Marshaler, encoding.TextMarshaler:
		return true
	}
	return false
}

func flattenJSON(key string, v interface{}, depth int, out *[]pair) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("md5 sign: %s: %w", key, err)
	}
	var decoded interface{}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&decoded); err != nil {
		return fmt.Errorf("md5 sign: %s: %w", key, err)
	}
	return flatten(key, decoded, depth, out)
}

// CanonicalParams is `k1=v1&k2=v2...` of 5.1 over every parameter except the top-level "sign": nested maps and
// slices flatten to dot paths (`a.b`, `list.0`), nil is left out, keys sort by UTF-8 bytes (docs/signing.md).
// Values: string, bool, integers, *big.Int, float64 (ECMAScript text), json.Number (an integer keeps its exact
// digits), maps with string keys, slices, nil, and structs or json.Marshaler types (as their encoding/json form).
func CanonicalParams(params map[string]interface{}) (string, error) {
	var out []pair
	for k, v := range params {
		if k == "sign" {
			continue
		}
		if err := flatten(k, v, 0, &out); err != nil {
			return "", err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].k < out[j].k }) // Go compares strings bytewise: UTF-8 order
	parts := make([]string, len(out))
	for i, p := range out {
		if i > 0 && p.k == out[i-1].k {
			return "", fmt.Errorf("md5 sign: key %s occurs twice after flattening", p.k)
		}
		parts[i] = p.k + "=" + p.v
	}
	return strings.Join(parts, "&"), nil
}

// CanonicalStruct is CanonicalParams of a struct (or anything encoding/json writes as an object), read through
// its JSON form: `json:"appId"` tags name the parameters, a json.Number price keeps the text the service reads.
func CanonicalStruct(v interface{}) (string, error) {
	var params map[string]interface{}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("md5 sign: %w", err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&params); err != nil {
		return "", fmt.Errorf("md5 sign: not a JSON object: %w", err)
	}
	return CanonicalParams(params)
}

// Md5SignStruct is Md5Sign of a struct through its encoding/json form (see CanonicalStruct).
func Md5SignStruct(v interface{}, secret string) (string, error) {
	c, err := CanonicalStruct(v)
	if err != nil {
		return "", err
	}
	sum := md5.Sum([]byte(c + secret))
	return hex.EncodeToString(sum[:]), nil
}

// Md5Sign is the `sign` parameter of 4.1, 4.2 and 4.6: lowercase hex md5 of CanonicalParams + secret.
func Md5Sign(params map[string]interface{}, secret string) (string, error) {
	c, err := CanonicalParams(params)
	if err != nil {
		return "", err
	}
	sum := md5.Sum([]byte(c + secret))
	return hex.EncodeToString(sum[:]), nil
}
