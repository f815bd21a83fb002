import com.gameplatform.kit.Answers;
import com.gameplatform.kit.BodyException;
import com.gameplatform.kit.CallbackVerifier;
import com.gameplatform.kit.Notification;
import com.gameplatform.kit.servlet.CallbackVerificationFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.servlet.DispatcherType;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * The same game server as GameServer, as a Servlet app (embedded Jetty 9.4, javax.servlet 4): the
 * CallbackVerificationFilter verifies every call before the servlet, which parses the verified body and grants.
 *
 * <pre>PLATFORM_KEYS_DIR=keys/ PORT=8080 java -cp classes:jetty-jars ServletGameServer</pre>
 */
public final class ServletGameServer {
  public static void main(String[] args) throws Exception {
    CallbackVerifier verifier = new CallbackVerifier(CallbackVerifier.loadPublicKeysDir(Path.of(System.getenv("PLATFORM_KEYS_DIR"))));
    Set<Long> granted = ConcurrentHashMap.newKeySet(); // a real game keeps this in its database

    ServletContextHandler app = new ServletContextHandler();
    app.addFilter(new FilterHolder(new CallbackVerificationFilter(verifier)), "/pay/*", EnumSet.of(DispatcherType.REQUEST));
    app.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
        byte[] body = req.getInputStream().readAllBytes(); // the verified bytes
        try {
          Notification n = Notification.parse(body);
          if (granted.add(n.getTrxNo()) && n.isPayment())
            System.out.println("grant " + n.getProducts() + " to " + n.getUserId() + " (key "
                + CallbackVerificationFilter.verifiedCall(req).getKeyId() + ")");
          answer(res, Answers.acceptNotification());
        } catch (BodyException e) {
          answer(res, Answers.rejectNotification(400, "bad body: " + e.getMessage()));
        }
      }
    }), "/pay/callback");

    Server server = new Server();
    ServerConnector http = new ServerConnector(server);
    http.setHost("127.0.0.1");
    http.setPort(Integer.parseInt(System.getenv().getOrDefault("PORT", "8080")));
    server.addConnector(http);
    server.setHandler(app);
    server.start();
    System.out.println("listening on http://127.0.0.1:" + http.getLocalPort());
    server.join();
  }

  private static void answer(HttpServletResponse res, Answers.Answer a) throws IOException {
    byte[] data = a.json().getBytes(StandardCharsets.UTF_8);
    res.setStatus(a.status);
    res.setContentType("application/json");
    res.getOutputStream().write(data);
  }
}
