package gamekit

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

type vectors struct {
	Keys     map[string]struct{ PublicKeyPem string }
	Callback []struct {
		Description, Method, Path, Body, SignBase, Expect, ExpectKeyID string
		PublicKeys, SeenNonces                                         []string
		Headers                                                        [][2]string
		Now, WindowSeconds                                             int64
	}
	Md5 []struct {
		Description, Secret, Canonical, Sign string
		Params                               map[string]interface{}
	}
	Md5Bodies []struct {
		Description, Secret, Body, Canonical, Sign string
		Decimals                                   []string
	}
	Mac []struct {
		Description, Kid, MacKey, Ts, Nonce, Method, URI, Host, Port, SignBase, Mac, Header string
	}
	Notifications []struct {
		Description, Body string
		Expect            map[string]*string
	}
	PreOrderChecks []struct {
		Description, Body string
		Expect            map[string]*string
	}
	Answers []struct {
		Description, Kind string
		Args              map[string]interface{}
		Expect            struct {
			Status int
			Body   interface{}
		}
	}
}

func load(t *testing.T) vectors {
	file := os.Getenv("KIT_VECTORS")
	if file == "" {
		file = "../vectors.json"
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCallbackVectors(t *testing.T) {
	v := load(t)
	for _, c := range v.Callback {
		c := c
		t.Run(c.Description, func(t *testing.T) {
			pems := map[string]string{}
			for _, kid := range c.PublicKeys {
				pems[kid] = v.Keys[kid].PublicKeyPem
			}
			ver, err := NewVerifier(pems)
			if err != nil {
				t.Fatal(err)
			}
			now := func() time.Time { return time.Unix(c.Now, 0) }
			ver.Now, ver.Window = now, time.Duration(c.WindowSeconds)*time.Second
			// The default store: it must follow Verifier.Now (the vectors' clock is not the machine's).
			for _, n := range c.SeenNonces {
				ver.Nonces.Remember(n, now().Add(time.Hour))
			}
			h := http.Header{}
			for _, p := range c.Headers {
				h.Add(p[0], p[1])
			}
			call, err := ver.Verify(c.Method, c.Path, h, []byte(c.Body))
			if c.Expect == "ok" {
				if err != nil {
					t.Fatalf("want ok, got %v", err)
				}
				if call.KeyID != c.ExpectKeyID {
					t.Fatalf("key id %q, want %q", call.KeyID, c.ExpectKeyID)
				}
				if !bytes.Equal(SignBase(c.Method, c.Path, h.Get("Timestamp"), h.Get("Nonce"), []byte(c.Body)), []byte(c.SignBase)) {
					t.Fatal("sign base differs")
				}
				_, err = ver.Verify(c.Method, c.Path, h, []byte(c.Body))
				c.Expect = string(ReplayedNonce) // the same call again is a replay
			}
			var ve *VerificationError
			if !errors.As(err, &ve) || string(ve.Reason) != c.Expect {
				t.Fatalf("want %s, got %v", c.Expect, err)
			}
		})
	}
}

func TestMd5Vectors(t *testing.T) {
	for _, c := range load(t).Md5 {
		canonical, err := CanonicalParams(c.Params)
		if err != nil || canonical != c.Canonical {
			t.Errorf("%s: canonical %q (%v), want %q", c.Description, canonical, err, c.Canonical)
		}
		if sign, _ := Md5Sign(c.Params, c.Secret); sign != c.Sign {
			t.Errorf("%s: sign %s, want %s", c.Description, sign, c.Sign)
		}
	}
	if _, err := CanonicalParams(map[string]interface{}{"a.b": "1", "a": map[string]interface{}{"b": "2"}}); err == nil {
		t.Error("a key that occurs twice after flattening must be refused")
	}
	nested, _ := CanonicalParams(map[string]interface{}{"o": map[string]interface{}{"l": []int{1, 2}}, "f": 0.5, "n": nil})
	if nested != "f=0.5&o.l.0=1&o.l.1=2" {
		t.Error("native Go values:", nested)
	}
}

func TestMd5BodyVectors(t *testing.T) {
	for _, c := range load(t).Md5Bodies {
		var params map[string]interface{}
		d := json.NewDecoder(strings.NewReader(c.Body))
		d.UseNumber()
		if err := d.Decode(&params); err != nil {
			t.Fatal(err)
		}
		for _, k := range c.Decimals { // Go's decimal idiom: json.Number holding the price's text
			params[k] = json.Number(params[k].(string))
		}
		canonical, err := CanonicalParams(params)
		sign, _ := Md5Sign(params, c.Secret)
		if err != nil || canonical != c.Canonical || sign != c.Sign {
			t.Errorf("%s: canonical %q (%v) sign %s, want %q %s", c.Description, canonical, err, sign, c.Canonical, c.Sign)
		}
	}
}

// A game's own struct, as it sends it: encoding/json tags, a json.Number price, an omitted empty member.
type priceQuote struct {
	ProductCode string      `json:"productCode"`
	Price       json.Number `json:"price"`
	Total       json.Number `json:"total"`
	Tax         json.Number `json:"tax"`
	Big         json.Number `json:"big"`
	Whole       json.Number `json:"whole"`
	Quantity    int         `json:"quantity"`
	Nonce       string      `json:"nonce"`
	Timestamp   int64       `json:"timestamp"`
	Note        string      `json:"note,omitempty"`
	Secret      string      `json:"-"`
}

func TestMd5Struct(t *testing.T) {
	for _, c := range load(t).Md5Bodies {
		if len(c.Decimals) == 0 {
			continue
		}
		var raw map[string]interface{}
		d := json.NewDecoder(strings.NewReader(c.Body))
		d.UseNumber()
		if err := d.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		n := func(k string) json.Number { return json.Number(raw[k].(string)) }
		qty, _ := raw["quantity"].(json.Number).Int64()
		ts, _ := raw["timestamp"].(json.Number).Int64()
		q := priceQuote{ProductCode: raw["productCode"].(string), Price: n("price"), Total: n("total"), Tax: n("tax"),
			Big: n("big"), Whole: n("whole"), Quantity: int(qty), Nonce: raw["nonce"].(string), Timestamp: ts, Secret: "not signed"}
		canonical, err := CanonicalStruct(q)
		sign, _ := Md5SignStruct(&q, c.Secret)
		if err != nil || canonical != c.Canonical || sign != c.Sign {
			t.Errorf("%s: struct canonical %q (%v) sign %s, want %q", c.Description, canonical, err, sign, c.Canonical)
		}
		nested, _ := CanonicalParams(map[string]interface{}{"quote": q, "n": 1})
		if !strings.HasPrefix(nested, "n=1&quote.big=") {
			t.Error("a struct inside a map flattens to dot paths:", nested)
		}
	}
}

func TestDefaultNonceStoreFollowsVerifierNow(t *testing.T) {
	ver, _ := NewVerifier(map[string]string{})
	past := time.Unix(1000, 0)
	ver.Now = func() time.Time { return past }
	ver.Nonces.Remember("n", past.Add(time.Minute))
	if fresh, _ := ver.Nonces.Remember("n", past.Add(time.Minute)); fresh {
		t.Error("a nonce remembered until a minute after Verifier.Now must still be a replay")
	}
}

func TestJSNumber(t *testing.T) {
	for x, want := range map[float64]string{1.5: "1.5", 1e21: "1e+21", 1e20: "100000000000000000000", 1e-7: "1e-7",
		0.000001: "0.000001", -273.15: "-273.15", 5e-324: "5e-324", 0.30000000000000004: "0.30000000000000004", 1.7976931348623157e308: "1.7976931348623157e+308"} {
		if got, _ := JSNumber(x); got != want {
			t.Errorf("JSNumber(%v) = %s, want %s", x, got, want)
		}
	}
}

func TestMacVectors(t *testing.T) {
	for _, c := range load(t).Mac {
		in := MacInput{TS: c.Ts, Nonce: c.Nonce, Method: c.Method, URI: c.URI, Host: c.Host, Port: c.Port}
		base, _ := MacSignBase(in)
		mac, _ := MacSign(in, c.MacKey)
		header, _ := MacAuthorization(c.Kid, c.MacKey, in)
		if base != c.SignBase || mac != c.Mac || header != c.Header {
			t.Errorf("%s: got %q %q %q", c.Description, base, mac, header)
		}
	}
}

func s(p *string) *string  { return p }
func str(v string) *string { return &v }
func i64(v int64) *string  { return str(strconv.FormatInt(v, 10)) }

func TestNotificationVectors(t *testing.T) {
	for _, c := range load(t).Notifications {
		n, err := ParseNotification([]byte(c.Body))
		if err != nil {
			t.Fatalf("%s: %v", c.Description, err)
		}
		kind := "unknown"
		if n.IsPayment() {
			kind = "payment"
		} else if n.IsRefund() {
			kind = "refund"
		}
		got := map[string]*string{"notifyId": i64(n.NotifyID), "appId": i64(n.AppID), "userId": str(n.UserID),
			"trxNo": i64(n.TrxNo), "originalTrxNo": nil, "trxType": i64(n.TrxType), "kind": str(kind), "outTrxNo": s(n.OutTrxNo),
			"channel": i64(n.Channel), "currency": str(n.Currency), "totalAmount": str(n.TotalAmount),
			"clientAmount": s(n.ClientAmount), "productCount": i64(int64(len(n.Products))),
			"products.0.productCode": nil, "products.0.quantity": nil, "attach.gameRoleId": nil}
		if n.OriginalTrxNo != nil {
			got["originalTrxNo"] = i64(*n.OriginalTrxNo)
		}
		if len(n.Products) > 0 {
			got["products.0.productCode"], got["products.0.quantity"] = str(n.Products[0].ProductCode), i64(n.Products[0].Quantity)
		}
		if n.Attach != nil {
			got["attach.gameRoleId"] = str(n.Attach.GameRoleID)
		}
		if !reflect.DeepEqual(got, c.Expect) {
			t.Errorf("%s: got %s", c.Description, dump(got))
		}
	}
}

func dump(m map[string]*string) string {
	var b strings.Builder
	for k, v := range m {
		if v == nil {
			b.WriteString(k + "=nil ")
		} else {
			b.WriteString(k + "=" + *v + " ")
		}
	}
	return b.String()
}

func TestPreOrderVectors(t *testing.T) {
	for _, c := range load(t).PreOrderChecks {
		p, err := ParsePreOrderCheck([]byte(c.Body))
		if err != nil {
			t.Fatalf("%s: %v", c.Description, err)
		}
		got := map[string]*string{"roleId": str(p.RoleID), "serverId": str(p.ServerID), "productSkuCode": str(p.ProductSkuCode),
			"quantity": i64(p.Quantity), "extras": p.Extras}
		if !reflect.DeepEqual(got, c.Expect) {
			t.Errorf("%s: got %s", c.Description, dump(got))
		}
	}
}

func TestBodiesAndAnswers(t *testing.T) {
	var be *BodyError
	if _, err := ParseNotification([]byte(`{"products":[],"notifyId":"x"}`)); !errors.As(err, &be) || be.Field != "notifyId" {
		t.Error("a bad field is named:", err)
	}
	if a := PreOrderReject(PreOrderPurchaseLimitReached, "limit 5/day", nil); a.Status != 400 || string(a.JSON()) != `{"code":105,"detail":"limit 5/day","msg":null}` {
		t.Error(string(a.JSON()))
	}
	if RoleListAnswer(nil).Status != 401 {
		t.Error("no role is 401")
	}
}
