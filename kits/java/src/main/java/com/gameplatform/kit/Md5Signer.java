package com.gameplatform.kit;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The md5 parameter signature of spec 5.1 (4.1, 4.2, 4.6) in the canonical form of docs/signing.md: nested maps and
 * lists flatten to dot paths ({@code a.b}, {@code list.0}), null is left out, keys sort by UTF-8 bytes, values as
 * text (integers as digits, other numbers as ECMAScript Number#toString), joined {@code k=v&...}, then the secret.
 * Values: String, Boolean, Integer/Long/BigInteger, Double/Float, BigDecimal (see {@link #decimalText}), {@link
 * Json.Num} (an integer keeps its exact digits), Map with String keys, List, arrays ({@code int[]}, {@code Object[]}...),
 * null.
 */
public final class Md5Signer {
  public static final int MAX_SIGN_DEPTH = 32;

  private Md5Signer() {}

  /** Lowercase hex md5 of canonical(params) + secret: the {@code sign} parameter. */
  public static String sign(Map<String, ?> params, String secret) {
    try {
      byte[] d = MessageDigest.getInstance("MD5").digest((canonical(params) + secret).getBytes(StandardCharsets.UTF_8));
      StringBuilder b = new StringBuilder();
      for (byte x : d) b.append(String.format("%02x", x & 0xff));
      return b.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code k1=v1&k2=v2...} over every parameter except the top-level {@code sign}. */
  public static String canonical(Map<String, ?> params) {
    List<String[]> out = new ArrayList<>();
    for (Map.Entry<String, ?> e : params.entrySet())
      if (!e.getKey().equals("sign")) flatten(e.getKey(), e.getValue(), 0, out);
    out.sort((a, b) -> Arrays.compareUnsigned(utf8(a[0]), utf8(b[0])));
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < out.size(); i++) {
      if (i > 0 && out.get(i)[0].equals(out.get(i - 1)[0]))
        throw new IllegalArgumentException("md5 sign: key " + out.get(i)[0] + " occurs twice after flattening");
      if (i > 0) b.append('&');
      b.append(out.get(i)[0]).append('=').append(out.get(i)[1]);
    }
    return b.toString();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void flatten(String key, Object v, int depth, List<String[]> out) {
    if (v == null) return;
    boolean array = v.getClass().isArray();
    if (v instanceof Map || v instanceof List || array) {
      if (depth >= MAX_SIGN_DEPTH)
        throw new IllegalArgumentException("md5 sign: " + key + " is nested deeper than " + MAX_SIGN_DEPTH);
      if (v instanceof Map) {
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          if (!(e.getKey() instanceof String))
            throw new IllegalArgumentException("md5 sign: " + key + " is a map without String keys");
          flatten(key + "." + e.getKey(), e.getValue(), depth + 1, out);
        }
      } else if (array) {
        for (int i = 0; i < java.lang.reflect.Array.getLength(v); i++)
          flatten(key + "." + i, java.lang.reflect.Array.get(v, i), depth + 1, out);
      } else {
        List<?> l = (List<?>) v;
        for (int i = 0; i < l.size(); i++) flatten(key + "." + i, l.get(i), depth + 1, out);
      }
      return;
    }
    out.add(new String[] {key, scalar(key, v)});
  }

  private static String scalar(String key, Object v) {
    if (v instanceof String) return (String) v;
    if (v instanceof Boolean) return ((Boolean) v) ? "true" : "false";
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte || v instanceof BigInteger)
      return v.toString();
    if (v instanceof Double || v instanceof Float) return jsNumber(((Number) v).doubleValue());
    if (v instanceof BigDecimal) return decimalText((BigDecimal) v);
    if (v instanceof Json.Num) {
      Json.Num n = (Json.Num) v;
      // An integer keeps its exact digits however long: the service reads integers past 2^53 as their digits.
      if (n.isInteger()) return new BigInteger(n.text).toString();
      return jsNumber(n.doubleValue());
    }
    throw new IllegalArgumentException("md5 sign: " + key + " has unsupported type " + v.getClass().getName());
  }

  /**
   * A BigDecimal signs as the JSON number it is sent as is read by the service (5.1): one without a fraction (scale 0
   * or less, {@code new BigDecimal("100")}) by its exact digits, any other by the ECMAScript text of its double, so
   * {@code 0.10} signs as {@code 0.1} and {@code 19.99} as {@code 19.99}.
   */
  public static String decimalText(BigDecimal d) {
    if (d.scale() <= 0) return d.toBigIntegerExact().toString();
    return jsNumber(Double.parseDouble(d.toString())); // parseDouble rounds correctly
  }

  /** ECMAScript Number#toString of a double (shortest round-trip digits): 1.5, 1e+21, 0.000001, 1e-7. */
  public static String jsNumber(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x))
      throw new IllegalArgumentException("md5 sign: " + x + " cannot be signed, only finite numbers");
    if (x == 0) return "0";
    if (x < 0) return "-" + jsNumber(-x);
    BigDecimal exact = new BigDecimal(x);
    BigDecimal shortest = exact;
    for (int p = 1; p <= 17; p++) {
      BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (r.doubleValue() == x) {
        shortest = r;
        break;
      }
    }
    shortest = shortest.stripTrailingZeros();
    String digits = shortest.unscaledValue().toString();
    int k = digits.length();
    int n = k - shortest.scale();
    if (k <= n && n <= 21) return digits + "0".repeat(n - k);
    if (0 < n && n <= 21) return digits.substring(0, n) + "." + digits.substring(n);
    if (-6 < n && n <= 0) return "0." + "0".repeat(-n) + digits;
    int e = n - 1;
    return digits.charAt(0) + (k > 1 ? "." + digits.substring(1) : "") + "e" + (e >= 0 ? "+" : "-") + Math.abs(e);
  }
}
