package com.gameplatform.kit;

import com.gameplatform.kit.CallbackVerificationException.Reason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * Verifies the platform's signed calls (spec 5.3) from the raw request: headers present and well formed,
 * Timestamp within the window, key known (Key-Id picks among several, for rotation), RSA-SHA256 PKCS#1 v1.5 over
 * METHOD LF path LF Timestamp LF Nonce LF body LF, then the nonce not seen before (recorded only once the
 * signature holds). It never re-serialises the body: hand it the bytes as received.
 */
public final class CallbackVerifier {
  /** What a verified call carries. */
  public static final class Verified {
    public final String keyId;
    public final long timestamp;
    public final String nonce;

    Verified(String keyId, long timestamp, String nonce) {
      this.keyId = keyId;
      this.timestamp = timestamp;
      this.nonce = nonce;
    }

    public String getKeyId() {
      return keyId;
    }

    public long getTimestamp() {
      return timestamp;
    }

    public String getNonce() {
      return nonce;
    }
  }

  /** Header lookup by name, case-insensitive; all values of that name (empty when absent). */
  public interface Headers {
    List<String> all(String name);
  }

  private static final Pattern TIMESTAMP = Pattern.compile("[0-9]{1,15}");
  private static final Pattern BASE64 =
      Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");
  private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1f\\x7f]");

  private final TreeMap<String, PublicKey> keys = new TreeMap<>();
  private final long windowSeconds;
  private final NonceStore nonces;
  private final LongSupplier nowSeconds;

  /** Keys by key id (PEM SubjectPublicKeyInfo); window 300 s, in-memory nonce store, system clock. */
  public CallbackVerifier(Map<String, String> publicKeyPems) throws GeneralSecurityException {
    this(publicKeyPems, 300, new MemoryNonceStore(), () -> System.currentTimeMillis() / 1000);
  }

  public CallbackVerifier(Map<String, String> publicKeyPems, long windowSeconds, NonceStore nonces, LongSupplier nowSeconds)
      throws GeneralSecurityException {
    for (Map.Entry<String, String> e : publicKeyPems.entrySet()) keys.put(e.getKey(), parsePublicKeyPem(e.getValue()));
    this.windowSeconds = windowSeconds;
    this.nonces = nonces;
    this.nowSeconds = nowSeconds;
  }

  public static PublicKey parsePublicKeyPem(String pem) throws GeneralSecurityException {
    String b64 = pem.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(b64)));
  }

  /** Every {@code <key id>.pem} file of a directory. */
  public static Map<String, String> loadPublicKeysDir(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.pem")) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        out.put(name.substring(0, name.length() - 4), Files.readString(f, StandardCharsets.US_ASCII));
      }
    }
    return out;
  }

  /** Headers from a map (e.g. com.sun.net.httpserver.Headers or a servlet's), looked up case-insensitively. */
  public static Headers headers(Map<String, ? extends Collection<String>> map) {
    return name -> {
      List<String> out = new ArrayList<>();
      for (Map.Entry<String, ? extends Collection<String>> e : map.entrySet())
        if (e.getKey() != null && e.getKey().equalsIgnoreCase(name) && e.getValue() != null) out.addAll(e.getValue());
      return out;
    };
  }

  /** METHOD LF path LF Timestamp LF Nonce LF body LF, the path without its query string. */
  public static byte[] signBase(String method, String path, String timestamp, String nonce, byte[] body) {
    int q = path.indexOf('?');
    if (q >= 0) path = path.substring(0, q);
    String head = method.toUpperCase(Locale.ROOT) + "\n" + path + "\n" + timestamp + "\n" + nonce + "\n";
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes(head.getBytes(StandardCharsets.UTF_8));
    b.writeBytes(body);
    b.write('\n');
    return b.toByteArray();
  }

  private static String header(Headers h, String name) throws CallbackVerificationException {
    List<String> v = h.all(name);
    if (v.size() > 1) throw new CallbackVerificationException(Reason.MALFORMED_HEADER, name + " given twice");
    return v.isEmpty() || v.get(0).isEmpty() ? null : v.get(0);
  }

  /** Verifies a call: method, path (a query string is ignored), headers and the raw body bytes as received. */
  public Verified verify(String method, String path, Headers h, byte[] body) throws CallbackVerificationException {
    String timestamp = header(h, "Timestamp");
    String nonce = header(h, "Nonce");
    String signature = header(h, "Signature");
    String keyId = header(h, "Key-Id");
    if (timestamp == null) throw new CallbackVerificationException(Reason.MISSING_HEADER, "Timestamp is missing");
    if (nonce == null) throw new CallbackVerificationException(Reason.MISSING_HEADER, "Nonce is missing");
    if (signature == null) throw new CallbackVerificationException(Reason.MISSING_HEADER, "Signature is missing");
    if (!TIMESTAMP.matcher(timestamp).matches())
      throw new CallbackVerificationException(Reason.MALFORMED_HEADER, "Timestamp is not 1-15 decimal digits");
    if (nonce.length() > 256 || CONTROL.matcher(nonce).find())
      throw new CallbackVerificationException(Reason.MALFORMED_HEADER, "Nonce is too long or has control characters");
    if (signature.length() > 2048 || !BASE64.matcher(signature).matches())
      throw new CallbackVerificationException(Reason.MALFORMED_HEADER, "Signature is not standard base64");
    long ts = Long.parseLong(timestamp);
    if (Math.abs(nowSeconds.getAsLong() - ts) > windowSeconds)
      throw new CallbackVerificationException(
          Reason.STALE_TIMESTAMP, "Timestamp " + ts + " is outside the " + windowSeconds + " s window");
    List<String> candidates = new ArrayList<>();
    if (keyId != null) {
      if (!keys.containsKey(keyId))
        throw new CallbackVerificationException(Reason.UNKNOWN_KEY, "no public key with id " + keyId);
      candidates.add(keyId);
    } else {
      if (keys.isEmpty()) throw new CallbackVerificationException(Reason.UNKNOWN_KEY, "no public key configured");
      candidates.addAll(keys.keySet());
    }
    byte[] sig = Base64.getDecoder().decode(signature);
    byte[] base = signBase(method, path, timestamp, nonce, body);
    String matched = null;
    for (String kid : candidates) {
      try {
        Signature v = Signature.getInstance("SHA256withRSA");
        v.initVerify(keys.get(kid));
        v.update(base);
        if (v.verify(sig)) {
          matched = kid;
          break;
        }
      } catch (GeneralSecurityException e) {
        // a signature of the wrong length for this key: does not verify with it
      }
    }
    if (matched == null)
      throw new CallbackVerificationException(
          Reason.BAD_SIGNATURE, "the signature does not verify (was the body changed?)");
    boolean fresh;
    try {
      fresh = nonces.remember(nonce, ts + windowSeconds + 1);
    } catch (Exception e) {
      throw new IllegalStateException("nonce store failed", e);
    }
    if (!fresh) throw new CallbackVerificationException(Reason.REPLAYED_NONCE, "nonce " + nonce + " was already used");
    return new Verified(matched, ts, nonce);
  }
}
