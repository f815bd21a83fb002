#include <gamekit/gamekit.hpp>

#include <iostream>

int main() {
  using gamekit::json::Value;
  // POST /order/v1/game/orders/{trxNo}/consumption (issue 27)
  auto report = Value::object({{"appId", Value::number(1234)}, {"trxNo", Value::number(9000000000041LL)},
                               {"consumptionPercentage", Value::number(35)}, {"nonce", Value::str("c0ns-7f3a")},
                               {"timestamp", Value::number(1700000000)}});
  std::cout << "consumption " << gamekit::md5_sign(report, "game-secret-001") << "\n";
  // Decimals as number literals: Value::number("19.99").
  auto prices = Value::object({{"productCode", Value::str("gem_60")}, {"price", Value::number("0.10")},
                               {"total", Value::number("19.99")}, {"tax", Value::number("1.50")},
                               {"big", Value::number("12345678.90")}, {"whole", Value::number("100")},
                               {"quantity", Value::number(3)}, {"nonce", Value::str("d3c1m4l")},
                               {"timestamp", Value::number(1700000000)}});
  std::cout << "decimals " << gamekit::md5_sign(prices, "shop-secret") << "\n";
}
