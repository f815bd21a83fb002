// Spec 5.1 (md5 in the canonical form of docs/signing.md) and 5.2 (MAC), with OpenSSL 3.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "gamekit/gamekit.hpp"

namespace gamekit {

std::string js_number(double x) {
  if (!std::isfinite(x)) throw std::invalid_argument("md5 sign: only finite numbers can be signed");
  if (x == 0) return "0";
  if (x < 0) return "-" + js_number(-x);
  char buf[40];
  for (int p = 1; p <= 17; p++) {  // the shortest digits that read back as x
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  std::string s = buf;
  size_t e = s.find('e');
  int exp = std::atoi(s.c_str() + e + 1);
  std::string digits;
  for (size_t i = 0; i < e; i++)
    if (s[i] != '.') digits += s[i];
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int k = static_cast<int>(digits.size()), n = exp + 1;
  if (k <= n && n <= 21) return digits + std::string(n - k, '0');
  if (0 < n && n <= 21) return digits.substr(0, n) + "." + digits.substr(n);
  if (-6 < n && n <= 0) return "0." + std::string(-n, '0') + digits;
  return digits.substr(0, 1) + (k > 1 ? "." + digits.substr(1) : "") + "e" + (n - 1 >= 0 ? "+" : "-") +
         std::to_string(std::abs(n - 1));
}

static bool is_integer_literal(const std::string& t) {
  size_t i = (t[0] == '-') ? 1 : 0;
  if (i >= t.size()) return false;
  for (; i < t.size(); i++)
    if (t[i] < '0' || t[i] > '9') return false;
  return true;
}

static std::string scalar(const std::string& key, const json::Value& v) {
  switch (v.kind) {
    case json::Value::Kind::String: return v.text;
    case json::Value::Kind::Bool: return v.boolean ? "true" : "false";
    case json::Value::Kind::Number: {
      // An integer keeps its exact digits however long: the service reads integers past 2^53 as their digits.
      if (is_integer_literal(v.text)) return v.text == "-0" ? "0" : v.text;
      return js_number(std::strtod(v.text.c_str(), nullptr));
    }
    default: throw std::invalid_argument("md5 sign: " + key + " cannot be signed");
  }
}

static void flatten(const std::string& key, const json::Value& v, int depth,
                    std::vector<std::pair<std::string, std::string>>& out) {
  if (v.is_null()) return;
  if (v.kind == json::Value::Kind::Object || v.kind == json::Value::Kind::Array) {
    if (depth >= 32) throw std::invalid_argument("md5 sign: " + key + " is nested deeper than 32");
    if (v.kind == json::Value::Kind::Object)
      for (const auto& m : v.members) flatten(key + "." + m.first, m.second, depth + 1, out);
    else
      for (size_t i = 0; i < v.items.size(); i++) flatten(key + "." + std::to_string(i), v.items[i], depth + 1, out);
    return;
  }
  out.emplace_back(key, scalar(key, v));
}

std::string canonical_params(const json::Value& params) {
  if (params.kind != json::Value::Kind::Object) throw std::invalid_argument("md5 sign: params must be an object");
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& m : params.members)
    if (m.first != "sign") flatten(m.first, m.second, 0, out);
  // std::string compares bytes as unsigned char (char_traits<char>::compare): UTF-8 byte order.
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string s;
  for (size_t i = 0; i < out.size(); i++) {
    if (i > 0 && out[i].first == out[i - 1].first)
      throw std::invalid_argument("md5 sign: key " + out[i].first + " occurs twice after flattening");
    if (i) s += '&';
    s += out[i].first + "=" + out[i].second;
  }
  return s;
}

static std::string hex(const unsigned char* d, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; i++) s += digits[d[i] >> 4], s += digits[d[i] & 15];
  return s;
}

std::string md5_sign(const json::Value& params, const std::string& secret) {
  std::string text = canonical_params(params) + secret;
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(text.data(), text.size(), d, &n, EVP_md5(), nullptr) != 1) throw std::runtime_error("md5 failed");
  return hex(d, n);
}

std::string mac_sign_base(const MacInput& in) {
  std::string m = in.method;
  for (auto& c : m) c = (c >= 'a' && c <= 'z') ? char(c - 32) : c;
  std::string out;
  const std::string* parts[] = {&in.ts, &in.nonce, &m, &in.uri, &in.host, &in.port};
  for (const std::string* p : parts) {
    if (p->find('\n') != std::string::npos) throw std::invalid_argument("MAC sign base: a value contains a line feed");
    out += *p + "\n";
  }
  return out;
}

static std::string base64(const unsigned char* d, size_t n, bool url) {
  static const char* std_ = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  static const char* url_ = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const char* a = url ? url_ : std_;
  std::string s;
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = d[i] << 16 | (i + 1 < n ? d[i + 1] << 8 : 0) | (i + 2 < n ? d[i + 2] : 0);
    s += a[v >> 18], s += a[(v >> 12) & 63];
    if (i + 1 < n) s += a[(v >> 6) & 63];
    else if (!url) s += '=';
    if (i + 2 < n) s += a[v & 63];
    else if (!url) s += '=';
  }
  return s;
}

std::string mac_sign(const MacInput& in, const std::string& mac_key) {
  std::string base = mac_sign_base(in);
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (!HMAC(EVP_sha1(), mac_key.data(), static_cast<int>(mac_key.size()),
            reinterpret_cast<const unsigned char*>(base.data()), base.size(), d, &n))
    throw std::runtime_error("HMAC failed");
  return base64(d, n, false);
}

static std::string quote(const std::string& v) {
  std::string s = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') s += '\\';
    s += c;
  }
  return s + "\"";
}

std::string mac_authorization(const std::string& kid, const std::string& mac_key, MacInput in) {
  if (in.ts.empty())
    in.ts = std::to_string(
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  if (in.nonce.empty()) {
    unsigned char r[16];
    if (RAND_bytes(r, sizeof r) != 1) throw std::runtime_error("RAND_bytes failed");
    in.nonce = base64(r, sizeof r, true);
  }
  return "MAC id=" + quote(kid) + ",ts=" + quote(in.ts) + ",nonce=" + quote(in.nonce) + ",mac=" + quote(mac_sign(in, mac_key));
}

}  // namespace gamekit
