// Spec 5.3: verify the platform's signed calls with OpenSSL 3 (EVP APIs).
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <chrono>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>

#include "gamekit/gamekit.hpp"

namespace gamekit {

struct PublicKey {
  EVP_PKEY* pkey = nullptr;
  ~PublicKey() { EVP_PKEY_free(pkey); }
};

const char* reason_code(Reason r) {
  switch (r) {
    case Reason::MissingHeader: return "missing_header";
    case Reason::MalformedHeader: return "malformed_header";
    case Reason::StaleTimestamp: return "stale_timestamp";
    case Reason::UnknownKey: return "unknown_key";
    case Reason::BadSignature: return "bad_signature";
    case Reason::ReplayedNonce: return "replayed_nonce";
  }
  return "unknown";
}

VerificationError::VerificationError(Reason r, const std::string& detail)
    : std::runtime_error(std::string("callback signature: ") + reason_code(r) + ": " + detail), reason_(r) {}

static int64_t system_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

MemoryNonceStore::MemoryNonceStore(std::function<int64_t()> now_seconds, size_t max_entries)
    : now_(now_seconds ? std::move(now_seconds) : system_now), max_(max_entries) {}

bool MemoryNonceStore::remember(const std::string& nonce, int64_t expires_at) {
  std::lock_guard<std::mutex> lock(mu_);
  int64_t now = now_();
  auto it = seen_.find(nonce);
  if (it != seen_.end() && it->second > now) return false;
  if (seen_.size() >= max_) {
    for (auto e = seen_.begin(); e != seen_.end();)
      e = (e->second <= now || seen_.size() >= max_) ? seen_.erase(e) : std::next(e);
  }
  seen_[nonce] = expires_at;
  return true;
}

std::string sign_base(const std::string& method, const std::string& path, const std::string& timestamp,
                      const std::string& nonce, const std::string& body) {
  std::string m = method;
  for (auto& c : m) c = (c >= 'a' && c <= 'z') ? char(c - 32) : c;
  std::string p = path.substr(0, path.find('?'));
  return m + "\n" + p + "\n" + timestamp + "\n" + nonce + "\n" + body + "\n";
}

static bool iequals(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

static std::optional<std::string> header(const Headers& h, const std::string& name) {
  std::optional<std::string> found;
  for (const auto& [k, v] : h) {
    if (!iequals(k, name)) continue;
    if (found) throw VerificationError(Reason::MalformedHeader, name + " given twice");
    found = v;
  }
  if (found && found->empty()) return std::nullopt;
  return found;
}

static int b64(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/** Strict standard base64 with padding; nullopt when it is not. */
static std::optional<std::string> base64_decode(const std::string& s) {
  if (s.size() % 4 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < s.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; k++) {
      char c = s[i + k];
      if (c == '=' && i + 4 == s.size() && k >= 2) {
        pad++;
        v[k] = 0;
        continue;
      }
      if (pad) return std::nullopt;
      v[k] = b64(c);
      if (v[k] < 0) return std::nullopt;
    }
    unsigned n = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
    out += char(n >> 16);
    if (pad < 2) out += char((n >> 8) & 0xFF);
    if (pad < 1) out += char(n & 0xFF);
  }
  return out;
}

CallbackVerifier::CallbackVerifier(const std::map<std::string, std::string>& pems, int64_t window_seconds,
                                   std::shared_ptr<NonceStore> nonces, std::function<int64_t()> now_seconds)
    : window_(window_seconds),
      nonces_(nonces ? std::move(nonces) : std::make_shared<MemoryNonceStore>(now_seconds)),
      now_(now_seconds ? std::move(now_seconds) : system_now) {
  for (const auto& [kid, pem] : pems) {
    BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    auto key = std::make_unique<PublicKey>();
    key->pkey = PEM_read_bio_PUBKEY(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!key->pkey || EVP_PKEY_get_base_id(key->pkey) != EVP_PKEY_RSA)
      throw std::invalid_argument("key " + kid + " is not an RSA public key in PEM");
    keys_[kid] = std::move(key);
  }
}

CallbackVerifier::~CallbackVerifier() = default;

static bool rsa_sha256_verify(EVP_PKEY* pkey, const std::string& data, const std::string& sig) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = ctx && EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, pkey) == 1 &&
            EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(sig.data()), sig.size(),
                             reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
  EVP_MD_CTX_free(ctx);
  return ok;
}

