"""The REST API (`lurker api`): the memory engine over HTTP for agents and bots outside chat.

    app = create_app(service, KeyFile(path), settings)      # FastAPI; uvicorn serves it

Every /v1 route names a profile and needs an API key (`Authorization: Bearer lk_...` or
`X-API-Key`) allowed that profile and the route's scope (read, write, admin). Errors are JSON,
`{"error": {"code", "message", "details"}}`, with a 4xx status for anything the caller can fix.
"""

import asyncio
import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import Field, create_model
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from memory.config import Settings
from memory.errors import (EmbeddingMismatch, InputFormatError, InvalidMessage, InvalidProfileName,
                           LLMError, LurkerError, StoreUnavailable, UnknownMemory)
from memory.ids import message_id
from memory.ingest_input import clean_text, to_messages
from memory.models import MemoryType
from memory.redaction import redact
from memory.service import forgotten_tombstone
from workers.sinks import EventSink, make_sink

from . import schemas
from .keys import ApiKey, KeyFile
from ..views import memory_json, recall_json
from .obs import LLMCollector, Metrics, QueueCollector, profile_var, request_id_var

log = logging.getLogger("lurker.api")

PROFILE_PATH = Path(pattern=schemas.PROFILE_PATTERN, description="profile name, e.g. "
                    "`team-backend` or `slack:T01:C42`")
MEMORY_ID_PATH = Path(pattern=r"^[0-9a-f]{32}$", description="a memory id (32 hex digits)")
READY_PROBE_PROFILE = "lurker:readyz"  # a profile name nobody writes: readyz counts it
# Dates the engine can do arithmetic on ("in two weeks", "3 years ago") without overflowing.
EARLIEST, LATEST = datetime(1970, 1, 1, tzinfo=timezone.utc), datetime(2200, 1, 1,
                                                                       tzinfo=timezone.utc)


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, details: list | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details or []


def error_response(status: int, code: str, message: str, details: list | None = None,
                   headers: dict | None = None) -> JSONResponse:
    body = {"error": {"code": code, "message": message, "details": details or []}}
    return JSONResponse(body, status_code=status, headers=headers)


ERRORS = {status: {"model": schemas.ErrorBody, "description": what} for status, what in (
    (400, "malformed request"), (401, "no or unknown API key"),
    (403, "the key may not use this profile or operation"), (404, "no such memory"),
    (413, "request too large"),
    (422, "invalid request (the details name each field)"),
    (503, "the store or the queue cannot be reached"))}


def _aware(value: datetime, what: str) -> datetime:
    """Naive times are UTC; times outside 1970-2199 are refused (date arithmetic on them
    overflows, and no chat message was written then)."""
    value = value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    if not EARLIEST <= value < LATEST:
        raise ApiError(422, "invalid_request", f"{what} must be between 1970 and 2199, "
                       f"not {value.isoformat()}")
    return value


def _queued_text(content: str, message) -> str:
    """What goes on the queue: the text with its secrets already redacted (so they never reach
    the broker or a log), as long as the worker hashes it to the same message id (redaction is
    idempotent, so it does; the check keeps the returned ids true if that ever changes)."""
    redacted = redact(clean_text(content))[0]
    again = message_id(message.session_id, message.role, redact(clean_text(redacted))[0])
    return redacted if again == message.id else content


# --- request bodies ----------------------------------------------------------------------------
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _clean_strings(value):
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [_clean_strings(v) for v in value]
    if isinstance(value, dict):
        return {clean_text(k): _clean_strings(v) for k, v in value.items()}
    return value


def without_lone_surrogates(body: bytes) -> bytes:
    """A JSON body whose strings hold lone surrogates (`"\\ud800"`: valid JSON, not valid text)
    with each replaced by U+FFFD, as the engine does for every other surface; the body unchanged
    when it has none or is not JSON (the route then reports what is wrong)."""
    if not _SURROGATE_ESCAPE.search(body):
        return body
    try:
        data = json.loads(body)
    except ValueError:
        return body
    return json.dumps(_clean_strings(data), ensure_ascii=False).encode("utf-8")


