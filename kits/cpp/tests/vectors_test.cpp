// Runs every case of kits/vectors.json (generated from the service's own signing code); prints "N passed, N failed".
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "gamekit/gamekit.hpp"

using gamekit::json::Value;

static int passed = 0, failed = 0;

static void check(const std::string& name, bool ok, const std::string& detail = "") {
  if (ok) {
    passed++;
  } else {
    failed++;
    std::cout << "FAIL " << name << ": " << detail << "\n";
  }
}

static const Value& at(const Value& v, const std::string& k) {
  static const Value none;
  const Value* p = v.get(k);
  return p ? *p : none;
}

static std::string text(const Value& v) { return v.text; }
static Value s(const std::string& x) { return Value::str(x); }
static Value s(int64_t x) { return Value::str(std::to_string(x)); }
template <class T>
static Value s(const std::optional<T>& x) { return x ? s(*x) : Value::null(); }

/** JSON values equal, object members in any order. */
static bool same(const Value& a, const Value& b) {
  if (a.kind != b.kind || a.boolean != b.boolean || a.text != b.text || a.items.size() != b.items.size() ||
      a.members.size() != b.members.size())
    return false;
  for (size_t i = 0; i < a.items.size(); i++)
    if (!same(a.items[i], b.items[i])) return false;
  for (const auto& [k, val] : a.members) {
    const Value* other = b.get(k);
    if (!other || !same(val, *other)) return false;
  }
  return true;
}

/** The expected map of a typed-body case against what the kit parsed. */
static void compare(const std::string& name, const Value& expect, const std::map<std::string, Value>& got) {
  for (const auto& [k, want] : expect.members) {
    auto it = got.find(k);
    bool ok = it != got.end() && it->second.kind == want.kind && it->second.text == want.text;
    check(name + " / " + k, ok, it == got.end() ? "missing" : gamekit::json::write(it->second));
  }
}

