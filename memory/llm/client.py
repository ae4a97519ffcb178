"""Our one door to the Anthropic Messages API (the `anthropic` SDK).

- The stable system prompt is sent as a cached block (`cache_control: ephemeral`), so repeated
  extraction calls pay for it once per cache lifetime; the per-call transcript goes in the user turn.
- Transport failures (connection errors, 408/409/429/5xx, 529 overloaded) are retried by the SDK
  with exponential backoff and the server's `retry-after`; after `max_retries` they become LLMError.
- JSON replies are validated with a pydantic model. A reply that is not valid JSON for the schema
  is sent back once with the validation error ("repair"); a second bad reply is an LLMError.
- Token usage (including cache reads/writes) is counted for metrics.
"""
from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from typing import TypeVar

import anthropic
from pydantic import BaseModel, ValidationError

from ..errors import LLMError

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


@dataclass
class Usage:
    calls: int = 0
    repairs: int = 0  # replies re-asked because they failed validation
    errors: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, usage) -> None:
        with self._lock:
            self.calls += 1
            for name in ("input_tokens", "output_tokens", "cache_creation_input_tokens",
                         "cache_read_input_tokens"):
                setattr(self, name, getattr(self, name) + (getattr(usage, name, 0) or 0))


def parse_json_reply(text: str, schema: type[T]) -> T:
    """The reply as `schema`: bare JSON, JSON in a ``` fence, or JSON after a short preamble."""
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    if fenced:
        stripped = fenced.group(1)
    elif not stripped.startswith(("{", "[")):
        start = min((i for i in (stripped.find("{"), stripped.find("[")) if i >= 0), default=-1)
        if start >= 0:
            stripped = stripped[start:]
    return schema.model_validate_json(stripped)


class LLMClient:
    def __init__(self, api_key: str, base_url: str | None = None, max_retries: int = 4,
                 timeout: float = 120.0):
        if not api_key:
            raise LLMError("an Anthropic API key is needed (set ANTHROPIC_API_KEY)")
        self.base_url = base_url or "https://api.anthropic.com"
        self._sdk = anthropic.Anthropic(api_key=api_key, base_url=base_url,
                                        max_retries=max_retries, timeout=timeout)
        self.usage = Usage()

    def _create(self, model: str, system: str, messages: list[dict], max_tokens: int) -> str:
        try:
            response = self._sdk.messages.create(
                model=model, max_tokens=max_tokens, messages=messages,
                system=[{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}])
        except anthropic.APIStatusError as exc:
            self.usage.errors += 1
            raise LLMError(f"Anthropic API at {self.base_url} answered HTTP {exc.status_code}: "
                           f"{_error_message(exc)}") from exc
        except anthropic.APIConnectionError as exc:  # includes timeouts
            self.usage.errors += 1
            raise LLMError(f"cannot reach the Anthropic API at {self.base_url}: {exc}") from exc
        self.usage.add(response.usage)
        return "".join(block.text for block in response.content if block.type == "text")

    def text(self, model: str, system: str, user: str, max_tokens: int = 1024) -> str:
        return self._create(model, system, [{"role": "user", "content": user}], max_tokens).strip()

    def json(self, model: str, system: str, user: str, schema: type[T],
             max_tokens: int = 4096) -> T:
        """A reply validated as `schema`, re-asking once with the error if it is not."""
        messages = [{"role": "user", "content": user}]
        reply = self._create(model, system, messages, max_tokens)
        try:
            return parse_json_reply(reply, schema)
        except ValidationError as exc:
            problem = _short(exc)
        self.usage.repairs += 1
        messages += [
            {"role": "assistant", "content": reply or "(empty)"},
            {"role": "user", "content": "That reply was not valid JSON for the requested schema "
                                        f"({problem}). Reply again with only the JSON object."}]
        reply = self._create(model, system, messages, max_tokens)
        try:
            return parse_json_reply(reply, schema)
        except ValidationError as exc:
            self.usage.errors += 1
            raise LLMError(f"model {model} twice replied with invalid JSON for "
                           f"{schema.__name__}: {_short(exc)}") from exc


def _short(exc: ValidationError) -> str:
    first = exc.errors()[0] if exc.errors() else {"msg": str(exc)}
    where = ".".join(str(p) for p in first.get("loc", ())) or "reply"
    return f"{where}: {first['msg']}"[:300]


def _error_message(exc: anthropic.APIStatusError) -> str:
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    return str(error.get("message") or json.dumps(body)[:200] or exc.message)
