"""Framework glue (5.3): verify the platform's calls before the application sees them.

- WSGI (Flask, Django, Bottle...): `app.wsgi_app = VerifyingWSGIMiddleware(app.wsgi_app, verifier, paths=["/pay/"])`
- ASGI (FastAPI, Starlette, Quart...): `app.add_middleware(VerifyingASGIMiddleware, verifier=verifier, paths=["/pay/"])`

Both read the raw body, verify it with the method, the path as sent and the headers, then hand the application
the same bytes and the VerifiedCall (WSGI environ / ASGI scope key `game_platform_kit.verified_call`, and
`request.state.verified_call` in Starlette); a call that does not verify gets 401 with the 4.7 refusal body and never
reaches the application. They use only the WSGI (PEP 3333) and ASGI 3 protocols, so neither Flask nor Starlette is
imported (neither is installable where the repository's tests run: the WSGI middleware is tested end to end in
wsgiref, the ASGI one by driving the protocol directly)."""
import io
import json
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple
from urllib.parse import quote

from .bodies import reject_notification
from .verify import CallbackVerificationError, CallbackVerifier, VerifiedCall

VERIFIED_CALL = "game_platform_kit.verified_call"


def _text(raw: bytes) -> str:
    # Header bytes as the platform sent them: UTF-8 (a non-ASCII Nonce is signed as UTF-8), else latin-1.
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _matches(path: str, paths: Optional[Sequence[str]]) -> bool:
    return paths is None or any(path.startswith(p) for p in paths)


def _refusal(status: int, msg: str) -> Tuple[int, bytes]:
    status, body = reject_notification(msg, status)
    return status, json.dumps(body).encode("utf-8")


_REASONS = {401: "401 Unauthorized", 413: "413 Payload Too Large", 400: "400 Bad Request"}


class VerifyingWSGIMiddleware:
    """WSGI middleware verifying every call under `paths` (all when None)."""

    def __init__(self, app: Callable, verifier: CallbackVerifier, paths: Optional[Sequence[str]] = None, max_body: int = 1 << 20):
        self.app, self.verifier, self.paths, self.max_body = app, verifier, paths, max_body

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        # The path as sent: RAW_URI/REQUEST_URI when the server gives it (gunicorn, uWSGI), else PATH_INFO re-quoted.
        raw = environ.get("RAW_URI") or environ.get("REQUEST_URI") or quote(environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", ""), safe="/;=,~!$&'()*+:@")
        path = raw.split("?", 1)[0]
        if not _matches(path, self.paths):
            return self.app(environ, start_response)
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > self.max_body:
            return self._refuse(start_response, 413 if length > 0 else 400, "body too large" if length > 0 else "bad Content-Length")
        body = environ["wsgi.input"].read(length) if length else b""
        headers: List[Tuple[str, str]] = [
            # PEP 3333 gives header bytes as latin-1 text: back to bytes, then read as the platform wrote them.
            (k[5:].replace("_", "-"), _text(v.encode("latin-1"))) for k, v in environ.items() if k.startswith("HTTP_")
        ]
        try:
            call = self.verifier.verify(environ["REQUEST_METHOD"], path, headers, body)
        except CallbackVerificationError as e:
            return self._refuse(start_response, 401, f"signature check failed: {e.reason}")
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ[VERIFIED_CALL] = call
        return self.app(environ, start_response)

    @staticmethod
    def _refuse(start_response: Callable, status: int, msg: str) -> Iterable[bytes]:
        status, data = _refusal(status, msg)
        start_response(_REASONS.get(status, str(status)), [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
        return [data]


class VerifyingASGIMiddleware:
    """ASGI 3 middleware verifying every HTTP call under `paths` (all when None)."""

    def __init__(self, app: Callable, verifier: CallbackVerifier, paths: Optional[Sequence[str]] = None, max_body: int = 1 << 20):
        self.app, self.verifier, self.paths, self.max_body = app, verifier, paths, max_body

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        raw_path = scope.get("raw_path")
        path = raw_path.decode("latin-1") if raw_path else quote(scope.get("path", ""), safe="/;=,~!$&'()*+:@")
        path = path.split("?", 1)[0]
        if scope["type"] != "http" or not _matches(path, self.paths):
            await self.app(scope, receive, send)
            return
        chunks: List[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._refuse(send, 413, "body too large")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        headers = [(k.decode("latin-1"), _text(v)) for k, v in scope.get("headers", [])]
        try:
            call = self.verifier.verify(scope["method"], path, headers, body)
        except CallbackVerificationError as e:
            await self._refuse(send, 401, f"signature check failed: {e.reason}")
            return
        scope = dict(scope)
        scope[VERIFIED_CALL] = call
        scope["state"] = {**scope.get("state", {}), "verified_call": call}
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(send: Callable, status: int, msg: str) -> None:
        status, data = _refusal(status, msg)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})


def verified_call(environ_or_scope: Any) -> Optional[VerifiedCall]:
    """The VerifiedCall a middleware put in a WSGI environ or an ASGI scope (Flask: `request.environ`;
    Starlette: `request.scope`), or None."""
    return environ_or_scope.get(VERIFIED_CALL)
