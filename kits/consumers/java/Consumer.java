import com.gameplatform.kit.Md5Signer;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/** A game using the built jar (javac -cp game-platform-kit-0.1.0.jar), not the source folder. */
public class Consumer {
  public static void main(String[] args) {
    // POST /order/v1/game/orders/{trxNo}/consumption (issue 27)
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("appId", 1234);
    report.put("trxNo", 9000000000041L);
    report.put("consumptionPercentage", 35);
    report.put("nonce", "c0ns-7f3a");
    report.put("timestamp", 1700000000L);
    System.out.println("consumption " + Md5Signer.sign(report, "game-secret-001"));
    Map<String, Object> prices = new LinkedHashMap<>();
    prices.put("productCode", "gem_60");
    prices.put("price", new BigDecimal("0.10"));
    prices.put("total", new BigDecimal("19.99"));
    prices.put("tax", new BigDecimal("1.50"));
    prices.put("big", new BigDecimal("12345678.90"));
    prices.put("whole", new BigDecimal("100"));
    prices.put("quantity", 3);
    prices.put("nonce", "d3c1m4l");
    prices.put("timestamp", 1700000000);
    System.out.println("decimals " + Md5Signer.sign(prices, "shop-secret"));
  }
}
