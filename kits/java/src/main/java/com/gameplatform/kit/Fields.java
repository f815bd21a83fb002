package com.gameplatform.kit;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;

/** Tolerant typed readers over a parsed JSON object: numbers spelled as strings and strings as numbers are read. */
final class Fields {
  private static final Pattern INT = Pattern.compile("-?[0-9]{1,19}");
  private static final Pattern DECIMAL = Pattern.compile("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?");

  final Map<String, Object> o;
  private final String prefix;

  @SuppressWarnings("unchecked")
  Fields(Object v, String prefix) throws BodyException {
    if (!(v instanceof Map)) throw new BodyException(prefix.isEmpty() ? "body" : prefix, "must be a JSON object");
    this.o = (Map<String, Object>) v;
    this.prefix = prefix;
  }

  static Fields parse(byte[] body) throws BodyException {
    try {
      return new Fields(Json.parse(new String(body, StandardCharsets.UTF_8)), "");
    } catch (IllegalArgumentException e) {
      throw new BodyException("body", "is not valid JSON");
    }
  }

  String path(String k) {
    return prefix.isEmpty() ? k : prefix + "." + k;
  }

  String optString(String k) throws BodyException {
    Object v = o.get(k);
    if (v == null) return null;
    if (v instanceof String || v instanceof Json.Num) return v.toString();
    throw new BodyException(path(k), "must be a string");
  }

  String string(String k) throws BodyException {
    String v = optString(k);
    if (v == null) throw new BodyException(path(k), "is required");
    return v;
  }

  Long optLong(String k) throws BodyException {
    String t = optString(k);
    if (t == null) return null;
    if (!INT.matcher(t).matches()) throw new BodyException(path(k), "must be an integer");
    try {
      return Long.parseLong(t);
    } catch (NumberFormatException e) {
      throw new BodyException(path(k), "is out of range");
    }
  }

  long longValue(String k) throws BodyException {
    Long v = optLong(k);
    if (v == null) throw new BodyException(path(k), "is required");
    return v;
  }

  /** A decimal as its exact text: 0.99 and "0.99" both give "0.99", never a binary float. */
  String optDecimal(String k) throws BodyException {
    String t = optString(k);
    if (t != null && !DECIMAL.matcher(t).matches()) throw new BodyException(path(k), "must be a decimal number");
    return t;
  }

  String decimal(String k) throws BodyException {
    String v = optDecimal(k);
    if (v == null) throw new BodyException(path(k), "is required");
    return v;
  }
}
