package gamekit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
)

// Section 2.7 trxType. Only payment and refund are notified today; others may come (section 9): keep a default.
const (
	TrxTypePayment    = 0
	TrxTypeSupplement = 1
	TrxTypeRefund     = 2
)

// Section 7 pre-order check codes. Custom codes must not reuse these.
const (
	PreOrderInvalidRoleID             = 101
	PreOrderServerErrorRetryLater     = 102
	PreOrderProductNotFound           = 103
	PreOrderKeepGameOnline            = 104
	PreOrderPurchaseLimitReached      = 105
	PreOrderTransactionInProgress     = 106
	PreOrderServerError               = 107
	PreOrderRoleNotEligible           = 112
	PreOrderTransactionInProgress1Min = 113
	PreOrderTransactionInProgress2Min = 114
	PreOrderTransactionInProgress3Min = 115
)

// BodyError names the field (dot path) of a body that is not what the spec describes.
type BodyError struct{ Field, Problem string }

func (e *BodyError) Error() string { return e.Field + ": " + e.Problem }

var (
	intRe     = regexp.MustCompile(`^-?[0-9]{1,19}$`)
	decimalRe = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$`)
)

type fields struct {
	o      map[string]interface{}
	prefix string
}

func objectOf(v interface{}, path string) (fields, error) {
	o, ok := v.(map[string]interface{})
	if !ok {
		return fields{}, &BodyError{path, "must be a JSON object"}
	}
	return fields{o, path}, nil
}

func parseJSON(body []byte) (fields, error) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber() // keeps int64 ids and decimal text exact
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return fields{}, &BodyError{"body", "is not valid JSON"}
	}
	return objectOf(v, "")
}

func (f fields) path(k string) string {
	if f.prefix == "" {
		return k
	}
	return f.prefix + "." + k
}

// text reads a string or number as its text; "" and ok=false when absent or null.
func (f fields) text(k string) (string, bool, error) {
	switch t := f.o[k].(type) {
	case nil:
		return "", false, nil
	case string:
		return t, true, nil
	case json.Number:
		return string(t), true, nil
	}
	return "", false, &BodyError{f.path(k), "must be a string or number"}
}

func (f fields) optInt(k string) (*int64, error) {
	t, ok, err := f.text(k)
	if err != nil || !ok {
		return nil, err
	}
	if !intRe.MatchString(t) {
		return nil, &BodyError{f.path(k), "must be an integer"}
	}
	i, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return nil, &BodyError{f.path(k), "is out of range"}
	}
	return &i, nil
}

func (f fields) int(k string, err *error) int64 {
	if *err != nil {
		return 0
	}
	p, e := f.optInt(k)
	if e == nil && p == nil {
		e = &BodyError{f.path(k), "is required"}
	}
	if e != nil {
		*err = e
		return 0
	}
	return *p
}

func (f fields) optString(k string, err *error) *string {
	if *err != nil {
		return nil
	}
	t, ok, e := f.text(k)
	if e != nil {
		*err = e
	}
	if !ok {
		return nil
	}
	return &t
}

func (f fields) string(k string, err *error) string {
	p := f.optString(k, err)
	if p == nil && *err == nil {
		*err = &BodyError{f.path(k), "is required"}
	}
	if p == nil {
		return ""
	}
	return *p
}

// decimal reads a decimal as its exact text (0.99 and "0.99" both give "0.99"), never a binary float.
func (f fields) optDecimal(k string, err *error) *string {
	p := f.optString(k, err)
	if p != nil && !decimalRe.MatchString(*p) && *err == nil {
		*err = &BodyError{f.path(k), "must be a decimal number"}
	}
	return p
}

type Product struct {
	ProductCode    string
	Quantity       int64
	ChannelSkuCode string
}

type Attach struct {
	GameServerID string
	GameRoleID   string
	GameExt      string
}

// Notification is a payment (2.4) or refund (2.5) notification. Check TrxType (IsPayment / IsRefund): a refund
// must never be treated as a payment. Handle it idempotently by TrxNo. Optional fields are nil when absent.
type Notification struct {
	NotifyID, NotifyTime, AppID int64
	UserID                      string
	TrxNo                       int64
	OriginalTrxNo               *int64
	TrxType                     int64
	OutTrxNo                    *string
	Platform, Channel           int64
	PaymentType                 int64
	Products                    []Product
	Currency                    string
	Region                      *string
	ClientAmount                *string
	ClientCurrency              *string
	ClientRegion                *string
	TotalAmount                 string
	Status                      int64
	SuccessTime                 int64
	Attach                      *Attach
	BankTrxNo                   *string
	// Raw is the whole body, unknown fields included.
	Raw map[string]interface{}
}

func (n *Notification) IsPayment() bool { return n.TrxType == TrxTypePayment }
func (n *Notification) IsRefund() bool  { return n.TrxType == TrxTypeRefund }

// ParseNotification reads a verified 2.4/2.5 body: unknown enum values are kept, unknown fields ignored, and
// numbers spelled as strings (or strings as numbers) accepted.
func ParseNotification(body []byte) (*Notification, error) {
	f, err := parseJSON(body)
	if err != nil {
		return nil, err
	}
	products, ok := f.o["products"].([]interface{})
	if !ok {
		return nil, &BodyError{"products", "must be an array"}
	}
	n := &Notification{Raw: f.o}
	for i, p := range products {
		pf, e := objectOf(p, "products."+strconv.Itoa(i))
		if e != nil {
			return nil, e
		}
		sku := pf.optString("channelSkuCode", &err)
		pr := Product{ProductCode: pf.string("productCode", &err), Quantity: pf.int("quantity", &err)}
		if sku != nil {
			pr.ChannelSkuCode = *sku
		}
		n.Products = append(n.Products, pr)
	}
	attach := f.o["attach"]
	if s, ok := attach.(string); ok { // tolerated: attach sent as JSON text
		attach = nil
		_ = json.Unmarshal([]byte(s), &attach)
	}
	if _, ok := attach.(map[string]interface{}); ok {
		af, _ := objectOf(attach, "attach")
		get := func(k string) string {
			if p := af.optString(k, &err); p != nil {
				return *p
			}
			return ""
		}
		n.Attach = &Attach{GameServerID: get("gameServerId"), GameRoleID: get("gameRoleId"), GameExt: get("gameExt")}
	}
	n.NotifyID = f.int("notifyId", &err)
	n.NotifyTime = f.int("notifyTime", &err)
	n.AppID = f.int("appId", &err)
	n.UserID = f.string("userId", &err)
	n.TrxNo = f.int("trxNo", &err)
	n.TrxType = f.int("trxType", &err)
	n.Platform = f.int("platform", &err)
	n.Channel = f.int("channel", &err)
	n.PaymentType = f.int("paymentType", &err)
	n.Currency = f.string("currency", &err)
	if t := f.optDecimal("totalAmount", &err); t != nil {
		n.TotalAmount = *t
	} else if err == nil {
		err = &BodyError{"totalAmount", "is required"}
	}
	n.Status = f.int("status", &err)
	n.SuccessTime = f.int("successTime", &err)
	n.OutTrxNo = f.optString("outTrxNo", &err)
	if err == nil {
		n.OriginalTrxNo, err = f.optInt("originalTrxNo")
	}
	n.Region = f.optString("region", &err)
	n.ClientAmount = f.optDecimal("clientAmount", &err)
	n.ClientCurrency = f.optString("clientCurrency", &err)
	n.ClientRegion = f.optString("clientRegion", &err)
	n.BankTrxNo = f.optString("bankTrxNo", &err)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// PreOrderCheck is the 4.10 request. Quantity is the number bought in this one order.
type PreOrderCheck struct {
	RoleID, ServerID, ProductSkuCode string
	Quantity                         int64
	Extras                           *string
}

func ParsePreOrderCheck(body []byte) (*PreOrderCheck, error) {
	f, err := parseJSON(body)
	if err != nil {
		return nil, err
	}
	p := &PreOrderCheck{RoleID: f.string("roleId", &err), ServerID: f.string("serverId", &err),
		ProductSkuCode: f.string("productSkuCode", &err), Quantity: f.int("quantity", &err), Extras: f.optString("extras", &err)}
	if err == nil && p.Quantity < 1 {
		err = &BodyError{"quantity", "must be at least 1"}
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Answer is an HTTP status and a JSON body for the game's reply.
type Answer struct {
	Status int
	Body   map[string]interface{}
}

// JSON is the answer body as JSON text.
func (a Answer) JSON() []byte {
	b, _ := json.Marshal(a.Body)
	return b
}

// AcceptNotification is 4.7's success: HTTP 200.
func AcceptNotification() Answer {
	return Answer{200, map[string]interface{}{"code": "SUCCESS", "msg": "ok"}}
}

// RejectNotification is 4.7's processing failure: 500 or a 4xx (the platform retries), with the body it lists.
func RejectNotification(status int, msg string) Answer {
	if status != 500 && (status < 400 || status > 499) {
		status = 500
	}
	return Answer{status, map[string]interface{}{"code": "SUCCESS", "msg": msg}}
}

// Role is a 2.6 role; nil optional fields are sent as null.
type Role struct {
	UserID, RoleID, Name, Avatar string
	RoleLv                       *int64
	ServerID, ServerName         *string
}

// RoleAnswer is 4.8: HTTP 200 and the role. UserID (the platform user id) is required or the payment is blocked.
func RoleAnswer(r Role) (Answer, error) {
	if r.UserID == "" || r.RoleID == "" {
		return Answer{}, fmt.Errorf("role answer: UserID and RoleID are required")
	}
	return Answer{200, map[string]interface{}{"userId": r.UserID, "roleId": r.RoleID, "name": r.Name,
		"avatar": r.Avatar, "roleLv": r.RoleLv, "serverId": r.ServerID, "serverName": r.ServerName}}, nil
}

// RoleListAnswer is 4.9: HTTP 200 with results; no role gives HTTP 401 with empty results. ServerID is required.
func RoleListAnswer(roles []Role) Answer {
	if len(roles) == 0 {
		return Answer{401, map[string]interface{}{"code": 401, "msg": "No role found.", "detail": "the user has no role", "results": []interface{}{}}}
	}
	results := make([]interface{}, len(roles))
	for i, r := range roles {
		results[i] = map[string]interface{}{"roleId": r.RoleID, "name": r.Name, "avatar": r.Avatar,
			"roleLv": r.RoleLv, "serverId": r.ServerID, "serverName": r.ServerName}
	}
	return Answer{200, map[string]interface{}{"code": 200, "msg": "success", "detail": "", "results": results}}
}

// PreOrderAllow is 4.10's HTTP 200.
func PreOrderAllow() Answer {
	return Answer{200, map[string]interface{}{"code": 200, "msg": "success", "detail": ""}}
}

// PreOrderReject blocks an order (HTTP 400) with a section 7 code or one of the game's own. msg is player-facing
// (nil lets the front end show its translation of a built-in code), detail is for developers.
func PreOrderReject(code int, detail string, msg *string) Answer {
	return Answer{400, map[string]interface{}{"code": code, "msg": msg, "detail": detail}}
}
