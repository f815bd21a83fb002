package com.gameplatform.kit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The MAC token of spec 5.2 (4.3, 4.5): HMAC-SHA1 over ts, nonce, METHOD, uri, host, port, each followed by LF. */
public final class MacSigner {
  private static final SecureRandom RANDOM = new SecureRandom();

  private MacSigner() {}

  /** {@code uri} is the path and query exactly as sent; port is 443 for the platform. */
  public static String signBase(String ts, String nonce, String method, String uri, String host, String port) {
    StringBuilder b = new StringBuilder();
    for (String p : new String[] {ts, nonce, method.toUpperCase(Locale.ROOT), uri, host, port}) {
      if (p.indexOf('\n') >= 0) throw new IllegalArgumentException("MAC sign base: a value contains a line feed");
      b.append(p).append('\n');
    }
    return b.toString();
  }

  public static String mac(String macKey, String ts, String nonce, String method, String uri, String host, String port) {
    try {
      Mac h = Mac.getInstance("HmacSHA1");
      h.init(new SecretKeySpec(macKey.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
      byte[] out = h.doFinal(signBase(ts, nonce, method, uri, host, port).getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(out);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The Authorization header: MAC id="..",ts="..",nonce="..",mac="..". Null ts/nonce: now / 16 random bytes. */
  public static String authorization(
      String kid, String macKey, String method, String uri, String host, String port, String ts, String nonce) {
    if (ts == null) ts = Long.toString(System.currentTimeMillis() / 1000);
    if (nonce == null) {
      byte[] b = new byte[16];
      RANDOM.nextBytes(b);
      nonce = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
    String mac = mac(macKey, ts, nonce, method, uri, host, port);
    return "MAC id=" + q(kid) + ",ts=" + q(ts) + ",nonce=" + q(nonce) + ",mac=" + q(mac);
  }

  private static String q(String v) {
    return "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
