package com.gameplatform.kit;

/** The 4.10 pre-order check request. {@link #quantity} is the number bought in this one order. */
public final class PreOrderCheck {
  public final String roleId, serverId, productSkuCode, extras;
  public final long quantity;

  private PreOrderCheck(String roleId, String serverId, String productSkuCode, long quantity, String extras) {
    this.roleId = roleId;
    this.serverId = serverId;
    this.productSkuCode = productSkuCode;
    this.quantity = quantity;
    this.extras = extras;
  }

  public String getRoleId() {
    return roleId;
  }

  public String getServerId() {
    return serverId;
  }

  public String getProductSkuCode() {
    return productSkuCode;
  }

  public String getExtras() {
    return extras;
  }

  public long getQuantity() {
    return quantity;
  }

  public static PreOrderCheck parse(byte[] body) throws BodyException {
    Fields f = Fields.parse(body);
    long quantity = f.longValue("quantity");
    if (quantity < 1) throw new BodyException("quantity", "must be at least 1");
    return new PreOrderCheck(f.string("roleId"), f.string("serverId"), f.string("productSkuCode"), quantity, f.optString("extras"));
  }
}
