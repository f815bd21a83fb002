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
 * Values: String, Boolean, Integer/Long/BigInteger, Double/Float, {@link Json.Num}, Map, List, null.
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
    if (v instanceof Map || v instanceof List) {
      if (depth >= MAX_SIGN_DEPTH)
        throw new IllegalArgumentException("md5 sign: " + key + " is nested deeper than " + MAX_SIGN_DEPTH);
      if (v instanceof Map) for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) flatten(key + "." + e.getKey(), e.getValue(), depth + 1, out);
      else {
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
    if (v instanceof Json.Num) {
      Json.Num n = (Json.Num) v;
      if (n.isInteger()) {
        try {
          return Long.toString(Long.parseLong(n.text));
        } catch (NumberFormatException e) {
          // past int64: a double, like everywhere else
        }
      }
      return jsNumber(n.doubleValue());
    }
    throw new IllegalArgumentException("md5 sign: " + key + " has unsupported type " + v.getClass().getName());
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
