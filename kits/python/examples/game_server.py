"""Minimal game server: verifies the platform's payment notification (5.3) on the raw body, parses it (2.4/2.5),
grants once per trxNo and answers 200 (4.7).

    PLATFORM_KEYS_DIR=keys/ PORT=8080 python3 examples/game_server.py

PLATFORM_KEYS_DIR holds one `<key id>.pem` per platform public key (GET /admin/v1/platform-keys)."""
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from game_platform_kit import (  # noqa: E402
    BodyError,
    CallbackVerificationError,
    CallbackVerifier,
    Notification,
    accept_notification,
    load_public_keys_dir,
    reject_notification,
)

verifier = CallbackVerifier(load_public_keys_dir(os.environ["PLATFORM_KEYS_DIR"]))
granted = set()  # trxNo already handled; a real game keeps this in its database
lock = threading.Lock()
MAX_BODY = 1 << 20


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self.answer(*reject_notification("body too large", 413))
        body = self.rfile.read(length)  # the raw bytes: verify these, never a re-serialised body
        try:
            verifier.verify(self.command, self.path, self.headers.items(), body)
            n = Notification.parse(body)
        except CallbackVerificationError as e:
            return self.answer(*reject_notification(f"signature check failed: {e.reason}", 401))
        except BodyError as e:
            return self.answer(*reject_notification(f"bad body: {e}", 400))
        with lock:
            if n.trx_no not in granted:
                granted.add(n.trx_no)
                if n.is_payment:
                    print(f"grant {[(p.product_code, p.quantity) for p in n.products]} to {n.user_id}", flush=True)
                elif n.is_refund:
                    print(f"refund of {n.original_trx_no}: take back the goods of {n.user_id}", flush=True)
        self.answer(*accept_notification())

    def answer(self, status, body):
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8080"))), Handler)
print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
