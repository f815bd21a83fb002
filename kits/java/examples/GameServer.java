import com.gameplatform.kit.Answers;
import com.gameplatform.kit.BodyException;
import com.gameplatform.kit.CallbackVerificationException;
import com.gameplatform.kit.CallbackVerifier;
import com.gameplatform.kit.Notification;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A minimal game server: verifies the platform's payment notification (5.3) on the raw body, parses it (2.4/2.5),
 * grants once per trxNo and answers 200 (4.7).
 *
 * <pre>PLATFORM_KEYS_DIR=keys/ PORT=8080 java -cp classes GameServer</pre>
 *
 * PLATFORM_KEYS_DIR holds one {@code <key id>.pem} per platform public key (GET /admin/v1/platform-keys).
 */
public final class GameServer {
  private static final int MAX_BODY = 1 << 20;

  public static void main(String[] args) throws Exception {
    CallbackVerifier verifier = new CallbackVerifier(CallbackVerifier.loadPublicKeysDir(Path.of(System.getenv("PLATFORM_KEYS_DIR"))));
    Set<Long> granted = ConcurrentHashMap.newKeySet(); // a real game keeps this in its database
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(System.getenv().getOrDefault("PORT", "8080"))), 0);
    server.createContext("/pay/callback", ex -> {
      try (InputStream in = ex.getRequestBody()) {
        byte[] body = in.readNBytes(MAX_BODY + 1); // the raw bytes: verify these, never a re-serialised body
        if (body.length > MAX_BODY) {
          answer(ex, Answers.rejectNotification(413, "body too large"));
          return;
        }
        verifier.verify(ex.getRequestMethod(), ex.getRequestURI().getRawPath(), CallbackVerifier.headers(ex.getRequestHeaders()), body);
        Notification n = Notification.parse(body);
        if (granted.add(n.getTrxNo())) {
          if (n.isPayment()) System.out.println("grant " + n.getProducts() + " to " + n.getUserId());
          else if (n.isRefund()) System.out.println("refund of " + n.getOriginalTrxNo() + ": take back the goods of " + n.getUserId());
        }
        answer(ex, Answers.acceptNotification());
      } catch (CallbackVerificationException e) {
        answer(ex, Answers.rejectNotification(401, "signature check failed: " + e.getCode()));
      } catch (BodyException e) {
        answer(ex, Answers.rejectNotification(400, "bad body: " + e.getMessage()));
      }
    });
    server.start();
    System.out.println("listening on http://127.0.0.1:" + server.getAddress().getPort());
  }

  private static void answer(HttpExchange ex, Answers.Answer a) throws IOException {
    byte[] data = a.json().getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(a.status, data.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(data);
    }
  }
}
