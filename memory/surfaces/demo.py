"""The sample team conversation that `lurker demo` and `lurker chat --demo` load, and the
conversation file format `lurker ingest` reads."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path

from memory.errors import InputFormatError
from memory.models import IngestResult

DEMO_PROFILE = "demo"
DEMO_QUESTION = "What is the rate limit we decided on?"
SAMPLE_SESSION = "demo-2026-11-16"
ASKED_AT = datetime(2026, 11, 18, 9, 0, tzinfo=timezone.utc)  # two days after the sample


def read_conversation(path: str) -> list[dict]:
    """A JSON array or JSONL of {"role","content","author"?,"ts"?}; bad lines are reported by
    number and nothing is ingested."""
    text = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise InputFormatError(path, [(exc.lineno, f"invalid JSON ({exc.msg})")]) from None
        return data
    messages, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append((number, f"invalid JSON ({exc.msg})"))
            continue
        if not isinstance(record, dict):
            problems.append((number, "expected an object with role and content"))
            continue
        messages.append(record)
    if problems:
        raise InputFormatError(path, problems)
    return messages


def load_sample(profile) -> IngestResult:
    """Ingest the sample conversation (16 November 2026) into `profile`."""
    sample = resources.files("memory") / "data" / "sample_conversation.jsonl"
    with resources.as_file(sample) as path:
        return profile.ingest(read_conversation(str(path)), session_id=SAMPLE_SESSION)
