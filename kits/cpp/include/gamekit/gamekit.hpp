// Game-server kit of the game platform (C++17, OpenSSL 3): verify the platform's signed calls (spec 5.3), sign
// calls to the platform (5.1 md5, 5.2 MAC), typed notification bodies (2.4, 2.5, 4.10) and answers (4.7-4.10).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gamekit/json.hpp"

namespace gamekit {

// ---- 5.3: verify the platform's calls -------------------------------------------------------------------

enum class Reason { MissingHeader, MalformedHeader, StaleTimestamp, UnknownKey, BadSignature, ReplayedNonce };

/** missing_header, malformed_header, stale_timestamp, unknown_key, bad_signature, replayed_nonce. */
const char* reason_code(Reason r);

/** The call is refused; reason() names the failed check. */
class VerificationError : public std::runtime_error {
 public:
  VerificationError(Reason r, const std::string& detail);
  Reason reason() const { return reason_; }

 private:
  Reason reason_;
};

/** Records nonces; remember() answers false when the nonce is recorded and not expired (a replay). Must be
 *  atomic when several game server instances share it (e.g. Redis SET key 1 NX EX ttl). */
class NonceStore {
 public:
  virtual ~NonceStore() = default;
  virtual bool remember(const std::string& nonce, int64_t expires_at_epoch_seconds) = 0;
};

/** Nonces in this process's memory: enough for one game server instance. Thread-safe. */
class MemoryNonceStore : public NonceStore {
 public:
  explicit MemoryNonceStore(std::function<int64_t()> now_seconds = nullptr, size_t max_entries = 100000);
  bool remember(const std::string& nonce, int64_t expires_at) override;

 private:
  std::function<int64_t()> now_;
  size_t max_;
  std::mutex mu_;
  std::unordered_map<std::string, int64_t> seen_;
};

/** Request headers as received (name, value); names are matched case-insensitively. */
using Headers = std::vector<std::pair<std::string, std::string>>;

struct VerifiedCall {
  std::string key_id;
  int64_t timestamp = 0;
  std::string nonce;
};

/** METHOD LF path LF Timestamp LF Nonce LF body LF, the path without its query string. */
std::string sign_base(const std::string& method, const std::string& path, const std::string& timestamp,
                      const std::string& nonce, const std::string& body);

struct PublicKey;  // an OpenSSL EVP_PKEY

class CallbackVerifier {
 public:
  /** Platform public keys (PEM SubjectPublicKeyInfo) by key id. Default window 300 s, in-memory nonces. */
  explicit CallbackVerifier(const std::map<std::string, std::string>& public_key_pems, int64_t window_seconds = 300,
                            std::shared_ptr<NonceStore> nonces = nullptr, std::function<int64_t()> now_seconds = nullptr);
  ~CallbackVerifier();
  CallbackVerifier(const CallbackVerifier&) = delete;
  CallbackVerifier& operator=(const CallbackVerifier&) = delete;

  /** Checks, in order: headers present and well formed, Timestamp in the window, key known (Key-Id picks one;
   *  without it each is tried), RSA-SHA256 over the raw request, then the nonce. `body` is the raw bytes as
   *  received (never a re-serialised body). Throws VerificationError. */
  VerifiedCall verify(const std::string& method, const std::string& path, const Headers& headers,
                      const std::string& body);

