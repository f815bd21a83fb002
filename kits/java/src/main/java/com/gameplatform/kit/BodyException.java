package com.gameplatform.kit;

/** A body that is not what the spec describes; {@link #field} names the wrong field (dot path). */
public final class BodyException extends Exception {
  public final String field;

  public BodyException(String field, String problem) {
    super(field + ": " + problem);
    this.field = field;
  }
}
