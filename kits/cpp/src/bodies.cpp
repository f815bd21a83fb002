// Typed bodies (2.4, 2.5, 4.10) and the game's answers (4.7-4.10). Tolerant as section 9 asks.
#include <cerrno>
#include <cstdlib>

#include "gamekit/gamekit.hpp"

namespace gamekit {

BodyError::BodyError(std::string field, const std::string& problem)
    : std::runtime_error(field + ": " + problem), field_(std::move(field)) {}

namespace {

struct Fields {
  const json::Value& o;
  std::string prefix;

  Fields(const json::Value& v, std::string p) : o(v), prefix(std::move(p)) {
    if (v.kind != json::Value::Kind::Object) throw BodyError(prefix.empty() ? "body" : prefix, "must be a JSON object");
  }
  std::string path(const std::string& k) const { return prefix.empty() ? k : prefix + "." + k; }

  /** A string or a number, as text; nullopt when absent or null. */
  std::optional<std::string> opt_string(const std::string& k) const {
    const json::Value* v = o.get(k);
    if (!v || v->is_null()) return std::nullopt;
    if (v->kind == json::Value::Kind::String || v->kind == json::Value::Kind::Number) return v->text;
    throw BodyError(path(k), "must be a string");
  }
  std::string string(const std::string& k) const {
    auto v = opt_string(k);
    if (!v) throw BodyError(path(k), "is required");
    return *v;
  }
  std::optional<int64_t> opt_int(const std::string& k) const {
    auto t = opt_string(k);
    if (!t) return std::nullopt;
    size_t i = (*t)[0] == '-' ? 1 : 0;
    bool ok = t->size() > i && t->size() - i <= 19;
    for (size_t j = i; j < t->size(); j++) ok = ok && (*t)[j] >= '0' && (*t)[j] <= '9';
    if (!ok) throw BodyError(path(k), "must be an integer");
    errno = 0;
    long long v = std::strtoll(t->c_str(), nullptr, 10);
    if (errno) throw BodyError(path(k), "is out of range");
    return v;
  }
  int64_t integer(const std::string& k) const {
    auto v = opt_int(k);
    if (!v) throw BodyError(path(k), "is required");
    return *v;
  }
  /** A decimal as its exact text: 0.99 and "0.99" both give "0.99", never a binary float. */
  std::optional<std::string> opt_decimal(const std::string& k) const {
    auto t = opt_string(k);
    if (!t) return t;
    const std::string& s = *t;
    size_t i = s[0] == '-' ? 1 : 0, start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++;
    bool ok = i > start && !(s[start] == '0' && i - start > 1);
    if (ok && i < s.size() && s[i] == '.') {
      size_t f = ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++;
      ok = i > f;
    }
    if (!ok || i != s.size()) throw BodyError(path(k), "must be a decimal number");
    return t;
  }
};

json::Value parse_body(const std::string& body) {
  try {
    return json::parse(body);
  } catch (const json::ParseError&) {
    throw BodyError("body", "is not valid JSON");
  }
}

json::Value opt(const std::optional<std::string>& s) { return s ? json::Value::str(*s) : json::Value::null(); }
json::Value opt(const std::optional<int64_t>& i) { return i ? json::Value::number(*i) : json::Value::null(); }

}  // namespace

Notification Notification::parse(const std::string& body) {
  Notification n;
  n.raw = parse_body(body);
  Fields f(n.raw, "");
  const json::Value* products = n.raw.get("products");
  if (!products || products->kind != json::Value::Kind::Array) throw BodyError("products", "must be an array");
  for (size_t i = 0; i < products->items.size(); i++) {
    Fields p(products->items[i], "products." + std::to_string(i));
    n.products.push_back(Product{p.string("productCode"), p.integer("quantity"), p.opt_string("channelSkuCode").value_or("")});
  }
  n.notify_id = f.integer("notifyId");
  n.notify_time = f.integer("notifyTime");
  n.app_id = f.integer("appId");
  n.user_id = f.string("userId");
  n.trx_no = f.integer("trxNo");
  n.original_trx_no = f.opt_int("originalTrxNo");
  n.trx_type = f.integer("trxType");
  n.platform = f.integer("platform");
  n.channel = f.integer("channel");
  n.payment_type = f.integer("paymentType");
  n.currency = f.string("currency");
  auto total = f.opt_decimal("totalAmount");
  if (!total) throw BodyError("totalAmount", "is required");
  n.total_amount = *total;
  n.status = f.integer("status");
  n.success_time = f.integer("successTime");
  n.out_trx_no = f.opt_string("outTrxNo");
  n.region = f.opt_string("region");
  n.client_amount = f.opt_decimal("clientAmount");
  n.client_currency = f.opt_string("clientCurrency");
  n.client_region = f.opt_string("clientRegion");
  n.bank_trx_no = f.opt_string("bankTrxNo");
  const json::Value* attach = n.raw.get("attach");
  json::Value parsed;
  if (attach && attach->kind == json::Value::Kind::String) {  // tolerated: attach sent as JSON text
    try {
      parsed = json::parse(attach->text);
    } catch (const json::ParseError&) {
    }
    attach = &parsed;
  }
  if (attach && attach->kind == json::Value::Kind::Object) {
    Fields a(*attach, "attach");
    n.attach = Attach{a.opt_string("gameServerId").value_or(""), a.opt_string("gameRoleId").value_or(""),
                      a.opt_string("gameExt").value_or("")};
  }
  return n;
}

PreOrderCheck PreOrderCheck::parse(const std::string& body) {
  json::Value v = parse_body(body);
  Fields f(v, "");
  PreOrderCheck p{f.string("roleId"), f.string("serverId"), f.string("productSkuCode"), f.integer("quantity"),
                  f.opt_string("extras")};
  if (p.quantity < 1) throw BodyError("quantity", "must be at least 1");
  return p;
}

using json::Value;

Answer accept_notification() { return {200, Value::object({{"code", Value::str("SUCCESS")}, {"msg", Value::str("ok")}})}; }

Answer reject_notification(int status, const std::string& msg) {
  if (status != 500 && (status < 400 || status > 499)) throw std::invalid_argument("500 or a 4xx");
  return {status, Value::object({{"code", Value::str("SUCCESS")}, {"msg", Value::str(msg)}})};
}

Answer role_answer(const Role& r) {
  if (r.user_id.empty() || r.role_id.empty()) throw std::invalid_argument("user_id and role_id are required");
  return {200, Value::object({{"userId", Value::str(r.user_id)}, {"roleId", Value::str(r.role_id)},
                              {"name", Value::str(r.name)}, {"avatar", Value::str(r.avatar)}, {"roleLv", opt(r.role_lv)},
                              {"serverId", opt(r.server_id)}, {"serverName", opt(r.server_name)}})};
}

Answer role_list_answer(const std::vector<Role>& roles) {
  if (roles.empty())
    return {401, Value::object({{"code", Value::number(401)}, {"msg", Value::str("No role found.")},
                                {"detail", Value::str("the user has no role")}, {"results", Value::array()}})};
  Value results = Value::array();
  for (const auto& r : roles)
    results.items.push_back(Value::object({{"roleId", Value::str(r.role_id)}, {"name", Value::str(r.name)},
                                           {"avatar", Value::str(r.avatar)}, {"roleLv", opt(r.role_lv)},
                                           {"serverId", opt(r.server_id)}, {"serverName", opt(r.server_name)}}));
  return {200, Value::object({{"code", Value::number(200)}, {"msg", Value::str("success")}, {"detail", Value::str("")},
                              {"results", results}})};
}

Answer pre_order_allow() {
  return {200, Value::object({{"code", Value::number(200)}, {"msg", Value::str("success")}, {"detail", Value::str("")}})};
}

Answer pre_order_reject(int code, const std::string& detail, const std::optional<std::string>& msg) {
  return {400, Value::object({{"code", Value::number(code)}, {"msg", opt(msg)}, {"detail", Value::str(detail)}})};
}

}  // namespace gamekit
