// A minimal game server: verifies the platform's payment notification (5.3) on the raw body, parses it (2.4/2.5),
// grants once per trxNo and answers 200 (4.7). A bare POSIX socket loop to stay dependency-free; use your own
// HTTP server in a game: hand the verifier the method, the path, the headers and the raw body bytes.
//
//   PLATFORM_KEYS_DIR=keys/ PORT=8080 ./game_server
//
// PLATFORM_KEYS_DIR holds one <key id>.pem per platform public key (GET /admin/v1/platform-keys).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

#include "gamekit/gamekit.hpp"

static const size_t MAX_BODY = 1 << 20;

static void answer(int fd, const gamekit::Answer& a) {
  std::string body = a.json();
  std::ostringstream out;
  out << "HTTP/1.1 " << a.status << " X\r\nContent-Type: application/json\r\nContent-Length: " << body.size()
      << "\r\nConnection: close\r\n\r\n"
      << body;
  std::string s = out.str();
  for (size_t sent = 0; sent < s.size();) {
    ssize_t n = write(fd, s.data() + sent, s.size() - sent);
    if (n <= 0) break;
    sent += size_t(n);
  }
}

int main() {
  gamekit::CallbackVerifier verifier(gamekit::load_public_keys_dir(std::getenv("PLATFORM_KEYS_DIR")));
  std::set<int64_t> granted;  // a real game keeps this in its database
  int srv = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(srv, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const char* port = std::getenv("PORT");
  addr.sin_port = htons(static_cast<uint16_t>(std::atoi(port ? port : "8080")));
  if (bind(srv, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(srv, 16) != 0) {
    perror("listen");
    return 1;
  }
  socklen_t len = sizeof addr;
  getsockname(srv, reinterpret_cast<sockaddr*>(&addr), &len);
  std::cout << "listening on http://127.0.0.1:" << ntohs(addr.sin_port) << std::endl;

  for (;;) {
    int fd = accept(srv, nullptr, nullptr);
    if (fd < 0) continue;
    std::string req;
    char buf[8192];
    size_t head_end = std::string::npos, content_length = 0;
    gamekit::Headers headers;
    std::string method, target;
    bool bad = false;
    while (head_end == std::string::npos || req.size() < head_end + 4 + content_length) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n <= 0) break;
      req.append(buf, size_t(n));
      if (head_end == std::string::npos && (head_end = req.find("\r\n\r\n")) != std::string::npos) {
        std::istringstream lines(req.substr(0, head_end));
        std::string line;
        std::getline(lines, line);
        std::istringstream first(line);
        first >> method >> target;
        while (std::getline(lines, line)) {
          if (!line.empty() && line.back() == '\r') line.pop_back();
          size_t colon = line.find(':');
          if (colon == std::string::npos) continue;
          std::string name = line.substr(0, colon), value = line.substr(colon + 1);
          value.erase(0, value.find_first_not_of(" \t"));
          value.erase(value.find_last_not_of(" \t") + 1);
          headers.emplace_back(name, value);
          std::string lower = name;
          for (auto& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
          if (lower == "content-length") content_length = std::strtoul(value.c_str(), nullptr, 10);
        }
        if (content_length > MAX_BODY) {
          bad = true;
          break;
        }
      }
    }
    if (bad || head_end == std::string::npos || req.size() < head_end + 4 + content_length) {
      answer(fd, gamekit::reject_notification(400, "bad request"));
      close(fd);
      continue;
    }
    std::string body = req.substr(head_end + 4, content_length);  // the raw bytes: verify these
    try {
      verifier.verify(method, target, headers, body);
      auto n = gamekit::Notification::parse(body);
      if (granted.insert(n.trx_no).second) {
        if (n.is_payment()) std::cout << "grant " << n.products.size() << " product(s) to " << n.user_id << std::endl;
        else if (n.is_refund()) std::cout << "refund: take back the goods of " << n.user_id << std::endl;
      }
      answer(fd, gamekit::accept_notification());
    } catch (const gamekit::VerificationError& e) {
      answer(fd, gamekit::reject_notification(401, std::string("signature check failed: ") + gamekit::reason_code(e.reason())));
    } catch (const gamekit::BodyError& e) {
      answer(fd, gamekit::reject_notification(400, std::string("bad body: ") + e.what()));
    }
    close(fd);
  }
}