 private:
  std::map<std::string, std::unique_ptr<PublicKey>> keys_;
  int64_t window_;
  std::shared_ptr<NonceStore> nonces_;
  std::function<int64_t()> now_;
};

/** Every <key id>.pem file of a directory. */
std::map<std::string, std::string> load_public_keys_dir(const std::string& dir);

// ---- 5.1 md5 and 5.2 MAC: sign calls to the platform ----------------------------------------------------

/** ECMAScript Number#toString of a double: 1.5, 1e+21, 0.000001, 1e-7 (the text of a non-integer number). */
std::string js_number(double x);
/** k1=v1&k2=v2... of 5.1 over a JSON object's members except the top-level "sign": nested objects and arrays
 *  flatten to dot paths, null is left out, keys sort by UTF-8 bytes (docs/signing.md). Throws invalid_argument. */
std::string canonical_params(const json::Value& params);
/** Lowercase hex md5 of canonical_params + secret: the `sign` parameter of 4.1, 4.2 and 4.6. */
std::string md5_sign(const json::Value& params, const std::string& secret);

struct MacInput {
  std::string ts, nonce, method, uri, host, port = "443";
};
std::string mac_sign_base(const MacInput& in);
/** base64(HMAC-SHA1(mac key, sign base)). */
std::string mac_sign(const MacInput& in, const std::string& mac_key);
/** Authorization header value MAC id="..",ts="..",nonce="..",mac="..". Empty ts/nonce: now / 16 random bytes. */
std::string mac_authorization(const std::string& kid, const std::string& mac_key, MacInput in);

// ---- typed bodies (2.4, 2.5, 4.10) and answers (4.7-4.10) -----------------------------------------------

/** A body that is not what the spec describes; field() names the wrong field (dot path). */
class BodyError : public std::runtime_error {
 public:
  BodyError(std::string field, const std::string& problem);
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

/** Section 2.7 trxType. Only payment and refund are notified today; others may come (section 9). */
namespace trx_type {
constexpr int64_t payment = 0, supplement = 1, refund = 2;
}

struct Product {
  std::string product_code;
  int64_t quantity = 0;
  std::string channel_sku_code;
};

struct Attach {
  std::string game_server_id, game_role_id, game_ext;
};

/** A payment (2.4) or refund (2.5) notification. Check trx_type: a refund must never be treated as a payment.
 *  Handle it idempotently by trx_no. Numbers spelled as strings are read; unknown values and fields tolerated. */
struct Notification {
  int64_t notify_id = 0, notify_time = 0, app_id = 0, trx_no = 0, trx_type = 0, platform = 0, channel = 0,
          payment_type = 0, status = 0, success_time = 0;
  std::optional<int64_t> original_trx_no;
  std::string user_id, currency, total_amount;
  std::optional<std::string> out_trx_no, region, client_amount, client_currency, client_region, bank_trx_no;
  std::vector<Product> products;
  std::optional<Attach> attach;
  json::Value raw;

  bool is_payment() const { return trx_type == trx_type::payment; }
  bool is_refund() const { return trx_type == trx_type::refund; }
  /** Parses a body after CallbackVerifier::verify accepted the same raw bytes. Throws BodyError. */
  static Notification parse(const std::string& body);
};

/** The 4.10 pre-order check request; quantity is the number bought in this one order. */
struct PreOrderCheck {
  std::string role_id, server_id, product_sku_code;
  int64_t quantity = 0;
  std::optional<std::string> extras;
  static PreOrderCheck parse(const std::string& body);
};

/** Section 7 pre-order check codes. Custom codes must not reuse these. */
namespace pre_order_code {
constexpr int invalid_role_id = 101, server_error_retry_later = 102, product_not_found = 103, keep_game_online = 104,
              purchase_limit_reached = 105, transaction_in_progress = 106, server_error = 107,
              role_not_eligible = 112, transaction_in_progress_1_min = 113, transaction_in_progress_2_min = 114,
              transaction_in_progress_3_min = 115;
}

struct Answer {
  int status;
  json::Value body;
  std::string json() const { return json::write(body); }
};

struct Role {
  std::string user_id, role_id, name, avatar;
  std::optional<int64_t> role_lv;
  std::optional<std::string> server_id, server_name;
};

/** 4.7: HTTP 200 accepts the notification. */
Answer accept_notification();
/** 4.7: a processing failure, 500 or a 4xx (the platform retries), in the body format the spec lists. */
Answer reject_notification(int status, const std::string& msg);
/** 4.8: HTTP 200 and the role (user_id, the platform user id, is required). */
Answer role_answer(const Role& r);
/** 4.9: HTTP 200 and results; no role gives HTTP 401 with empty results. */
Answer role_list_answer(const std::vector<Role>& roles);
/** 4.10: HTTP 200 allows the order. */
Answer pre_order_allow();
/** 4.10: HTTP 400 blocks it with a section 7 code or the game's own; msg is player-facing (nullopt: null). */
Answer pre_order_reject(int code, const std::string& detail, const std::optional<std::string>& msg = std::nullopt);

}  // namespace gamekit
