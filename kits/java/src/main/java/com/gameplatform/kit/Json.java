package com.gameplatform.kit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader (RFC 8259) for the kit's typed bodies and tests: objects are LinkedHashMap (member
 * order kept), arrays ArrayList, strings String, true/false Boolean, null null, and numbers {@link Num} with
 * their exact literal text (int64 ids and decimal amounts stay exact). Never used to verify a call: 5.3 is over
 * the raw bytes.
 */
public final class Json {
  /** A JSON number as written. */
  public static final class Num {
    public final String text;

    public Num(String text) {
      this.text = text;
    }

    public boolean isInteger() {
      return text.matches("-?[0-9]+");
    }

    public double doubleValue() {
      return Double.parseDouble(text);
    }

    @Override
    public String toString() {
      return text;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Num && ((Num) o).text.equals(text);
    }

    @Override
    public int hashCode() {
      return text.hashCode();
    }
  }

  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  /** Parses JSON text; throws IllegalArgumentException when it is not valid JSON. */
  public static Object parse(String text) {
    Json p = new Json(text);
    p.ws();
    Object v = p.value(0);
    p.ws();
    if (p.i != p.s.length()) throw p.err("trailing text");
    return v;
  }

  private IllegalArgumentException err(String what) {
    return new IllegalArgumentException("invalid JSON at " + i + ": " + what);
  }

  private void ws() {
    while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
  }

  private Object value(int depth) {
    if (depth > 64) throw err("nested too deep");
    if (i >= s.length()) throw err("unexpected end");
    char c = s.charAt(i);
    if (c == '{') {
      i++;
      Map<String, Object> o = new LinkedHashMap<>();
      ws();
      if (peek('}')) return o;
      do {
        ws();
        if (i >= s.length() || s.charAt(i) != '"') throw err("member name expected");
        String k = string();
        ws();
        expect(':');
        ws();
        o.put(k, value(depth + 1));
        ws();
      } while (peek(','));
      expect('}');
      return o;
    }
    if (c == '[') {
      i++;
      List<Object> a = new ArrayList<>();
      ws();
      if (peek(']')) return a;
      do {
        ws();
        a.add(value(depth + 1));
        ws();
      } while (peek(','));
      expect(']');
      return a;
    }
    if (c == '"') return string();
    if (s.startsWith("true", i)) {
      i += 4;
      return Boolean.TRUE;
    }
    if (s.startsWith("false", i)) {
      i += 5;
      return Boolean.FALSE;
    }
    if (s.startsWith("null", i)) {
      i += 4;
      return null;
    }
    int start = i;
    peek('-');
    if (!peek('0')) {
      if (i >= s.length() || s.charAt(i) < '1' || s.charAt(i) > '9') throw err("value expected");
      digits();
    }
    if (peek('.')) {
      if (digits() == 0) throw err("digits expected");
    }
    if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (!peek('+')) peek('-');
      if (digits() == 0) throw err("digits expected");
    }
    return new Num(s.substring(start, i));
  }

  private int digits() {
    int start = i;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
    return i - start;
  }

  private boolean peek(char c) {
    if (i < s.length() && s.charAt(i) == c) {
      i++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!peek(c)) throw err("'" + c + "' expected");
  }

  private String string() {
    i++;
    StringBuilder b = new StringBuilder();
    while (true) {
      if (i >= s.length()) throw err("unterminated string");
      char c = s.charAt(i++);
      if (c == '"') return b.toString();
      if (c < 0x20) throw err("control character in string");
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (i >= s.length()) throw err("unterminated escape");
      char e = s.charAt(i++);
      switch (e) {
        case '"': b.append('"'); break;
        case '\\': b.append('\\'); break;
        case '/': b.append('/'); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'n': b.append('\n'); break;
        case 'r': b.append('\r'); break;
        case 't': b.append('\t'); break;
        case 'u':
          if (i + 4 > s.length()) throw err("bad \\u escape");
          try {
            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          } catch (NumberFormatException ex) {
            throw err("bad \\u escape");
          }
          i += 4;
          break;
        default: throw err("bad escape");
      }
    }
  }

  /** JSON text of a value built from Map, List, String, Number, Num, Boolean and null (for the game's answers). */
  public static String write(Object v) {
    StringBuilder b = new StringBuilder();
    write(v, b);
    return b.toString();
  }

  private static void write(Object v, StringBuilder b) {
    if (v == null) b.append("null");
    else if (v instanceof String) quote((String) v, b);
    else if (v instanceof Map) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (!first) b.append(',');
        first = false;
        quote(String.valueOf(e.getKey()), b);
        b.append(':');
        write(e.getValue(), b);
      }
      b.append('}');
    } else if (v instanceof List) {
      b.append('[');
      boolean first = true;
      for (Object x : (List<?>) v) {
        if (!first) b.append(',');
        first = false;
        write(x, b);
      }
      b.append(']');
    } else b.append(v.toString());
  }

  private static void quote(String s, StringBuilder b) {
    b.append('"');
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    b.append('"');
  }
}
