"""Spec 5.2: the MAC token of 4.3 and 4.5 (HMAC-SHA1 over six LF-terminated lines)."""
import base64
import hashlib
import hmac
import secrets
import time
from typing import Optional, Union


def mac_sign_base(ts: Union[str, int], nonce: str, method: str, uri: str, host: str, port: Union[str, int] = 443) -> str:
    parts = [str(ts), nonce, method.upper(), uri, host, str(port)]
    if any("\n" in p for p in parts):
        raise ValueError("MAC sign base: a value contains a line feed")
    return "".join(p + "\n" for p in parts)


def mac_sign(mac_key: str, ts: Union[str, int], nonce: str, method: str, uri: str, host: str, port: Union[str, int] = 443) -> str:
    base = mac_sign_base(ts, nonce, method, uri, host, port)
    return base64.b64encode(hmac.new(mac_key.encode("utf-8"), base.encode("utf-8"), hashlib.sha1).digest()).decode("ascii")


def _quote(v: str) -> str:
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


def mac_authorization(
    kid: str,
    mac_key: str,
    method: str,
    uri: str,
    host: str,
    port: Union[str, int] = 443,
    ts: Optional[Union[str, int]] = None,
    nonce: Optional[str] = None,
) -> str:
    """The `Authorization` header value: MAC id="<kid>",ts="<ts>",nonce="<nonce>",mac="<mac>".
    `uri` is the path and query exactly as sent; ts defaults to now, nonce to 16 random bytes (base64url)."""
    ts = str(int(time.time()) if ts is None else ts)
    nonce = secrets.token_urlsafe(16) if nonce is None else nonce
    mac = mac_sign(mac_key, ts, nonce, method, uri, host, port)
    return f"MAC id={_quote(kid)},ts={_quote(ts)},nonce={_quote(nonce)},mac={_quote(mac)}"
