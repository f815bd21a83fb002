"""Spec 5.1: the md5 parameter signature of 4.1, 4.2 and 4.6, in the canonical form of docs/signing.md:
nested objects and arrays flatten to dot paths (`a.b`, `list.0`), null is left out, keys sort by UTF-8 bytes."""
import hashlib
import math
from decimal import Decimal
from typing import Any, List, Mapping, Tuple

MAX_SIGN_DEPTH = 32


def js_number(x: float) -> str:
    """ECMAScript Number#toString of a double (shortest round-trip digits): 1.5, 1e+21, 0.000001, 1e-7."""
    if not math.isfinite(x):
        raise TypeError(f"md5 sign: {x} cannot be signed, only finite numbers")
    if x == 0:
        return "0"
    if x < 0:
        return "-" + js_number(-x)
    # repr is the shortest round-trip form; Decimal splits it into digits and exponent exactly.
    t = Decimal(repr(x)).as_tuple()
    digits = "".join(map(str, t.digits)).lstrip("0")
    exp = t.exponent + (len(digits) - len(digits.rstrip("0")))
    digits = digits.rstrip("0")
    n = len(digits) + exp  # position of the decimal point
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    return (digits[0] + ("." + digits[1:] if k > 1 else "")) + "e" + sign + str(abs(e))


def decimal_text(key: str, d: Decimal) -> str:
    """A Decimal signs as the JSON number it is sent as is read by the service (5.1): an integral Decimal written
    without a fraction (`Decimal("100")`) by its exact digits, any other by the ECMAScript text of its double, so
    `Decimal("0.10")` signs as `0.1` and `Decimal("19.99")` as `19.99`."""
    if not d.is_finite():
        raise TypeError(f"md5 sign: {key} is {d}, only finite numbers can be signed")
    if d.as_tuple().exponent >= 0:
        return str(int(d))
    return js_number(float(d))


def _scalar(key: str, v: Any) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return js_number(v)
    if isinstance(v, Decimal):
        return decimal_text(key, v)
    raise TypeError(f"md5 sign: {key} has unsupported type {type(v).__name__}")


def _flatten(key: str, v: Any, depth: int, out: List[Tuple[str, str]]) -> None:
    if v is None:
        return
    if isinstance(v, (Mapping, list, tuple)):
        if depth >= MAX_SIGN_DEPTH:
            raise TypeError(f"md5 sign: {key} is nested deeper than {MAX_SIGN_DEPTH}")
        items = v.items() if isinstance(v, Mapping) else enumerate(v)
        for k, child in items:
            _flatten(f"{key}.{k}", child, depth + 1, out)
        return
    out.append((key, _scalar(key, v)))


def canonical_params(params: Mapping[str, Any]) -> str:
    """`k1=v1&k2=v2...` over every parameter except the top-level `sign`. Raises TypeError on unsignable input."""
    out: List[Tuple[str, str]] = []
    for k, v in params.items():
        if k != "sign":
            _flatten(k, v, 0, out)
    out.sort(key=lambda p: p[0].encode("utf-8"))
    for i in range(1, len(out)):
        if out[i][0] == out[i - 1][0]:
            raise TypeError(f"md5 sign: key {out[i][0]} occurs twice after flattening")
    return "&".join(f"{k}={v}" for k, v in out)


def md5_sign(params: Mapping[str, Any], secret: str) -> str:
    """Lowercase hex md5 of canonical_params(params) + secret over UTF-8: the `sign` parameter."""
    return hashlib.md5((canonical_params(params) + secret).encode("utf-8")).hexdigest()
