// A game's module using the kit by its published path. The test fetches it from a file GOPROXY holding the
// module zip that kits/build-all.mjs made (GOFLAGS=-mod=mod GOSUMDB=off): no replace, no source folder.
package main

import (
	"encoding/json"
	"fmt"

	"github.com/gameplatform/gamekit"
)

// consumptionReport is the body of POST /order/v1/game/orders/{trxNo}/consumption (issue 27).
type consumptionReport struct {
	AppID                 int64  `json:"appId"`
	TrxNo                 int64  `json:"trxNo"`
	ConsumptionPercentage int    `json:"consumptionPercentage"`
	Nonce                 string `json:"nonce"`
	Timestamp             int64  `json:"timestamp"`
	Sign                  string `json:"sign,omitempty"`
}

func main() {
	sign, err := gamekit.Md5SignStruct(consumptionReport{1234, 9000000000041, 35, "c0ns-7f3a", 1700000000, ""}, "game-secret-001")
	if err != nil {
		panic(err)
	}
	fmt.Println("consumption", sign)
	prices := map[string]interface{}{"productCode": "gem_60", "price": json.Number("0.10"), "total": json.Number("19.99"),
		"tax": json.Number("1.50"), "big": json.Number("12345678.90"), "whole": json.Number("100"), "quantity": 3,
		"nonce": "d3c1m4l", "timestamp": 1700000000}
	sign, err = gamekit.Md5Sign(prices, "shop-secret")
	if err != nil {
		panic(err)
	}
	fmt.Println("decimals", sign)
}
