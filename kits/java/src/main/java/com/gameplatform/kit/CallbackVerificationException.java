package com.gameplatform.kit;

/** The platform's call is refused; {@link #reason} names the failed check (5.3). */
public final class CallbackVerificationException extends Exception {
  private static final long serialVersionUID = 1L;

  public enum Reason {
    MISSING_HEADER("missing_header"),
    MALFORMED_HEADER("malformed_header"),
    STALE_TIMESTAMP("stale_timestamp"),
    UNKNOWN_KEY("unknown_key"),
    BAD_SIGNATURE("bad_signature"),
    REPLAYED_NONCE("replayed_nonce");

    /** The same name as in every other kit and the Node SDK. */
    public final String code;

    Reason(String code) {
      this.code = code;
    }

    public String getCode() {
      return code;
    }
  }

  public final Reason reason;

  public CallbackVerificationException(Reason reason, String detail) {
    super("callback signature: " + reason.code + ": " + detail);
    this.reason = reason;
  }

  /** The failed check (the public field is kept for 0.1 callers). */
  public Reason getReason() {
    return reason;
  }

  /** The reason's name as in every other kit and the SDK: {@code bad_signature}, ... */
  public String getCode() {
    return reason.code;
  }
}
