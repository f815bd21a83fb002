"""Typed bodies of 2.4/2.5 (payment and refund notifications), the 4.10 pre-order check request, and the
game's answers of 4.7-4.10. Parsing is tolerant as section 9 asks: unknown enum values are kept as their
numbers, unknown fields are ignored, and numbers spelled as strings (or strings spelled as numbers) are read."""
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Dict, List, Optional, Tuple, Union

Answer = Tuple[int, Dict[str, Any]]


class BodyError(ValueError):
    """The body is not what the spec describes; `field` names the wrong field (dot path)."""

    def __init__(self, field_name: str, problem: str):
        super().__init__(f"{field_name}: {problem}")
        self.field = field_name
        self.problem = problem


class TrxType:
    """2.7 trxType. Only PAYMENT and REFUND are notified today; other values may come (section 9)."""

    PAYMENT = 0
    SUPPLEMENT = 1
    REFUND = 2


class PreOrderCode:
    """Section 7 pre-order check codes. Custom codes must not reuse these."""

    INVALID_ROLE_ID = 101
    SERVER_ERROR_RETRY_LATER = 102
    PRODUCT_NOT_FOUND = 103
    KEEP_GAME_ONLINE = 104
    PURCHASE_LIMIT_REACHED = 105
    TRANSACTION_IN_PROGRESS = 106
    SERVER_ERROR = 107
    ROLE_NOT_ELIGIBLE = 112
    TRANSACTION_IN_PROGRESS_1_MIN = 113
    TRANSACTION_IN_PROGRESS_2_MIN = 114
    TRANSACTION_IN_PROGRESS_3_MIN = 115


