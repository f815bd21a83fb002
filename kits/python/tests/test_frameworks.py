"""The ASGI middleware driven through the ASGI 3 protocol itself (no ASGI server is installable here; the WSGI
middleware runs end to end in wsgiref in kits/kits.test.mjs): a signed vector call reaches the app with the same
body and the verified call; a replay, a tampered body and a forged signature are refused with 401 before it."""
import asyncio
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from game_platform_kit import CallbackVerifier, VerifyingASGIMiddleware, verified_call  # noqa: E402

V = json.load(open(os.environ.get("KIT_VECTORS") or os.path.join(os.path.dirname(__file__), "..", "..", "vectors.json"), encoding="utf-8"))


class AsgiMiddlewareTest(unittest.TestCase):
    def test_verifies_before_the_app(self):
        c = V["callback"][0]
        verifier = CallbackVerifier({k: V["keys"][k]["publicKeyPem"] for k in c["publicKeys"]}, now=lambda: c["now"])
        seen = []

        async def app(scope, receive, send):
            message = await receive()
            seen.append((message["body"], verified_call(scope).key_id, scope["state"]["verified_call"].nonce))
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})

        middleware = VerifyingASGIMiddleware(app, verifier, paths=["/pay/"])

        def call(body: bytes, headers):
            chunks = [body[:10], body[10:]]  # the body in two messages, as servers send it
            sent = []

            async def receive():
                chunk = chunks.pop(0)
                return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

            async def send(message):
                sent.append(message)

            scope = {"type": "http", "method": c["method"], "path": c["path"], "raw_path": c["path"].encode(),
                     "headers": [(k.lower().encode("latin-1"), v.encode("utf-8")) for k, v in headers]}
            asyncio.run(middleware(scope, receive, send))
            return sent[0]["status"]

        body = c["body"].encode("utf-8")
        forged = [(k, "AAAA" if k.lower() == "signature" else v) for k, v in c["headers"]]
        self.assertEqual(call(body + b" ", c["headers"]), 401)
        self.assertEqual(call(body, forged), 401)
        self.assertEqual(call(body, c["headers"]), 200)
        self.assertEqual(call(body, c["headers"]), 401)  # replayed
        self.assertEqual(seen, [(body, c["expectKeyId"], c["headers"][1][1])])


if __name__ == "__main__":
    unittest.main()
