"""A game using the installed wheel (pip install game_platform_kit-*.whl), not the source folder."""
from decimal import Decimal

import game_platform_kit
from game_platform_kit import md5_sign

assert "kits/python/src" not in game_platform_kit.__file__, game_platform_kit.__file__

# POST /order/v1/game/orders/{trxNo}/consumption (issue 27)
report = {"appId": 1234, "trxNo": 9000000000041, "consumptionPercentage": 35, "nonce": "c0ns-7f3a", "timestamp": 1700000000}
print("consumption", md5_sign(report, "game-secret-001"))
prices = {"productCode": "gem_60", "price": Decimal("0.10"), "total": Decimal("19.99"), "tax": Decimal("1.50"),
          "big": Decimal("12345678.90"), "whole": Decimal("100"), "quantity": 3, "nonce": "d3c1m4l", "timestamp": 1700000000}
print("decimals", md5_sign(prices, "shop-secret"))