class BodyLimit:
    """Reads request bodies within limits: over the size limit is 413, whether the body declares a
    Content-Length or streams in chunks (then the read stops at the limit; import has its own,
    larger limit); a body that has not fully arrived within `timeout` seconds is 408 (a client
    that never sends it would otherwise hold a connection and a worker slot forever). JSON bodies
    are read whole (they are small) and their lone surrogates replaced (see above)."""

    def __init__(self, app, default: int, larger: dict[str, int], timeout: float = 30.0):
        self.app, self.default, self.larger, self.timeout = app, default, larger, timeout

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope.get("path", "")
        limit = next((n for suffix, n in self.larger.items() if path.endswith(suffix)),
                     self.default)
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                length = int(declared)
            except ValueError:
                length = -1
            if length < 0:
                return await error_response(400, "invalid_request",
                                            "Content-Length must be a number")(scope, receive,
                                                                               send)
            if length > limit:
                return await _too_large(limit)(scope, receive, send)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        seen = 0
        complete = False

        async def counted():
            nonlocal seen, complete
            if complete:  # after the body: Starlette listens for the disconnect, no deadline
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                raise BodyTimeout(self.timeout) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
                complete = not message.get("more_body", False)
            else:
                complete = True
            return message

        if not headers.get(b"content-type", b"").startswith(b"application/json"):
            return await self.app(scope, counted, send)
        try:
            chunks = []
            while not complete:
                message = await counted()
                if message["type"] != "http.request":
                    return  # the client went away
                chunks.append(message.get("body", b""))
        except (BodyTimeout, BodyTooLarge) as exc:
            code = "timeout" if isinstance(exc, BodyTimeout) else "too_large"
            return await error_response(exc.status_code, code, exc.detail)(scope, receive, send)
        body = [{"type": "http.request", "body": without_lone_surrogates(b"".join(chunks)),
                 "more_body": False}]

        async def replay():
            return body.pop() if body else await receive()

        await self.app(scope, replay, send)


class BodyTimeout(StarletteHTTPException):
    def __init__(self, seconds: float):
        super().__init__(408, f"the request body did not arrive within {seconds:g}s")


class BodyTooLarge(StarletteHTTPException):
    def __init__(self, limit: int):
        super().__init__(413, f"the request body is larger than {limit} bytes")
        self.limit = limit


def _too_large(limit: int) -> JSONResponse:
    return error_response(413, "too_large", f"the request body is larger than {limit} bytes",
                          [{"limit_bytes": limit}])


# --- request ids, access log, request metrics ---------------------------------------------------
class RequestContext:
    """Gives every request an id (X-Request-ID, echoed back), times it, counts it by route, and
    writes one JSON access-log line with the profile and the key's name."""

    def __init__(self, app, metrics: Metrics):
        self.app, self.metrics = app, metrics

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        incoming = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
        request_id = incoming if 0 < len(incoming) <= 128 and incoming.isprintable() \
            else uuid.uuid4().hex
        rid_token = request_id_var.set(request_id)
        profile_token = profile_var.set(None)
        status = 500
        start = time.perf_counter()

        async def send_with_id(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"],
                                      (b"x-request-id", request_id.encode("latin-1"))]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - start
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            method = scope.get("method", "")
            self.metrics.requests.labels(method, route, str(status)).inc()
            self.metrics.request_seconds.labels(method, route).observe(seconds)
            profile = (scope.get("path_params") or {}).get("name")
            if profile:
                profile_var.set(profile)
            state = scope.get("state") or {}
            log.info("%s %s %d", method, route, status,
                     extra={"status": status, "duration_ms": round(seconds * 1000, 2),
                            "path": scope.get("path"), "key": state.get("key_name")})
            profile_var.reset(profile_token)
            request_id_var.reset(rid_token)


