"""Request and response bodies of the REST API (they make its OpenAPI schema)."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from memory.models import MemoryStatus, MemoryType, Role

PROFILE_PATTERN = r"^[A-Za-z0-9:._-]{1,128}$"


class ErrorDetail(BaseModel):
    code: str = Field(description="machine-readable: unauthorized, forbidden, not_found, "
                                  "invalid_request, too_large, unavailable, ...")
    message: str
    details: list[Any] = Field(default_factory=list)


class ErrorBody(BaseModel):
    error: ErrorDetail


class IngestMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Role = "user"
    content: str = Field(min_length=1)
    author: str | None = Field(default=None, max_length=256)
    ts: str | float | None = Field(
        default=None, description="ISO 8601, epoch seconds or a Slack ts; default: now")
    external_id: str | None = Field(
        default=None, min_length=1, max_length=512,
        description="the platform's message id (edits and deletes find it); default: "
                    "api:<message id>")
    reply_to: str | None = Field(
        default=None, min_length=1, max_length=512,
        description="the external_id of the message this one answers (its thread's parent, a "
                    "replied-to message): extraction reads the two together")


class IngestRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    session_id: str = Field(min_length=1, max_length=512,
                            description="the conversation (a channel-day, a thread)")
    messages: list[IngestMessage] = Field(min_length=1)


class IngestAccepted(BaseModel):
    batch_id: str
    profile: str
    session_id: str
    message_ids: list[str] = Field(description="content-addressed ids, in request order")
    queued: int
    mode: Literal["queued", "applied"] = Field(
        description="queued: a worker stores them soon; applied: stored in-process already")


class RememberRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    content: str = Field(min_length=1)
    type: MemoryType | None = Field(default=None, description="default: classified")
    session_id: str | None = Field(default=None, min_length=1, max_length=512)


class MemoryOut(BaseModel):
    id: str
    type: MemoryType
    content: str
    topic_key: str | None = None
    source_message_ids: list[str] = Field(default_factory=list)
    status: MemoryStatus
    created_at: str
    event_time: str | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    forgotten_reason: str | None = None


class ScoredMemoryOut(MemoryOut):
    score: float
    channels: list[str]


class MessageHit(BaseModel):
    id: str
    author: str | None = None
    role: Role
    content: str
    ts: str
    session_id: str
    score: float
    channels: list[str]


class ComputedOut(BaseModel):
    expression: str
    value: str
    detail: str = ""


class RecallRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1)
    now: datetime | None = Field(default=None, description="answer as of this time (ISO 8601)")
    k: int | None = Field(default=None, ge=1, le=100, description="hits per retrieval channel")
    asker: str | None = Field(
        default=None, min_length=1, max_length=256,
        description="who is asking, as their messages' `author`: a question in the first person "
                    "(\"what did I decide ...\") then also searches their own messages")
    addressee: str | None = Field(
        default=None, min_length=1, max_length=256,
        description="who the question is put to, as their messages' `author` (an agent that "
                    "writes into this profile): a question asking what they said (\"what did "
                    "you recommend ...\") then searches their messages")


class RecallOut(BaseModel):
    answer: str
    memories: list[ScoredMemoryOut]
    messages: list[MessageHit]
    computed: list[ComputedOut]


class MemoryPage(BaseModel):
    memories: list[MemoryOut]
    offset: int
    limit: int
    next_offset: int | None = Field(description="pass as offset for the next page; null at the "
                                                "end")


class ImportResult(BaseModel):
    messages: int = Field(description="new messages stored")
    memories: int
    redacted: int = 0  # imported records that held secrets under today's rules, redacted


class PurgeResult(BaseModel):
    profile: str
    purged: bool


class Health(BaseModel):
    status: str


class Check(BaseModel):
    ok: bool
    detail: str


class Ready(BaseModel):
    status: Literal["ready", "unavailable"]
    checks: dict[str, Check]
