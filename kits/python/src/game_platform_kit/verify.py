"""Spec 5.3: verify the platform's signed calls (payment/refund callbacks, role query, role list,
pre-order check, account cancellation) from the raw request, never a re-serialised body."""
import base64
import binascii
import os
import re
import threading
import time
from typing import Callable, Dict, Iterable, Mapping, Optional, Tuple, Union

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

REASONS = (
    "missing_header",
    "malformed_header",
    "stale_timestamp",
    "unknown_key",
    "bad_signature",
    "replayed_nonce",
)

# fullmatch, not `$` (which also matches before a final line feed): issue 32.
_TIMESTAMP = re.compile(r"[0-9]{1,15}")
_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def _utf16_len(s: str) -> int:
    """The Nonce limit counts characters as the SDK (JavaScript), Java and C# do: UTF-16 code units."""
    return sum(2 if ord(c) > 0xFFFF else 1 for c in s)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
MAX_SIGNATURE_CHARS = 2048
MAX_NONCE_CHARS = 256


class CallbackVerificationError(Exception):
    """The call is refused. `reason` names the failed check (one of REASONS)."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"callback signature: {reason}: {detail}")
        self.reason = reason
        self.detail = detail


class VerifiedCall:
    def __init__(self, key_id: Optional[str], timestamp: int, nonce: str):
        self.key_id = key_id
        self.timestamp = timestamp
        self.nonce = nonce


class NonceStore:
    """Where seen nonces are kept. `remember` records the nonce until `expires_at` (Unix seconds) and
    answers False when it is already recorded and not expired (a replay). Must be atomic when shared
    by several game server instances (e.g. Redis SET key 1 NX EX ttl)."""

    def remember(self, nonce: str, expires_at: float) -> bool:  # pragma: no cover - interface
        raise NotImplementedError


class MemoryNonceStore(NonceStore):
    """Nonces in this process's memory: enough for one game server instance."""

    def __init__(self, max_entries: int = 100_000, now: Callable[[], float] = time.time):
        self._seen: Dict[str, float] = {}
        self._max = max_entries
        self._now = now
        self._lock = threading.Lock()

    def remember(self, nonce: str, expires_at: float) -> bool:
        with self._lock:
            now = self._now()
            until = self._seen.get(nonce)
            if until is not None and until > now:
                return False
            if len(self._seen) >= self._max:
                for k in [k for k, u in self._seen.items() if u <= now]:
                    del self._seen[k]
                while len(self._seen) >= self._max:
                    del self._seen[min(self._seen, key=self._seen.__getitem__)]
            self._seen[nonce] = expires_at
            return True


def callback_sign_base(method: str, path: str, timestamp: str, nonce: str, body: bytes) -> bytes:
    """METHOD LF path LF Timestamp LF Nonce LF body LF, the path without its query string."""
    q = path.find("?")
    if q >= 0:
        path = path[:q]
    head = "".join(p + "\n" for p in (method.upper(), path, timestamp, nonce))
    return head.encode("utf-8") + body + b"\n"


HeaderSource = Union[Mapping[str, str], Iterable[Tuple[str, str]]]


def _header(headers: HeaderSource, name: str) -> Optional[str]:
    items = headers.items() if hasattr(headers, "items") else headers
    found = None
    for k, v in items:
        if k.lower() != name.lower() or v is None:
            continue
        if found is not None:
            raise CallbackVerificationError("malformed_header", f"{name} given twice")
        found = v
    return found or None


def _load_key(pem: Union[str, bytes]) -> rsa.RSAPublicKey:
    key = serialization.load_pem_public_key(pem.encode() if isinstance(pem, str) else pem)
    if not isinstance(key, rsa.RSAPublicKey):
        raise ValueError("platform public keys are RSA keys")
    return key


def load_public_keys_dir(directory: str) -> Dict[str, str]:
    """Every `<key id>.pem` file of a directory, by key id."""
    keys = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".pem"):
            with open(os.path.join(directory, name), encoding="ascii") as f:
                keys[name[:-4]] = f.read()
    return keys


class CallbackVerifier:
    """Checks, in order: headers present, well formed, timestamp in the window, key known,
    RSA-SHA256 signature over the raw request, nonce not seen (recorded only once the signature holds)."""

    def __init__(
        self,
        public_keys: Mapping[str, Union[str, bytes]],
        window_seconds: int = 300,
        nonce_store: Optional[NonceStore] = None,
        now: Callable[[], float] = time.time,
    ):
        self._keys = {kid: _load_key(pem) for kid, pem in public_keys.items()}
        self._window = window_seconds
        self._nonces = nonce_store if nonce_store is not None else MemoryNonceStore(now=now)
        self._now = now

    def verify(self, method: str, path: str, headers: HeaderSource, body: bytes) -> VerifiedCall:
        """`body` is the raw request body (bytes, b"" for GET), exactly as received."""
        timestamp = _header(headers, "Timestamp")
        nonce = _header(headers, "Nonce")
        signature = _header(headers, "Signature")
        key_id = _header(headers, "Key-Id")
        for name, value in (("Timestamp", timestamp), ("Nonce", nonce), ("Signature", signature)):
            if value is None:
                raise CallbackVerificationError("missing_header", f"{name} is missing")
        if not _TIMESTAMP.fullmatch(timestamp):
            raise CallbackVerificationError("malformed_header", "Timestamp is not 1-15 decimal digits")
        if _utf16_len(nonce) > MAX_NONCE_CHARS or _CONTROL.search(nonce):
            raise CallbackVerificationError("malformed_header", "Nonce is too long or has control characters")
        if len(signature) > MAX_SIGNATURE_CHARS or not _BASE64.fullmatch(signature):
            raise CallbackVerificationError("malformed_header", "Signature is not standard base64")
        ts = int(timestamp)
        if abs(self._now() - ts) > self._window:
            raise CallbackVerificationError("stale_timestamp", f"Timestamp {ts} is outside the {self._window} s window")
        if key_id is not None:
            if key_id not in self._keys:
                raise CallbackVerificationError("unknown_key", f"no public key with id {key_id!r}")
            candidates = [(key_id, self._keys[key_id])]
        else:
            if not self._keys:
                raise CallbackVerificationError("unknown_key", "no public key configured")
            candidates = list(self._keys.items())
        try:
            sig = base64.b64decode(signature, validate=True)
        except binascii.Error:
            raise CallbackVerificationError("malformed_header", "Signature is not standard base64")
        base = callback_sign_base(method, path, timestamp, nonce, body)
        matched = None
        for kid, key in candidates:
            try:
                key.verify(sig, base, padding.PKCS1v15(), hashes.SHA256())
                matched = kid
                break
            except InvalidSignature:
                continue
        if matched is None:
            raise CallbackVerificationError("bad_signature", "the signature does not verify (was the body changed?)")
        if not self._nonces.remember(nonce, ts + self._window + 1):
            raise CallbackVerificationError("replayed_nonce", f"nonce {nonce!r} was already used")
        return VerifiedCall(matched, ts, nonce)
