package com.gameplatform.kit;

/** A body that is not what the spec describes; {@link #field} names the wrong field (dot path). */
public final class BodyException extends Exception {
  private static final long serialVersionUID = 1L;

  public final String field;

  public BodyException(String field, String problem) {
    super(field + ": " + problem);
    this.field = field;
  }

  /** The wrong field's dot path (the public field is kept for 0.1 callers). */
  public String getField() {
    return field;
  }
}
