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
  }

  public final Reason reason;

  public CallbackVerificationException(Reason reason, String detail) {
    super("callback signature: " + reason.code + ": " + detail);
    this.reason = reason;
  }
}
