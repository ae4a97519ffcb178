"""The records Lurker stores and returns. Pydantic models so export/import and the CLI's --json
share one serialisation."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Literal

from pydantic import BaseModel, Field, model_validator

MemoryType = Literal["fact", "event", "instruction", "task"]
MemoryStatus = Literal["active", "superseded", "forgotten"]
Role = Literal["user", "assistant", "system"]
MEMORY_TYPES: tuple[str, ...] = ("fact", "event", "instruction", "task")


class Message(BaseModel):
    """A raw conversation message as stored (the safety-net retrieval channel)."""

    id: str
    session_id: str
    role: Role
    author: str | None = None
    content: str
    ts: datetime  # timezone-aware, UTC
    seq: int = 0  # position in its conversation: the transcript line index kept as provenance
    truncated: bool = False
    # The chat platform's own id ("slack:C42:1715172960.000200"), so edits and deletes find it.
    external_id: str | None = None
    # The UTC offset `ts` was written with ("2026-03-10T23:30:00-08:00": -480); dates said in the
    # message ("yesterday") are resolved in that local time. None: UTC / unknown.
    utc_offset_minutes: int | None = None
    # A memory drawn from it was forgotten: it stays for audit but leaves every retrieval channel,
    # every answer and the ordinary export (Profile.forget).
    suppressed: bool = False
    # Ids of the earlier versions of this message (edits replace the raw message), oldest first,
    # so deleting or purging the message also erases what was drawn from what it used to say.
    replaces: list[str] = Field(default_factory=list)
    # The platform id (`external_id`) of the message this one answers: its thread's parent, or the
    # message it replies to. Extraction reads the reply with that message, wherever it is stored.
    reply_to: str | None = None


class EventDate(BaseModel):
    """A date a memory is about, resolved in code at ingest ("yesterday" in a message of 6 May is
    5 May), apart from when it was said (Memory.event_time)."""

    phrase: str = ""  # as written ("yesterday", "June 3", "from the 3rd to the 7th")
    start: date
    end: date
    granularity: Literal["day", "week", "month", "quarter", "year"] = "day"

    @model_validator(mode="after")
    def _a_whole_week(self) -> EventDate:
        # stored before the labels read back whole, a week was its Monday alone
        if self.granularity == "week" and self.start == self.end and self.start.weekday() == 0:
            self.end = self.start + timedelta(days=6)
        return self


class Passage(Message):
    """A part of a message's raw text, as the passage channels return it: `id` and the rest are the
    message's (so citations, links and evidence are the message's), `content` is the passage only
    (what the answerer reads), at content[start:end] of the stored message."""

    passage: int  # its index among the message's passages (memory.passages.split_passages)
    start: int
    end: int


class Memory(BaseModel):
    """A durable memory extracted from messages (or remembered directly)."""

    id: str
    type: MemoryType
    content: str
    topic_key: str | None = None  # facts and instructions: normalised subject, drives supersession
    questions: list[str] = Field(default_factory=list)  # 3-5 search questions it answers
    source_message_ids: list[str] = Field(default_factory=list)
    session_id: str | None = None
    created_at: datetime  # when Lurker stored it
    # when it was said: its earliest source message's time, in that message's own UTC offset
    event_time: datetime | None = None
    # What it is about in time: every date expression of its content, resolved at ingest.
    event_dates: list[EventDate] = Field(default_factory=list)
    dates: list[str] = Field(default_factory=list)  # the event dates' labels ("2023-05-07", ...)
    status: MemoryStatus = "active"
    supersedes: str | None = None  # backward link of the version chain
    superseded_by: str | None = None  # forward pointer to the newer version
    forgotten_reason: str | None = None
    forgotten_at: datetime | None = None

    @model_validator(mode="after")
    def _event_dates_from_labels(self) -> Memory:
        """Memories stored before event dates existed carry only labels: read them as event
        dates, so old exports, SQLite files and indices answer date questions too."""
        if not self.event_dates and self.dates:
            from .dates import parse_label

            for label in self.dates:
                rd = parse_label(label)
                if rd is not None:
                    self.event_dates.append(EventDate(phrase=label, start=rd.start, end=rd.end,
                                                      granularity=rd.granularity))
        return self

    @property
    def said_at(self) -> datetime:
        """When it was said: its source's time, or when it was stored if it has none."""
        return self.event_time or self.created_at

    @property
    def embeddable(self) -> bool:
        """Tasks stay out of the vector index (found by full text only); so do inactive memories."""
        return self.type != "task" and self.status == "active"


def parents_elsewhere(messages: list[Message]) -> set[str]:
    """The external ids of the messages that replies among `messages` answer, when those are not
    among them: the stored messages extraction reads beside them."""
    here = {m.external_id for m in messages if m.external_id}
    return {m.reply_to for m in messages if m.reply_to and m.reply_to not in here}


def embedding_text(memory: Memory) -> str:
    """What gets embedded: the questions a memory answers, then the memory itself."""
    return "\n".join([*memory.questions, memory.content])


class ComputedDate(BaseModel):
    """A date fact computed in code for the answer (the model never does date math)."""

    expression: str  # the words in the question, e.g. "3 weeks ago"
    value: str  # e.g. "2023-05-01" or "12 days"
    detail: str = ""  # how it was computed, for the answer and for audit


class IngestResult(BaseModel):
    messages_new: int = 0
    messages_skipped: int = 0
    memories_created: int = 0
    memories_superseded: int = 0
    message_ids: list[str] = Field(default_factory=list)
    # Memories stored but not yet in the vector index (ingest(..., vectorize=False)), and
    # "passages:<message id>" for new messages whose passages wait for vectors: the caller hands
    # them to Profile.index_vectors, e.g. as a follow-up queue task.
    pending_vector_ids: list[str] = Field(default_factory=list)


class EditResult(BaseModel):
    found: bool
    old_message_id: str | None = None
    new_message_id: str | None = None
    memories_superseded: int = 0
    memories_created: int = 0
    pending_vector_ids: list[str] = Field(default_factory=list)


class DeleteResult(BaseModel):
    found: bool
    message_id: str | None = None
    memories_forgotten: int = 0
    memories_updated: int = 0  # still supported by other messages: only lost this source


class ScoredMemory(BaseModel):
    memory: Memory
    score: float
    channels: list[str] = Field(default_factory=list)


class ScoredMessage(BaseModel):
    message: Message
    score: float
    channels: list[str] = Field(default_factory=list)


class RecallResult(BaseModel):
    answer: str
    memories: list[ScoredMemory] = Field(default_factory=list)
    messages: list[ScoredMessage] = Field(default_factory=list)
    computed: list[ComputedDate] = Field(default_factory=list)
    # Seconds each retrieval channel took in the store (the lurker_recall_channel_seconds metric).
    channel_seconds: dict[str, float] = Field(default_factory=dict)


class ScrubResult(BaseModel):
    """What Profile.scrub changed: stored text that today's redaction rules would not have kept."""

    messages_redacted: int = 0  # replaced by their redacted text, their memories drawn afresh
    memories_erased: int = 0  # drawn only from those messages: removed (their ids hash the secret)
    memories_redacted: int = 0  # whose own text (a remembered memory's) held a secret


class PurgeResult(BaseModel):
    """What Profile.purge_author removed (a data deletion request)."""

    author: str
    messages_deleted: int = 0
    memories_erased: int = 0  # drawn only from the author's messages: content blanked, forgotten
    memories_updated: int = 0  # also drawn from other people's messages: only lost those sources
    message_ids: list[str] = Field(default_factory=list)