# --- the app ------------------------------------------------------------------------------------
def create_app(service, keys: KeyFile, settings: Settings | None = None,
               sink: EventSink | None = None, metrics: Metrics | None = None,
               clock: Callable[[], datetime] | None = None) -> FastAPI:
    """The API over an open MemoryService. `sink` takes ingested messages (default: the workers'
    queue, spooled while the broker is away, or in-process on `service` when there is no broker:
    workers.sinks.make_sink)."""
    settings = settings or service.settings
    if sink is None:
        sink = make_sink("queue", service, settings)
    metrics = metrics or Metrics()
    metrics.add_collector(LLMCollector(service))
    metrics.add_collector(QueueCollector(sink.queue_lengths))
    now = clock or (lambda: datetime.now(timezone.utc))

    app = FastAPI(
        title="Lurker", version="1",
        description="Team memory for agents: ingest conversations, recall cited answers, "
                    "remember and forget. Every /v1 route needs an API key scoped to the profile.",
        responses={401: ERRORS[401]})
    app.state.service, app.state.keys, app.state.sink, app.state.metrics = \
        service, keys, sink, metrics

    # --- errors --------------------------------------------------------------------------------
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return error_response(exc.status, exc.code, exc.message, exc.details)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        details = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type")}
                   for e in exc.errors()[:20]]
        if any(e["type"] == "json_invalid" for e in details):
            return error_response(400, "invalid_json", "the request body is not valid JSON",
                                  details)
        first = details[0] if details else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"])
        return error_response(422, "invalid_request", f"{where}: {first['msg']}", details)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        if isinstance(exc, BodyTooLarge):
            return _too_large(exc.limit)
        code = {404: "not_found", 405: "method_not_allowed", 408: "timeout"}.get(
            exc.status_code, "http_error")
        return error_response(exc.status_code, code, str(exc.detail),
                              headers=getattr(exc, "headers", None))

    @app.exception_handler(LurkerError)
    async def _lurker(request: Request, exc: LurkerError):
        if isinstance(exc, UnknownMemory):
            return error_response(404, "not_found", str(exc))
        if isinstance(exc, (InvalidMessage, InvalidProfileName, InputFormatError, ValueError)):
            details = [{"line": n, "problem": why} for n, why in
                       getattr(exc, "problems", [])[:50]]
            return error_response(422, "invalid_request", str(exc), details)
        if isinstance(exc, (StoreUnavailable, LLMError)):
            log.error("unavailable: %s", exc)
            return error_response(503, "unavailable", str(exc))
        if isinstance(exc, EmbeddingMismatch):
            return error_response(503, "reindex_needed", str(exc))
        log.exception("lurker error", exc_info=exc)
        return error_response(503, "unavailable", str(exc))

    @app.exception_handler(Exception)
    async def _unhandled(request: Request, exc: Exception):
        # a bug of ours: the client still gets the documented JSON body; the traceback is logged
        log.error("unhandled error", exc_info=exc)
        return error_response(500, "internal_error",
                              "internal error; the request id is in the server log")

    # --- auth ----------------------------------------------------------------------------------
    bearer = HTTPBearer(auto_error=False, description="`Authorization: Bearer lk_...`")
    header_key = APIKeyHeader(name="X-API-Key", auto_error=False,
                              description="or the key in `X-API-Key`")

    def authorize(scope: str):
        async def dependency(request: Request, name: Annotated[str, PROFILE_PATH],
                             credentials: Annotated[HTTPAuthorizationCredentials | None,
                                                    Depends(bearer)] = None,
                             api_key: Annotated[str | None, Depends(header_key)] = None) -> ApiKey:
            presented = credentials.credentials if credentials else api_key
            if not presented:
                raise ApiError(401, "unauthorized", "an API key is needed: send "
                               "`Authorization: Bearer <key>` (create one with `lurker api key "
                               "create`)")
            key = keys.current().authenticate(presented)
            if key is None:
                raise ApiError(401, "unauthorized", "unknown API key")
            request.scope.setdefault("state", {})["key_name"] = key.name
            profile_var.set(name)
            if not key.allows(name):
                raise ApiError(403, "forbidden", f"key {key.name!r} may not use profile {name!r}")
            if not key.can(scope):
                raise ApiError(403, "forbidden", f"key {key.name!r} lacks the {scope!r} scope "
                               f"this operation needs")
            return key
        return dependency

    Reader = Annotated[ApiKey, Depends(authorize("read"))]
    Writer = Annotated[ApiKey, Depends(authorize("write"))]
    Admin = Annotated[ApiKey, Depends(authorize("admin"))]
    Name = Annotated[str, PROFILE_PATH]

    # Request bodies whose limits come from the settings (so the OpenAPI schema states them).
    IngestRequest = create_model(
        "IngestRequest", __base__=schemas.IngestRequest,
        messages=(list[schemas.IngestMessage],
                  Field(min_length=1, max_length=settings.api_max_ingest_messages)))
    RecallRequest = create_model(
        "RecallRequest", __base__=schemas.RecallRequest,
        query=(str, Field(min_length=1, max_length=settings.api_max_query_chars,
                          description="the question")))

    # --- probes and metrics ------------------------------------------------------------------
    @app.get("/healthz", response_model=schemas.Health, tags=["ops"])
    def healthz():
        """The process is up (liveness)."""
        return {"status": "ok"}

    @app.get("/readyz", response_model=schemas.Ready, tags=["ops"],
             responses={503: {"model": schemas.Ready, "description": "not ready"}})
    def readyz():
        """The store answers and the queue's broker is reachable (readiness)."""
        checks = {}
        try:
            service.store.count(READY_PROBE_PROFILE)
            checks["store"] = {"ok": True, "detail": service.store.location}
        except Exception as exc:  # any failure means not ready; the reason goes in the body
            checks["store"] = {"ok": False, "detail": f"{service.store.location}: "
                                                      f"{type(exc).__name__}: {exc}"[:300]}
        ok, detail = sink.check()
        checks["queue"] = {"ok": ok, "detail": detail}
        ready = all(c["ok"] for c in checks.values())
        body = {"status": "ready" if ready else "unavailable", "checks": checks}
        return JSONResponse(body, status_code=200 if ready else 503)

    @app.get("/metrics", tags=["ops"], response_class=Response,
             responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                              "description": "Prometheus text format"}})
    def metrics_endpoint():
        """Prometheus metrics of this process."""
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    # --- write -------------------------------------------------------------------------------
    @app.post("/v1/profiles/{name}/ingest", status_code=202, response_model=schemas.IngestAccepted,
              tags=["memory"], responses={k: ERRORS[k] for k in (403, 413, 422, 503)})
    def ingest(name: Name, body: IngestRequest, key: Writer):  # type: ignore[valid-type]
        """Queue messages of one conversation for ingestion. Returns at once with the messages'
        ids; a worker stores them and draws memories (or, without a broker, it is done before
        the reply: `mode` says which)."""
        received = now()
        raw = [m.model_dump() for m in body.messages]
        messages = to_messages(raw, body.session_id, received, settings.max_message_bytes)
        events = []
        for message, original in zip(messages, raw):
            _aware(message.ts, f"messages[{message.seq}].ts")
            events.append({
                "type": "message.created", "profile": name, "session_id": body.session_id,
                "external_id": original["external_id"] or f"api:{message.id}",
                "role": message.role, "author": original["author"],
                "content": _queued_text(original["content"], message),
                "ts": message.ts.isoformat(), "reply_to": message.reply_to})
        try:
            sink.publish(events)
        except LurkerError:
            raise
        except (OSError, ConnectionError) as exc:
            raise StoreUnavailable(f"cannot queue the messages: {exc}") from None
        metrics.ingest_messages.labels(sink.mode).inc(len(events))
        metrics.ingest_batch.observe(len(events))
        batch_id = uuid.uuid4().hex
        log.info("ingest accepted", extra={"batch_id": batch_id, "messages": len(events),
                                           "mode": sink.mode})
        return {"batch_id": batch_id, "profile": name, "session_id": body.session_id,
                "message_ids": [m.id for m in messages], "queued": len(events),
                "mode": sink.mode}

    @app.post("/v1/profiles/{name}/remember", status_code=201, response_model=schemas.MemoryOut,
              tags=["memory"], responses={k: ERRORS[k] for k in (403, 413, 422, 503)})
    def remember(name: Name, body: schemas.RememberRequest, key: Writer):
        """Store one memory now (classified unless `type` is given)."""
        memory = service.profile(name).remember(body.content, session_id=body.session_id,
                                                memory_type=body.type, now=now())
        return memory_json(memory)

    @app.post("/v1/profiles/{name}/import", response_model=schemas.ImportResult,
              tags=["memory"], responses={k: ERRORS[k] for k in (400, 403, 413, 422, 503)},
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/x-ndjson": {"schema": {"type": "string"}}}}})
    async def import_profile(request: Request, name: Name, key: Writer,
                             replace: Annotated[bool, Query(description="delete the profile's "
                                                            "data first (admin)")] = False):
        """Load a JSONL export (GET .../export) into the profile. Every line is checked first:
        one bad line and nothing is imported."""
        if replace and not key.can("admin"):
            raise ApiError(403, "forbidden", f"key {key.name!r} lacks the 'admin' scope "
                           f"import with replace needs")
        body = await request.body()
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApiError(400, "invalid_request", f"the body is not UTF-8 (byte {exc.start})")
        counts = await run_in_threadpool(service.profile(name).import_lines,
                                         text.splitlines(), f"profile {name} import", replace)
        return counts

    # --- read --------------------------------------------------------------------------------
    @app.post("/v1/profiles/{name}/recall", response_model=schemas.RecallOut, tags=["memory"],
              responses={k: ERRORS[k] for k in (403, 413, 422, 503)})
    def recall(name: Name, body: RecallRequest, key: Reader):  # type: ignore[valid-type]
        """Answer a question from the profile's memories, with the memories and messages it
        drew on (each with the retrieval channels that found it)."""
        as_of = _aware(body.now, "now") if body.now else now()
        start = time.perf_counter()
        result = service.profile(name).recall(body.query, now=as_of, k=body.k, asker=body.asker,
                                              addressee=body.addressee)
        metrics.observe_recall("api", time.perf_counter() - start, result)
        return recall_json(result)

    @app.get("/v1/profiles/{name}/memories", response_model=schemas.MemoryPage, tags=["memory"],
             responses={k: ERRORS[k] for k in (403, 422, 503)})
    def list_memories(
            name: Name, key: Reader,
            type: Annotated[list[MemoryType] | None,
                            Query(description="only these types (repeatable)")] = None,
            status: Annotated[Literal["active", "all"],
                              Query(description="`all` adds superseded and forgotten ones")
                              ] = "active",
            limit: Annotated[int, Query(ge=1, le=settings.api_max_page_size)] = 50,
            offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0):
        """Memories in the order they were stored, a page at a time."""
        found = service.profile(name).list(type or None, status == "all", limit + 1, offset)
        more = len(found) > limit
        if not key.can("admin"):  # what a forgotten memory said is for admins' audit only
            found = [forgotten_tombstone(m) for m in found]
        return {"memories": [memory_json(m) for m in found[:limit]], "offset": offset,
                "limit": limit, "next_offset": offset + limit if more else None}

    @app.get("/v1/profiles/{name}/export", tags=["memory"],
             responses={200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                              "description": "JSONL: a header, messages, memories"},
                        **{k: ERRORS[k] for k in (403, 503)}})
    def export(name: Name, key: Reader,
               audit: Annotated[bool, Query(description="everything, forgotten text included "
                                                        "(admin)")] = False):
        """The whole profile as JSONL (streamed): a header line, its messages, then every memory
        with its history. POST it to .../import to copy or restore a profile. What was forgotten
        is not in it (its messages are left out, its memories are tombstones) unless an admin
        asks for the audit export."""
        if audit and not key.can("admin"):
            raise ApiError(403, "forbidden", f"key {key.name!r} lacks the 'admin' scope the "
                           f"audit export needs")
        lines = service.profile(name).export(audit=audit)
        first = next(lines)  # fail here (503), before the 200 is sent, if the store is down

        def body():
            yield first + "\n"
            for line in lines:
                yield line + "\n"
        return StreamingResponse(body(), media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{name.replace(":", "_")}.jsonl"'})

    # --- admin -------------------------------------------------------------------------------
    @app.delete("/v1/profiles/{name}/memories/{memory_id}", response_model=schemas.MemoryOut,
                tags=["admin"], responses={k: ERRORS[k] for k in (403, 404, 422, 503)})
    def forget(name: Name, memory_id: Annotated[str, MEMORY_ID_PATH], key: Admin,
               reason: Annotated[str, Query(min_length=1, max_length=1000,
                                            description="kept in the audit history")
                                 ] = "forgotten through the API"):
        """Mark a memory as no longer true (admin): it leaves recall and stays in the history
        with the reason and the key that forgot it."""
        memory = service.profile(name).forget(memory_id, f"{reason.strip() or 'forgotten'} "
                                              f"(API key {key.name})", now=now())
        return memory_json(memory)

    @app.delete("/v1/profiles/{name}", response_model=schemas.PurgeResult, tags=["admin"],
                responses={k: ERRORS[k] for k in (403, 422, 503)})
    def purge(name: Name, key: Admin):
        """Delete everything the profile holds (admin). Not undoable: export it first."""
        service.store.delete_profile(name)
        log.warning("profile purged", extra={"key": key.name})
        return {"profile": name, "purged": True}

    app.add_middleware(BodyLimit, default=settings.api_max_body_bytes,
                       larger={"/import": settings.api_max_import_bytes},
                       timeout=settings.api_body_timeout_s)
    app.add_middleware(RequestContext, metrics=metrics)
    return app