_INT = re.compile(r"^-?[0-9]{1,19}$")
_DECIMAL = re.compile(r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$")


class _Fields:
    def __init__(self, o: Any, prefix: str = ""):
        if not isinstance(o, dict):
            raise BodyError(prefix or "body", "must be a JSON object")
        self.o, self.prefix = o, prefix

    def path(self, k: str) -> str:
        return f"{self.prefix}.{k}" if self.prefix else k

    def present(self, k: str) -> bool:
        return self.o.get(k) is not None

    def integer(self, k: str, required: bool = True) -> Optional[int]:
        v = self.o.get(k)
        if v is None:
            if required:
                raise BodyError(self.path(k), "is required")
            return None
        if isinstance(v, bool) or not isinstance(v, (int, str, Decimal)):
            raise BodyError(self.path(k), "must be an integer")
        text = str(v)
        if not _INT.match(text):
            raise BodyError(self.path(k), "must be an integer")
        return int(text)

    def string(self, k: str, required: bool = True) -> Optional[str]:
        v = self.o.get(k)
        if v is None:
            if required:
                raise BodyError(self.path(k), "is required")
            return None
        if isinstance(v, bool) or not isinstance(v, (str, int, Decimal)):
            raise BodyError(self.path(k), "must be a string")
        return str(v)

    def decimal(self, k: str, required: bool = True) -> Optional[str]:
        """A decimal as its exact text: `0.99` and `"0.99"` both give "0.99" (never a binary float)."""
        v = self.o.get(k)
        if v is None:
            if required:
                raise BodyError(self.path(k), "is required")
            return None
        text = str(v) if isinstance(v, (int, Decimal, str)) and not isinstance(v, bool) else ""
        if not _DECIMAL.match(text):
            raise BodyError(self.path(k), "must be a decimal number")
        return text


def _json(body: Union[bytes, str, Dict[str, Any]]) -> Any:
    if isinstance(body, dict):
        return body
    try:
        return json.loads(body, parse_float=Decimal, parse_int=int)
    except ValueError:
        raise BodyError("body", "is not valid JSON")


@dataclass
class Product:
    product_code: str
    quantity: int
    channel_sku_code: str


@dataclass
class Attach:
    game_server_id: str
    game_role_id: str
    game_ext: str


@dataclass
class Notification:
    """A payment (2.4) or refund (2.5) notification. Check `trx_type` (`is_payment`/`is_refund`):
    a refund must never be treated as a payment. Keep it idempotent by `trx_no`."""

    notify_id: int
    notify_time: int
    app_id: int
    user_id: str
    trx_no: int
    trx_type: int
    platform: int
    channel: int
    payment_type: int
    products: List[Product]
    currency: str
    total_amount: str
    status: int
    success_time: int
    attach: Optional[Attach] = None
    out_trx_no: Optional[str] = None
    original_trx_no: Optional[int] = None
    region: Optional[str] = None
    client_amount: Optional[str] = None
    client_currency: Optional[str] = None
    client_region: Optional[str] = None
    bank_trx_no: Optional[str] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def is_payment(self) -> bool:
        return self.trx_type == TrxType.PAYMENT

    @property
    def is_refund(self) -> bool:
        return self.trx_type == TrxType.REFUND

    @classmethod
    def parse(cls, body: Union[bytes, str, Dict[str, Any]]) -> "Notification":
        """Parse a body after it was verified (CallbackVerifier.verify on the same raw bytes)."""
        f = _Fields(_json(body))
        products = f.o.get("products")
        if not isinstance(products, list):
            raise BodyError("products", "must be an array")
        items = []
        for i, p in enumerate(products):
            pf = _Fields(p, f"products.{i}")
            items.append(Product(pf.string("productCode"), pf.integer("quantity"), pf.string("channelSkuCode", False) or ""))
        attach = f.o.get("attach")
        if isinstance(attach, str):  # tolerated: attach sent as JSON text
            try:
                attach = json.loads(attach)
            except ValueError:
                attach = None
        a = None
        if isinstance(attach, dict):
            af = _Fields(attach, "attach")
            a = Attach(af.string("gameServerId", False) or "", af.string("gameRoleId", False) or "", af.string("gameExt", False) or "")
        return cls(
            notify_id=f.integer("notifyId"),
            notify_time=f.integer("notifyTime"),
            app_id=f.integer("appId"),
            user_id=f.string("userId"),
            trx_no=f.integer("trxNo"),
            trx_type=f.integer("trxType"),
            platform=f.integer("platform"),
            channel=f.integer("channel"),
            payment_type=f.integer("paymentType"),
            products=items,
            currency=f.string("currency"),
            total_amount=f.decimal("totalAmount"),
            status=f.integer("status"),
            success_time=f.integer("successTime"),
            attach=a,
            out_trx_no=f.string("outTrxNo", False),
            original_trx_no=f.integer("originalTrxNo", False),
            region=f.string("region", False),
            client_amount=f.decimal("clientAmount", False),
            client_currency=f.string("clientCurrency", False),
            client_region=f.string("clientRegion", False),
            bank_trx_no=f.string("bankTrxNo", False),
            raw=f.o,
        )


@dataclass
class PreOrderCheck:
    """The 4.10 request body. `quantity` is the number bought in this one order."""

    role_id: str
    server_id: str
    product_sku_code: str
    quantity: int
    extras: Optional[str] = None

    @classmethod
    def parse(cls, body: Union[bytes, str, Dict[str, Any]]) -> "PreOrderCheck":
        f = _Fields(_json(body))
        quantity = f.integer("quantity")
        if quantity < 1:
            raise BodyError("quantity", "must be at least 1")
        return cls(f.string("roleId"), f.string("serverId"), f.string("productSkuCode"), quantity, f.string("extras", False))


def accept_notification(msg: str = "ok") -> Answer:
    """4.7: HTTP 200 accepts the notification."""
    return 200, {"code": "SUCCESS", "msg": msg}


def reject_notification(msg: str, status: int = 500) -> Answer:
    """4.7: a processing failure, 500 or 4xx (the platform retries); the body format the spec lists."""
    if status != 500 and not 400 <= status <= 499:
        raise ValueError("a rejection is 500 or a 4xx")
    return status, {"code": "SUCCESS", "msg": msg}


def role_answer(user_id: str, role_id: str, name: str, avatar: str, role_lv: Optional[int] = None,
                server_id: Optional[str] = None, server_name: Optional[str] = None) -> Answer:
    """4.8: HTTP 200 with the role (2.6). `user_id` is the platform user id: without it the payment is blocked."""
    if not user_id or not role_id:
        raise ValueError("user_id and role_id are required")
    return 200, {"userId": user_id, "roleId": role_id, "name": name, "avatar": avatar,
                 "roleLv": role_lv, "serverId": server_id, "serverName": server_name}


def role_list_answer(roles: List[Dict[str, Any]], msg: Optional[str] = None, detail: Optional[str] = None) -> Answer:
    """4.9: HTTP 200 with `results`; no role gives HTTP 401 with empty results. Each role is a dict with
    roleId, name, avatar, serverId and optionally roleLv and serverName."""
    if not roles:
        return 401, {"code": 401, "msg": msg or "No role found.", "detail": detail or "the user has no role", "results": []}
    results = [{"roleId": r["roleId"], "name": r["name"], "avatar": r["avatar"], "roleLv": r.get("roleLv"),
                "serverId": r["serverId"], "serverName": r.get("serverName")} for r in roles]
    return 200, {"code": 200, "msg": msg or "success", "detail": detail or "", "results": results}


def pre_order_allow() -> Answer:
    """4.10: HTTP 200 lets the order through."""
    return 200, {"code": 200, "msg": "success", "detail": ""}


def pre_order_reject(code: int, detail: str, msg: Optional[str] = None, status: int = 400) -> Answer:
    """4.10: block with a section 7 code (PreOrderCode) or one of the game's own; `msg` is player-facing
    (None lets the front end show its translation of a built-in code), `detail` is for developers."""
    if status == 200 or not 300 <= status <= 599:
        raise ValueError("a blocking answer has a non-200 status")
    return status, {"code": int(code), "msg": msg, "detail": detail}
