"""Runs every case of kits/vectors.json (generated from the service's own signing code)."""
import json
from decimal import Decimal
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from game_platform_kit import (  # noqa: E402
    BodyError,
    CallbackVerificationError,
    CallbackVerifier,
    MemoryNonceStore,
    Notification,
    PreOrderCheck,
    PreOrderCode,
    callback_sign_base,
    canonical_params,
    mac_authorization,
    mac_sign,
    mac_sign_base,
    md5_sign,
    accept_notification,
    pre_order_allow,
    pre_order_reject,
    reject_notification,
    role_answer,
    role_list_answer,
)
from game_platform_kit.md5 import js_number  # noqa: E402

VECTORS_FILE = os.environ.get("KIT_VECTORS", os.path.join(os.path.dirname(__file__), "..", "..", "vectors.json"))
with open(VECTORS_FILE, encoding="utf-8") as fh:
    V = json.load(fh)


def notification_fields(n: Notification) -> dict:
    s = lambda v: None if v is None else str(v)  # noqa: E731
    kind = "payment" if n.is_payment else "refund" if n.is_refund else "unknown"
    p0 = n.products[0] if n.products else None
    return {
        "notifyId": s(n.notify_id), "appId": s(n.app_id), "userId": n.user_id, "trxNo": s(n.trx_no),
        "originalTrxNo": s(n.original_trx_no), "trxType": s(n.trx_type), "kind": kind, "outTrxNo": n.out_trx_no,
        "channel": s(n.channel), "currency": n.currency, "totalAmount": n.total_amount,
        "clientAmount": n.client_amount, "productCount": s(len(n.products)),
        "products.0.productCode": p0.product_code if p0 else None, "products.0.quantity": s(p0.quantity) if p0 else None,
        "attach.gameRoleId": n.attach.game_role_id if n.attach else None,
    }


class CallbackVectors(unittest.TestCase):
    def test_every_callback_vector(self):
        for c in V["callback"]:
            with self.subTest(c["description"]):
                keys = {kid: V["keys"][kid]["publicKeyPem"] for kid in c["publicKeys"]}
                now = lambda: c["now"]  # noqa: E731
                store = MemoryNonceStore(now=now)
                for n in c["seenNonces"]:
                    store.remember(n, c["now"] + 600)
                verifier = CallbackVerifier(keys, window_seconds=c["windowSeconds"], nonce_store=store, now=now)
                body = c["body"].encode("utf-8")
                if c["expect"] == "ok":
                    call = verifier.verify(c["method"], c["path"], c["headers"], body)
                    self.assertEqual(call.key_id, c["expectKeyId"])
                    self.assertEqual(call.nonce, {k.lower(): v for k, v in c["headers"]}["nonce"])
                    with self.assertRaises(CallbackVerificationError) as again:
                        verifier.verify(c["method"], c["path"], c["headers"], body)
                    self.assertEqual(again.exception.reason, "replayed_nonce")
                else:
                    with self.assertRaises(CallbackVerificationError) as err:
                        verifier.verify(c["method"], c["path"], c["headers"], body)
                    self.assertEqual(err.exception.reason, c["expect"])

    def test_sign_base_of_positive_vectors(self):
        for c in V["callback"]:
            if c["expect"] != "ok":
                continue
            h = {k.lower(): v for k, v in c["headers"]}
            base = callback_sign_base(c["method"], c["path"], h["timestamp"], h["nonce"], c["body"].encode("utf-8"))
            self.assertEqual(base, c["signBase"].encode("utf-8"), c["description"])