int main(int argc, char** argv) {
  const char* env = std::getenv("KIT_VECTORS");
  std::string file = argc > 1 ? argv[1] : env ? env : "../vectors.json";
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  Value v = gamekit::json::parse(ss.str());

  for (const auto& c : at(v, "callback").items) {
    std::string d = text(at(c, "description"));
    std::map<std::string, std::string> pems;
    for (const auto& kid : at(c, "publicKeys").items) pems[kid.text] = text(at(at(at(v, "keys"), kid.text), "publicKeyPem"));
    int64_t now = std::stoll(at(c, "now").text);
    auto clock = [now] { return now; };
    auto store = std::make_shared<gamekit::MemoryNonceStore>(clock);
    for (const auto& n : at(c, "seenNonces").items) store->remember(n.text, now + 600);
    gamekit::CallbackVerifier verifier(pems, std::stoll(at(c, "windowSeconds").text), store, clock);
    gamekit::Headers h;
    std::string ts, nonce;
    for (const auto& pair : at(c, "headers").items) {
      const std::string &k = pair.items.at(0).text, &val = pair.items.at(1).text;
      h.emplace_back(k, val);
      if (k == "Timestamp" || k == "timestamp") ts = val;
      if (k == "Nonce" || k == "nonce") nonce = val;
    }
    std::string method = text(at(c, "method")), path = text(at(c, "path")), body = text(at(c, "body"));
    std::string expect = text(at(c, "expect"));
    std::string got;
    try {
      got = "ok:" + verifier.verify(method, path, h, body).key_id;
    } catch (const gamekit::VerificationError& e) {
      got = gamekit::reason_code(e.reason());
    }
    std::string want = expect == "ok" ? "ok:" + text(at(c, "expectKeyId")) : expect;
    check(d, got == want, "got " + got + ", want " + want);
    if (expect == "ok") {
      try {
        verifier.verify(method, path, h, body);
        check(d + " (again)", false, "a replay was accepted");
      } catch (const gamekit::VerificationError& e) {
        check(d + " (again)", e.reason() == gamekit::Reason::ReplayedNonce, gamekit::reason_code(e.reason()));
      }
      check(d + " (sign base)", gamekit::sign_base(method, path, ts, nonce, body) == text(at(c, "signBase")));
    }
  }

  for (const auto& c : at(v, "md5").items) {
    std::string d = text(at(c, "description"));
    std::string canonical = gamekit::canonical_params(at(c, "params"));
    check(d, canonical == text(at(c, "canonical")), canonical);
    check(d + " (sign)", gamekit::md5_sign(at(c, "params"), text(at(c, "secret"))) == text(at(c, "sign")));
  }
  for (const auto& c : at(v, "md5Bodies").items) {
    std::string d = text(at(c, "description"));
    auto params = gamekit::json::parse(text(at(c, "body")));
    // C++'s decimal idiom: a number from its literal text, json::Value::number("19.99").
    for (const auto& k : at(c, "decimals").items)
      for (auto& m : params.members)
        if (m.first == k.text) m.second = gamekit::json::Value::number(m.second.text);
    check(d, gamekit::canonical_params(params) == text(at(c, "canonical")));
    check(d + " (sign)", gamekit::md5_sign(params, text(at(c, "secret"))) == text(at(c, "sign")));
  }
  std::pair<double, const char*> numbers[] = {{1.5, "1.5"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
                                              {1e-7, "1e-7"}, {0.000001, "0.000001"}, {-273.15, "-273.15"},
                                              {5e-324, "5e-324"}, {0.1 + 0.2, "0.30000000000000004"},
                                              {1.7976931348623157e308, "1.7976931348623157e+308"}, {2e-3, "0.002"}};
  for (const auto& [x, want] : numbers) check(std::string("js_number ") + want, gamekit::js_number(x) == want, gamekit::js_number(x));
  try {
    gamekit::canonical_params(gamekit::json::parse(R"({"a.b":"1","a":{"b":"2"}})"));
    check("duplicate flattened key", false, "accepted");
  } catch (const std::invalid_argument&) {
    check("duplicate flattened key", true);
  }

  for (const auto& c : at(v, "mac").items) {
    std::string d = text(at(c, "description"));
    gamekit::MacInput mi{text(at(c, "ts")), text(at(c, "nonce")), text(at(c, "method")), text(at(c, "uri")),
                         text(at(c, "host")), text(at(c, "port"))};
    check(d + " (base)", gamekit::mac_sign_base(mi) == text(at(c, "signBase")));
    check(d + " (mac)", gamekit::mac_sign(mi, text(at(c, "macKey"))) == text(at(c, "mac")));
    std::string header = gamekit::mac_authorization(text(at(c, "kid")), text(at(c, "macKey")), mi);
    check(d + " (header)", header == text(at(c, "header")), header);
  }

  for (const auto& c : at(v, "notifications").items) {
    auto n = gamekit::Notification::parse(text(at(c, "body")));
    std::map<std::string, Value> got{
        {"notifyId", s(n.notify_id)}, {"appId", s(n.app_id)}, {"userId", s(n.user_id)}, {"trxNo", s(n.trx_no)},
        {"originalTrxNo", s(n.original_trx_no)}, {"trxType", s(n.trx_type)},
        {"kind", s(n.is_payment() ? "payment" : n.is_refund() ? "refund" : "unknown")}, {"outTrxNo", s(n.out_trx_no)},
        {"channel", s(n.channel)}, {"currency", s(n.currency)}, {"totalAmount", s(n.total_amount)},
        {"clientAmount", s(n.client_amount)}, {"productCount", s(int64_t(n.products.size()))},
        {"products.0.productCode", n.products.empty() ? Value::null() : s(n.products[0].product_code)},
        {"products.0.quantity", n.products.empty() ? Value::null() : s(n.products[0].quantity)},
        {"attach.gameRoleId", n.attach ? s(n.attach->game_role_id) : Value::null()}};
    compare(text(at(c, "description")), at(c, "expect"), got);
  }
  for (const auto& c : at(v, "preOrderChecks").items) {
    auto p = gamekit::PreOrderCheck::parse(text(at(c, "body")));
    compare(text(at(c, "description")), at(c, "expect"),
            {{"roleId", s(p.role_id)}, {"serverId", s(p.server_id)}, {"productSkuCode", s(p.product_sku_code)},
             {"quantity", s(p.quantity)}, {"extras", s(p.extras)}});
  }
  for (const auto& c : at(v, "answers").items) {
    const Value& a = at(c, "args");
    std::string kind = text(at(c, "kind"));
    auto role = [](const Value& m) {
      gamekit::Role r{text(at(m, "userId")), text(at(m, "roleId")), text(at(m, "name")), text(at(m, "avatar")), {}, {}, {}};
      if (m.get("roleLv") && !m.get("roleLv")->is_null()) r.role_lv = std::stoll(m.get("roleLv")->text);
      if (m.get("serverId") && !m.get("serverId")->is_null()) r.server_id = m.get("serverId")->text;
      if (m.get("serverName") && !m.get("serverName")->is_null()) r.server_name = m.get("serverName")->text;
      return r;
    };
    gamekit::Answer got{0, Value()};
    if (kind == "acceptNotification") got = gamekit::accept_notification();
    else if (kind == "rejectNotification") got = gamekit::reject_notification(std::stoi(at(a, "status").text), text(at(a, "msg")));
    else if (kind == "role") got = gamekit::role_answer(role(a));
    else if (kind == "roleList") {
      std::vector<gamekit::Role> roles;
      for (const auto& r : at(a, "roles").items) roles.push_back(role(r));
      got = gamekit::role_list_answer(roles);
    } else if (kind == "preOrderAllow") got = gamekit::pre_order_allow();
    else {
      std::optional<std::string> msg;
      if (a.get("msg")) msg = a.get("msg")->text;
      got = gamekit::pre_order_reject(std::stoi(at(a, "code").text), text(at(a, "detail")), msg);
    }
    bool ok = std::to_string(got.status) == at(at(c, "expect"), "status").text &&
              same(gamekit::json::parse(got.json()), at(at(c, "expect"), "body"));
    check(text(at(c, "description")), ok, std::to_string(got.status) + " " + got.json());
  }
  try {
    gamekit::Notification::parse(R"({"products":[],"notifyId":"x"})");
    check("bad field named", false, "accepted");
  } catch (const gamekit::BodyError& e) {
    check("bad field named", e.field() == "notifyId", e.field());
  }
  std::string reject = gamekit::pre_order_reject(gamekit::pre_order_code::purchase_limit_reached, "limit 5/day").json();
  check("pre-order reject", reject == R"({"code":105,"msg":null,"detail":"limit 5/day"})", reject);
  check("empty role list is 401", gamekit::role_list_answer({}).status == 401);

  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}
