package com.gameplatform.kit.servlet;

import com.gameplatform.kit.Answers;
import com.gameplatform.kit.CallbackVerificationException;
import com.gameplatform.kit.CallbackVerifier;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ReadListener;
import javax.servlet.ServletException;
import javax.servlet.ServletInputStream;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;
import javax.servlet.http.HttpServletResponse;

/**
 * A Servlet filter (javax.servlet 4, e.g. Tomcat 9, Jetty 9/10, Spring Boot 2) that verifies every call of the
 * platform (5.3) before the servlet runs: it reads the raw body (at most {@code maxBody} bytes), verifies it with the
 * request's method, raw request URI and headers, and hands the servlet a request whose body reads the same bytes,
 * with the verified call in the request attribute {@link #VERIFIED_CALL} ({@link #verifiedCall}). A call that does
 * not verify gets 401 with the 4.7 refusal body and never reaches the servlet. For Spring MVC, register it as a
 * {@code FilterRegistrationBean} on the callback paths (a {@code HandlerInterceptor} runs too late to give the
 * controller the verified body: see the README).
 */
public final class CallbackVerificationFilter implements Filter {
  /** The request attribute holding the {@link CallbackVerifier.Verified} call. */
  public static final String VERIFIED_CALL = CallbackVerificationFilter.class.getName() + ".verifiedCall";

  private final CallbackVerifier verifier;
  private final int maxBody;

  public CallbackVerificationFilter(CallbackVerifier verifier) {
    this(verifier, 1 << 20);
  }

  public CallbackVerificationFilter(CallbackVerifier verifier, int maxBody) {
    this.verifier = verifier;
    this.maxBody = maxBody;
  }

  /** The call this filter verified for the request, or null. */
  public static CallbackVerifier.Verified verifiedCall(ServletRequest request) {
    Object v = request.getAttribute(VERIFIED_CALL);
    return v instanceof CallbackVerifier.Verified ? (CallbackVerifier.Verified) v : null;
  }

  @Override
  public void init(FilterConfig config) {}

  @Override
  public void destroy() {}

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    HttpServletResponse response = (HttpServletResponse) res;
    byte[] body = readAtMost(request.getInputStream(), maxBody);
    if (body == null) {
      refuse(response, 413, "body too large");
      return;
    }
    CallbackVerifier.Verified call;
    try {
      // getRequestURI is the path as sent (not decoded); a query string is not part of it.
      call = verifier.verify(request.getMethod(), request.getRequestURI(), name -> headerValues(request, name), body);
    } catch (CallbackVerificationException e) {
      refuse(response, 401, "signature check failed: " + e.getCode());
      return;
    }
    request.setAttribute(VERIFIED_CALL, call);
    chain.doFilter(new VerifiedRequest(request, body), response);
  }

  private static List<String> headerValues(HttpServletRequest request, String name) {
    java.util.Enumeration<String> e = request.getHeaders(name);
    return e == null ? Collections.emptyList() : Collections.list(e);
  }

  private static byte[] readAtMost(InputStream in, int max) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    for (int n; (n = in.read(buf)) != -1; ) {
      if (out.size() + n > max) return null;
      out.write(buf, 0, n);
    }
    return out.toByteArray();
  }

  private static void refuse(HttpServletResponse response, int status, String msg) throws IOException {
    Answers.Answer a = Answers.rejectNotification(status, msg);
    response.setStatus(a.status);
    response.setContentType("application/json");
    byte[] json = a.json().getBytes(StandardCharsets.UTF_8);
    response.setContentLength(json.length);
    response.getOutputStream().write(json);
  }

  /** The request as the servlet sees it: its body reads the verified bytes. */
  private static final class VerifiedRequest extends HttpServletRequestWrapper {
    private final byte[] body;

    VerifiedRequest(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      ByteArrayInputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
          return in.read(b, off, len);
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new IllegalStateException("the verified body is already in memory");
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
    }

    @Override
    public int getContentLength() {
      return body.length;
    }

    @Override
    public long getContentLengthLong() {
      return body.length;
    }
  }
}
