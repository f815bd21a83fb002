// A game using the built assembly (mcs -r:GamePlatform.Kit.dll), not the source folder.
using System;
using System.Collections.Generic;
using GamePlatform.Kit;

static class Consumer
{
    static void Main()
    {
        // POST /order/v1/game/orders/{trxNo}/consumption (issue 27)
        var report = new Dictionary<string, object> { { "appId", 1234 }, { "trxNo", 9000000000041L },
            { "consumptionPercentage", 35 }, { "nonce", "c0ns-7f3a" }, { "timestamp", 1700000000L } };
        Console.WriteLine("consumption " + Md5Signer.Sign(report, "game-secret-001"));
        var prices = new Dictionary<string, object> { { "productCode", "gem_60" }, { "price", 0.10m }, { "total", 19.99m },
            { "tax", 1.50m }, { "big", 12345678.90m }, { "whole", 100m }, { "quantity", 3 }, { "nonce", "d3c1m4l" },
            { "timestamp", 1700000000 } };
        Console.WriteLine("decimals " + Md5Signer.Sign(prices, "shop-secret"));
    }
}
