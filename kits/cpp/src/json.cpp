#include "gamekit/json.hpp"

#include <cstdio>

namespace gamekit::json {

const Value* Value::get(const std::string& k) const {
  for (const auto& m : members)
    if (m.first == k) return &m.second;
  return nullptr;
}

namespace {

class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}

  Value document() {
    ws();
    Value v = value(0);
    ws();
    if (i_ != s_.size()) fail("trailing text");
    return v;
  }

 private:
  const std::string& s_;
  size_t i_ = 0;

  [[noreturn]] void fail(const char* what) { throw ParseError("invalid JSON at " + std::to_string(i_) + ": " + what); }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\n')) i_++;
  }
  bool peek(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      i_++;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!peek(c)) fail("unexpected character");
  }
  bool literal(const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (s_.compare(i_, n, w) == 0) {
      i_ += n;
      return true;
    }
    return false;
  }
  size_t digits() {
    size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') i_++;
    return i_ - start;
  }

  Value value(int depth) {
    if (depth > 64) fail("nested too deep");
    if (i_ >= s_.size()) fail("unexpected end");
    char c = s_[i_];
    if (c == '{') {
      i_++;
      Value o = Value::object();
      ws();
      if (peek('}')) return o;
      do {
        ws();
        if (i_ >= s_.size() || s_[i_] != '"') fail("member name expected");
        std::string k = string();
        ws();
        expect(':');
        ws();
        o.members.emplace_back(std::move(k), value(depth + 1));
        ws();
      } while (peek(','));
      expect('}');
      return o;
    }
    if (c == '[') {
      i_++;
      Value a = Value::array();
      ws();
      if (peek(']')) return a;
      do {
        ws();
        a.items.push_back(value(depth + 1));
        ws();
      } while (peek(','));
      expect(']');
      return a;
    }
    if (c == '"') return Value::str(string());
    if (literal("true")) return Value::of(true);
    if (literal("false")) return Value::of(false);
    if (literal("null")) return Value::null();
    size_t start = i_;
    peek('-');
    if (!peek('0')) {
      if (i_ >= s_.size() || s_[i_] < '1' || s_[i_] > '9') fail("value expected");
      digits();
    }
    if (peek('.') && digits() == 0) fail("digits expected");
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      i_++;
      if (!peek('+')) peek('-');
      if (digits() == 0) fail("digits expected");
    }
    return Value::number(s_.substr(start, i_ - start));
  }

  static void utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) out += char(cp);
    else if (cp < 0x800) out += char(0xC0 | (cp >> 6)), out += char(0x80 | (cp & 0x3F));
    else if (cp < 0x10000)
      out += char(0xE0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
    else
      out += char(0xF0 | (cp >> 18)), out += char(0x80 | ((cp >> 12) & 0x3F)), out += char(0x80 | ((cp >> 6) & 0x3F)),
          out += char(0x80 | (cp & 0x3F));
  }

  unsigned hex4() {
    if (i_ + 4 > s_.size()) fail("bad \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
      char h = s_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= h - '0';
      else if (h >= 'a' && h <= 'f') v |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F') v |= h - 'A' + 10;
      else fail("bad \\u escape");
    }
    return v;
  }

  std::string string() {
    i_++;
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      unsigned char c = s_[i_++];
      if (c == '"') return out;
      if (c < 0x20) fail("control character in string");
      if (c != '\\') {
        out += char(c);
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF && s_.compare(i_, 2, "\\u") == 0) {
            i_ += 2;
            unsigned lo = hex4();
            if (lo >= 0xDC00 && lo <= 0xDFFF) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            else utf8(out, 0xFFFD), cp = lo;
          }
          utf8(out, cp);
          break;
        }
        default: fail("bad escape");
      }
    }
  }
};

void quote(const std::string& s, std::string& out) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += char(c);
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += char(c);
  }
  out += '"';
}

void write_to(const Value& v, std::string& out) {
  switch (v.kind) {
    case Value::Kind::Null: out += "null"; break;
    case Value::Kind::Bool: out += v.boolean ? "true" : "false"; break;
    case Value::Kind::Number: out += v.text; break;
    case Value::Kind::String: quote(v.text, out); break;
    case Value::Kind::Array:
      out += '[';
      for (size_t i = 0; i < v.items.size(); i++) {
        if (i) out += ',';
        write_to(v.items[i], out);
      }
      out += ']';
      break;
    case Value::Kind::Object:
      out += '{';
      for (size_t i = 0; i < v.members.size(); i++) {
        if (i) out += ',';
        quote(v.members[i].first, out);
        out += ':';
        write_to(v.members[i].second, out);
      }
      out += '}';
      break;
  }
}

}  // namespace

Value parse(const std::string& text) { return Parser(text).document(); }

std::string write(const Value& v) {
  std::string out;
  write_to(v, out);
  return out;
}

}  // namespace gamekit::json
