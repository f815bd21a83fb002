"""The same game server as a WSGI app (what Flask, Django or Bottle are), served by the standard library's wsgiref:
VerifyingWSGIMiddleware verifies every call before the app, which parses the verified body and grants.
With Flask: `app.wsgi_app = VerifyingWSGIMiddleware(app.wsgi_app, verifier, paths=["/pay/"])`.

    PLATFORM_KEYS_DIR=keys/ PORT=8080 python3 examples/wsgi_app.py"""
import json
import os
import sys
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from game_platform_kit import (  # noqa: E402
    BodyError,
    CallbackVerifier,
    Notification,
    VerifyingWSGIMiddleware,
    accept_notification,
    load_public_keys_dir,
    reject_notification,
    verified_call,
)

granted = set()  # trxNo already handled; a real game keeps this in its database
lock = threading.Lock()


def app(environ, start_response):
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))  # the verified bytes
    try:
        n = Notification.parse(body)
        status, answer = accept_notification()
        with lock:
            if n.trx_no not in granted and n.is_payment:
                granted.add(n.trx_no)
                print(f"grant {n.user_id} (key {verified_call(environ).key_id})", flush=True)
    except BodyError as e:
        status, answer = reject_notification(f"bad body: {e}", 400)
    data = json.dumps(answer).encode("utf-8")
    start_response(f"{status} {'OK' if status == 200 else 'Refused'}", [("Content-Type", "application/json")])
    return [data]


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


verifier = CallbackVerifier(load_public_keys_dir(os.environ["PLATFORM_KEYS_DIR"]))
server = make_server("127.0.0.1", int(os.environ.get("PORT", "8080")),
                     VerifyingWSGIMiddleware(app, verifier, paths=["/pay/"]), server_class=Server, handler_class=QuietHandler)
print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