class Md5Vectors(unittest.TestCase):
    def test_every_md5_vector(self):
        for c in V["md5"]:
            with self.subTest(c["description"]):
                self.assertEqual(canonical_params(c["params"]), c["canonical"])
                self.assertEqual(md5_sign(c["params"], c["secret"]), c["sign"])

    def test_every_md5_body_vector(self):
        for c in V["md5Bodies"]:
            with self.subTest(c["description"]):
                params = json.loads(c["body"])
                for k in c["decimals"]:
                    params[k] = Decimal(params[k])
                self.assertEqual(canonical_params(params), c["canonical"])
                self.assertEqual(md5_sign(params, c["secret"]), c["sign"])

    def test_js_number_forms(self):
        for x, text in [(1.5, "1.5"), (1e21, "1e+21"), (1e20, "100000000000000000000"), (1e-7, "1e-7"),
                        (0.000001, "0.000001"), (-273.15, "-273.15"), (123.456e10, "1234560000000"), (5e-324, "5e-324"),
                        (1.7976931348623157e308, "1.7976931348623157e+308"), (0.1 + 0.2, "0.30000000000000004")]:
            self.assertEqual(js_number(x), text)

    def test_duplicate_flattened_key_is_refused(self):
        with self.assertRaises(TypeError):
            canonical_params({"a.b": "1", "a": {"b": "2"}})


class MacVectors(unittest.TestCase):
    def test_every_mac_vector(self):
        for c in V["mac"]:
            with self.subTest(c["description"]):
                args = (c["ts"], c["nonce"], c["method"], c["uri"], c["host"], c["port"])
                self.assertEqual(mac_sign_base(*args), c["signBase"])
                self.assertEqual(mac_sign(c["macKey"], *args), c["mac"])
                header = mac_authorization(c["kid"], c["macKey"], c["method"], c["uri"], c["host"], c["port"],
                                           ts=c["ts"], nonce=c["nonce"])
                self.assertEqual(header, c["header"])


class BodyVectors(unittest.TestCase):
    def test_every_notification_vector(self):
        for c in V["notifications"]:
            with self.subTest(c["description"]):
                self.assertEqual(notification_fields(Notification.parse(c["body"].encode("utf-8"))), c["expect"])

    def test_every_pre_order_vector(self):
        for c in V["preOrderChecks"]:
            with self.subTest(c["description"]):
                p = PreOrderCheck.parse(c["body"])
                got = {"roleId": p.role_id, "serverId": p.server_id, "productSkuCode": p.product_sku_code,
                       "quantity": str(p.quantity), "extras": p.extras}
                self.assertEqual(got, c["expect"])

    def test_every_answer_vector(self):
        for c in V["answers"]:
            with self.subTest(c["description"]):
                a, kind = c["args"], c["kind"]
                if kind == "acceptNotification":
                    got = accept_notification()
                elif kind == "rejectNotification":
                    got = reject_notification(a["msg"], a["status"])
                elif kind == "role":
                    got = role_answer(a["userId"], a["roleId"], a["name"], a["avatar"], a.get("roleLv"),
                                      a.get("serverId"), a.get("serverName"))
                elif kind == "roleList":
                    got = role_list_answer(a["roles"])
                elif kind == "preOrderAllow":
                    got = pre_order_allow()
                else:
                    got = pre_order_reject(a["code"], a["detail"], a.get("msg"))
                status, body = got
                self.assertEqual({"status": status, "body": json.loads(json.dumps(body))}, c["expect"])

    def test_bad_bodies_name_the_field(self):
        with self.assertRaises(BodyError) as err:
            Notification.parse(b'{"products":[],"notifyId":"x"}')
        self.assertEqual(err.exception.field, "notifyId")
        with self.assertRaises(BodyError):
            Notification.parse(b"not json")

    def test_answers(self):
        self.assertEqual(pre_order_reject(PreOrderCode.PURCHASE_LIMIT_REACHED, "limit 5/day"),
                         (400, {"code": 105, "msg": None, "detail": "limit 5/day"}))
        self.assertEqual(role_list_answer([])[0], 401)
        status, body = role_list_answer([{"roleId": "r1", "name": "n", "avatar": "", "serverId": "s1"}])
        self.assertEqual((status, body["results"][0]["roleLv"]), (200, None))


if __name__ == "__main__":
    unittest.main()