VerifiedCall CallbackVerifier::verify(const std::string& method, const std::string& path, const Headers& h,
                                      const std::string& body) {
  auto timestamp = header(h, "Timestamp");
  auto nonce = header(h, "Nonce");
  auto signature = header(h, "Signature");
  auto key_id = header(h, "Key-Id");
  if (!timestamp) throw VerificationError(Reason::MissingHeader, "Timestamp is missing");
  if (!nonce) throw VerificationError(Reason::MissingHeader, "Nonce is missing");
  if (!signature) throw VerificationError(Reason::MissingHeader, "Signature is missing");
  bool digits = timestamp->size() <= 15;
  for (char c : *timestamp) digits = digits && c >= '0' && c <= '9';
  if (!digits) throw VerificationError(Reason::MalformedHeader, "Timestamp is not 1-15 decimal digits");
  // The limit counts characters as the SDK (JavaScript), Java and C# do: UTF-16 code units. In UTF-8 every
  // byte but a continuation byte starts a character; a 4-byte one (0xF0..) is two units.
  size_t units = 0;
  for (unsigned char c : *nonce) units += (c & 0xC0) == 0x80 ? 0 : (c >= 0xF0 ? 2 : 1);
  bool clean = units <= 256;
  for (unsigned char c : *nonce) clean = clean && c >= 0x20 && c != 0x7F;
  if (!clean) throw VerificationError(Reason::MalformedHeader, "Nonce is too long or has control characters");
  auto sig = signature->size() <= 2048 ? base64_decode(*signature) : std::nullopt;
  if (!sig) throw VerificationError(Reason::MalformedHeader, "Signature is not standard base64");
  int64_t ts = std::strtoll(timestamp->c_str(), nullptr, 10);
  if (std::llabs(now_() - ts) > window_)
    throw VerificationError(Reason::StaleTimestamp, "Timestamp " + *timestamp + " is outside the window");
  std::vector<std::string> candidates;
  if (key_id) {
    if (!keys_.count(*key_id)) throw VerificationError(Reason::UnknownKey, "no public key with id " + *key_id);
    candidates.push_back(*key_id);
  } else {
    if (keys_.empty()) throw VerificationError(Reason::UnknownKey, "no public key configured");
    for (const auto& k : keys_) candidates.push_back(k.first);
  }
  std::string base = sign_base(method, path, *timestamp, *nonce, body);
  std::string matched;
  for (const auto& kid : candidates)
    if (rsa_sha256_verify(keys_[kid]->pkey, base, *sig)) {
      matched = kid;
      break;
    }
  if (matched.empty()) throw VerificationError(Reason::BadSignature, "the signature does not verify (was the body changed?)");
  if (!nonces_->remember(*nonce, ts + window_ + 1))
    throw VerificationError(Reason::ReplayedNonce, "nonce " + *nonce + " was already used");
  return VerifiedCall{matched, ts, *nonce};
}

std::map<std::string, std::string> load_public_keys_dir(const std::string& dir) {
  std::map<std::string, std::string> out;
  DIR* d = opendir(dir.c_str());
  if (!d) throw std::runtime_error("cannot open " + dir);
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name.size() <= 4 || name.compare(name.size() - 4, 4, ".pem") != 0) continue;
    std::ifstream f(dir + "/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    out[name.substr(0, name.size() - 4)] = ss.str();
  }
  closedir(d);
  return out;
}

}  // namespace gamekit
