package com.gameplatform.kit;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Runs every case of kits/vectors.json (generated from the service's own signing code). A JUnit 5 test (Surefire
 * runs it under {@code mvn test}); the repository's tests run it with the JDK alone through the labelled stub of
 * the JUnit API in src/test-stub (no Maven Central there). {@code main} runs it without any framework.
 */
public final class VectorsTest {
  private static int passed, failed;

  @Test
  void everyVectorPasses() throws Exception {
    passed = 0;
    failed = 0;
    run();
    Assertions.assertEquals(0, failed, failed + " vector checks failed (see the FAIL lines)");
  }

  private static void check(String name, boolean ok, String detail) {
    if (ok) passed++;
    else {
      failed++;
      System.out.println("FAIL " + name + ": " + detail);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T get(Object o, String k) {
    return (T) ((Map<String, Object>) o).get(k);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] args) throws Exception {
    run();
    System.exit(failed == 0 ? 0 : 1);
  }

  private static void run() throws Exception {
    String file = System.getProperty("kit.vectors", System.getenv().getOrDefault("KIT_VECTORS", "../vectors.json"));
    Object v = Json.parse(Files.readString(Path.of(file), StandardCharsets.UTF_8));

    for (Object c : (List<?>) get(v, "callback")) {
      String d = get(c, "description");
      Map<String, String> pems = new LinkedHashMap<>();
      for (Object kid : (List<?>) get(c, "publicKeys")) pems.put((String) kid, get(get(get(v, "keys"), (String) kid), "publicKeyPem"));
      long now = Long.parseLong(get(c, "now").toString());
      MemoryNonceStore store = new MemoryNonceStore(1000, () -> now);
      for (Object n : (List<?>) get(c, "seenNonces")) store.remember((String) n, now + 600);
      CallbackVerifier verifier =
          new CallbackVerifier(pems, Long.parseLong(get(c, "windowSeconds").toString()), store, () -> now);
      Map<String, List<String>> h = new LinkedHashMap<>();
      for (Object pair : (List<?>) get(c, "headers")) {
        List<?> p = (List<?>) pair;
        h.computeIfAbsent((String) p.get(0), k -> new ArrayList<>()).add((String) p.get(1));
      }
      String method = get(c, "method"), path = get(c, "path"), expect = get(c, "expect");
      byte[] body = utf8(get(c, "body"));
      String got;
      try {
        CallbackVerifier.Verified ok = verifier.verify(method, path, CallbackVerifier.headers(h), body);
        got = "ok:" + ok.keyId;
      } catch (CallbackVerificationException e) {
        got = e.reason.code;
      }
      String want = expect.equals("ok") ? "ok:" + get(c, "expectKeyId") : expect;
      check(d, got.equals(want), "got " + got + ", want " + want);
      if (expect.equals("ok")) {
        try {
          verifier.verify(method, path, CallbackVerifier.headers(h), body);
          check(d + " (again)", false, "a replay was accepted");
        } catch (CallbackVerificationException e) {
          check(d + " (again)", e.reason == CallbackVerificationException.Reason.REPLAYED_NONCE, e.reason.code);
        }
        String ts = CallbackVerifier.headers(h).all("Timestamp").get(0), nonce = CallbackVerifier.headers(h).all("Nonce").get(0);
        check(d + " (sign base)", new String(CallbackVerifier.signBase(method, path, ts, nonce, body), StandardCharsets.UTF_8)
            .equals(get(c, "signBase")), "differs");
      }
    }

    for (Object c : (List<?>) get(v, "md5")) {
      String d = get(c, "description");
      Map<String, Object> params = get(c, "params");
      String canonical = Md5Signer.canonical(params);
      check(d, canonical.equals(get(c, "canonical")), canonical);
      check(d + " (sign)", Md5Signer.sign(params, get(c, "secret")).equals(get(c, "sign")), "sign differs");
    }
    for (Object c : (List<?>) get(v, "md5Bodies")) {
      String d = get(c, "description");
      Map<String, Object> params = new LinkedHashMap<>((Map<String, Object>) Json.parse((String) get(c, "body")));
      for (Object k : (List<?>) get(c, "decimals")) params.put((String) k, new java.math.BigDecimal((String) params.get(k)));
      String canonical = Md5Signer.canonical(params);
      check(d, canonical.equals(get(c, "canonical")), canonical);
      check(d + " (sign)", Md5Signer.sign(params, get(c, "secret")).equals(get(c, "sign")), "sign differs");
    }
    Map<String, Object> money = new LinkedHashMap<>();
    money.put("ids", new int[] {3, 4});
    money.put("tags", new String[] {"a"});
    money.put("price", new java.math.BigDecimal("19.99"));
    money.put("tip", new java.math.BigDecimal("0.10"));
    money.put("qty", new java.math.BigDecimal("1E+2"));
    check("int[], String[] and BigDecimal", Md5Signer.canonical(money).equals("ids.0=3&ids.1=4&price=19.99&qty=100&tags.0=a&tip=0.1"),
        Md5Signer.canonical(money));
    String[][] numbers = {{"1.5", "1.5"}, {"1e21", "1e+21"}, {"1e20", "100000000000000000000"}, {"1e-7", "1e-7"},
        {"0.000001", "0.000001"}, {"-273.15", "-273.15"}, {"5e-324", "5e-324"}, {"0.30000000000000004", "0.30000000000000004"},
        {"1.7976931348623157e308", "1.7976931348623157e+308"}, {"2e-3", "0.002"}, {"123456789012345680000", "123456789012345680000"}};
    for (String[] n : numbers) check("jsNumber " + n[0], Md5Signer.jsNumber(Double.parseDouble(n[0])).equals(n[1]), Md5Signer.jsNumber(Double.parseDouble(n[0])));
    Map<String, Object> nested = new LinkedHashMap<>();
    nested.put("o", Map.of("l", List.of(1, 2L)));
    nested.put("f", 0.5);
    nested.put("n", null);
    check("native Java values", Md5Signer.canonical(nested).equals("f=0.5&o.l.0=1&o.l.1=2"), Md5Signer.canonical(nested));
    try {
      Md5Signer.canonical(Map.of("a.b", "1", "a", Map.of("b", "2")));
      check("duplicate flattened key", false, "accepted");
    } catch (IllegalArgumentException e) {
      check("duplicate flattened key", true, "");
    }

    for (Object c : (List<?>) get(v, "mac")) {
      String d = get(c, "description");
      String[] a = {get(c, "ts"), get(c, "nonce"), get(c, "method"), get(c, "uri"), get(c, "host"), get(c, "port")};
      check(d + " (base)", MacSigner.signBase(a[0], a[1], a[2], a[3], a[4], a[5]).equals(get(c, "signBase")), "differs");
      check(d + " (mac)", MacSigner.mac(get(c, "macKey"), a[0], a[1], a[2], a[3], a[4], a[5]).equals(get(c, "mac")), "differs");
      String header = MacSigner.authorization(get(c, "kid"), get(c, "macKey"), a[2], a[3], a[4], a[5], a[0], a[1]);
      check(d + " (header)", header.equals(get(c, "header")), header);
    }

    for (Object c : (List<?>) get(v, "notifications")) {
      Notification n = Notification.parse(utf8(get(c, "body")));
      Map<String, Object> got = new LinkedHashMap<>();
      got.put("notifyId", s(n.notifyId));
      got.put("appId", s(n.appId));
      got.put("userId", n.userId);
      got.put("trxNo", s(n.trxNo));
      got.put("originalTrxNo", s(n.originalTrxNo));
      got.put("trxType", s(n.trxType));
      got.put("kind", n.isPayment() ? "payment" : n.isRefund() ? "refund" : "unknown");
      got.put("outTrxNo", n.outTrxNo);
      got.put("channel", s(n.channel));
      got.put("currency", n.currency);
      got.put("totalAmount", n.totalAmount);
      got.put("clientAmount", n.clientAmount);
      got.put("productCount", s(n.products.size()));
      got.put("products.0.productCode", n.products.isEmpty() ? null : n.products.get(0).productCode);
      got.put("products.0.quantity", n.products.isEmpty() ? null : s(n.products.get(0).quantity));
      got.put("attach.gameRoleId", n.attach == null ? null : n.attach.gameRoleId);
      check(get(c, "description"), got.equals(get(c, "expect")), got.toString());
    }
    for (Object c : (List<?>) get(v, "preOrderChecks")) {
      PreOrderCheck p = PreOrderCheck.parse(utf8(get(c, "body")));
      Map<String, Object> got = new LinkedHashMap<>();
      got.put("roleId", p.roleId);
      got.put("serverId", p.serverId);
      got.put("productSkuCode", p.productSkuCode);
      got.put("quantity", s(p.quantity));
      got.put("extras", p.extras);
      check(get(c, "description"), got.equals(get(c, "expect")), got.toString());
    }
    for (Object c : (List<?>) get(v, "answers")) {
      Map<String, Object> a = get(c, "args");
      String kind = get(c, "kind");
      Answers.Answer got;
      switch (kind) {
        case "acceptNotification": got = Answers.acceptNotification(); break;
        case "rejectNotification": got = Answers.rejectNotification(Integer.parseInt(a.get("status").toString()), (String) a.get("msg")); break;
        case "role": got = Answers.role(role(a)); break;
        case "roleList": {
          List<Answers.Role> roles = new ArrayList<>();
          for (Object r : (List<?>) a.get("roles")) roles.add(role((Map<?, ?>) r));
          got = Answers.roleList(roles);
          break;
        }
        case "preOrderAllow": got = Answers.preOrderAllow(); break;
        default: got = Answers.preOrderReject(Integer.parseInt(a.get("code").toString()), (String) a.get("detail"), (String) a.get("msg"));
      }
      Map<String, Object> expect = get(c, "expect");
      boolean ok = Integer.parseInt(expect.get("status").toString()) == got.status && Json.parse(got.json()).equals(expect.get("body"));
      check((String) get(c, "description"), ok, got.status + " " + got.json());
    }
    try {
      Notification.parse(utf8("{\"products\":[],\"notifyId\":\"x\"}"));
      check("bad field named", false, "accepted");
    } catch (BodyException e) {
      check("bad field named", e.field.equals("notifyId"), e.field);
    }
    String reject = Answers.preOrderReject(Answers.PURCHASE_LIMIT_REACHED, "limit 5/day", null).json();
    check("pre-order reject", reject.equals("{\"code\":105,\"msg\":null,\"detail\":\"limit 5/day\"}"), reject);
    check("empty role list is 401", Answers.roleList(new ArrayList<>()).status == 401, "");

    System.out.println(passed + " passed, " + failed + " failed");
  }

  private static Answers.Role role(Map<?, ?> m) {
    Answers.Role r = new Answers.Role();
    r.userId = (String) m.get("userId");
    r.roleId = (String) m.get("roleId");
    r.name = (String) m.get("name");
    r.avatar = (String) m.get("avatar");
    r.roleLv = m.get("roleLv") == null ? null : Long.parseLong(m.get("roleLv").toString());
    r.serverId = (String) m.get("serverId");
    r.serverName = (String) m.get("serverName");
    return r;
  }

  private static String s(Object o) {
    return o == null ? null : Objects.toString(o);
  }
}
