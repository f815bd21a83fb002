package com.gameplatform.kit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A payment (2.4) or refund (2.5) notification. Check {@link #trxType} ({@link #isPayment()}, {@link #isRefund()}):
 * a refund must never be treated as a payment. Handle it idempotently by {@link #trxNo}. Unknown enum values are
 * kept as their numbers and unknown fields ignored (section 9). Optional fields are null when absent.
 */
public final class Notification {
  /** Section 2.7 trxType. Only payment and refund are notified today; others may come. */
  public static final int TRX_PAYMENT = 0, TRX_SUPPLEMENT = 1, TRX_REFUND = 2;

  public static final class Product {
    public final String productCode;
    public final long quantity;
    public final String channelSkuCode;

    Product(String productCode, long quantity, String channelSkuCode) {
      this.productCode = productCode;
      this.quantity = quantity;
      this.channelSkuCode = channelSkuCode;
    }

    public String getProductCode() {
      return productCode;
    }

    public long getQuantity() {
      return quantity;
    }

    public String getChannelSkuCode() {
      return channelSkuCode;
    }

    @Override
    public String toString() {
      return quantity + " x " + productCode;
    }
  }

  public static final class Attach {
    public final String gameServerId, gameRoleId, gameExt;

    Attach(String gameServerId, String gameRoleId, String gameExt) {
      this.gameServerId = gameServerId;
      this.gameRoleId = gameRoleId;
      this.gameExt = gameExt;
    }

    public String getGameServerId() {
      return gameServerId;
    }

    public String getGameRoleId() {
      return gameRoleId;
    }

    public String getGameExt() {
      return gameExt;
    }

  }

  public long notifyId, notifyTime, appId, trxNo, trxType, platform, channel, paymentType, status, successTime;
  public Long originalTrxNo;
  public String userId, currency, totalAmount;
  public String outTrxNo, region, clientAmount, clientCurrency, clientRegion, bankTrxNo;
  public List<Product> products;
  public Attach attach;
  /** The whole parsed body, unknown fields included. */
  public Map<String, Object> raw;

  public long getNotifyId() {
    return notifyId;
  }

  public long getNotifyTime() {
    return notifyTime;
  }

  public long getAppId() {
    return appId;
  }

  public long getTrxNo() {
    return trxNo;
  }

  public long getTrxType() {
    return trxType;
  }

  public long getPlatform() {
    return platform;
  }

  public long getChannel() {
    return channel;
  }

  public long getPaymentType() {
    return paymentType;
  }

  public long getStatus() {
    return status;
  }

  public long getSuccessTime() {
    return successTime;
  }

  public Long getOriginalTrxNo() {
    return originalTrxNo;
  }

  public String getUserId() {
    return userId;
  }

  public String getCurrency() {
    return currency;
  }

  public String getTotalAmount() {
    return totalAmount;
  }

  public String getOutTrxNo() {
    return outTrxNo;
  }

  public String getRegion() {
    return region;
  }

  public String getClientAmount() {
    return clientAmount;
  }

  public String getClientCurrency() {
    return clientCurrency;
  }

  public String getClientRegion() {
    return clientRegion;
  }

  public String getBankTrxNo() {
    return bankTrxNo;
  }

  public List<Product> getProducts() {
    return products;
  }

  public Attach getAttach() {
    return attach;
  }

  public Map<String, Object> getRaw() {
    return raw;
  }

  public boolean isPayment() {
    return trxType == TRX_PAYMENT;
  }

  public boolean isRefund() {
    return trxType == TRX_REFUND;
  }

  /** Parses a body after {@link CallbackVerifier#verify} accepted the same raw bytes. */
  public static Notification parse(byte[] body) throws BodyException {
    Fields f = Fields.parse(body);
    Notification n = new Notification();
    n.raw = Collections.unmodifiableMap(f.o);
    Object products = f.o.get("products");
    if (!(products instanceof List)) throw new BodyException("products", "must be an array");
    n.products = new ArrayList<>();
    int i = 0;
    for (Object p : (List<?>) products) {
      Fields pf = new Fields(p, "products." + i++);
      String sku = pf.optString("channelSkuCode");
      n.products.add(new Product(pf.string("productCode"), pf.longValue("quantity"), sku == null ? "" : sku));
    }
    n.notifyId = f.longValue("notifyId");
    n.notifyTime = f.longValue("notifyTime");
    n.appId = f.longValue("appId");
    n.userId = f.string("userId");
    n.trxNo = f.longValue("trxNo");
    n.originalTrxNo = f.optLong("originalTrxNo");
    n.trxType = f.longValue("trxType");
    n.platform = f.longValue("platform");
    n.channel = f.longValue("channel");
    n.paymentType = f.longValue("paymentType");
    n.currency = f.string("currency");
    n.totalAmount = f.decimal("totalAmount");
    n.status = f.longValue("status");
    n.successTime = f.longValue("successTime");
    n.outTrxNo = f.optString("outTrxNo");
    n.region = f.optString("region");
    n.clientAmount = f.optDecimal("clientAmount");
    n.clientCurrency = f.optString("clientCurrency");
    n.clientRegion = f.optString("clientRegion");
    n.bankTrxNo = f.optString("bankTrxNo");
    Object attach = f.o.get("attach");
    if (attach instanceof String) { // tolerated: attach sent as JSON text
      try {
        attach = Json.parse((String) attach);
      } catch (IllegalArgumentException e) {
        attach = null;
      }
    }
    if (attach instanceof Map) {
      Fields af = new Fields(attach, "attach");
      n.attach = new Attach(orEmpty(af.optString("gameServerId")), orEmpty(af.optString("gameRoleId")), orEmpty(af.optString("gameExt")));
    }
    return n;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
