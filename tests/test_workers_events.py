"""Queued event models: what a chat adapter may send, and the errors for what it may not."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from workers.broker import celery_config, is_eager, prefetch_multiplier
from workers.events import (InvalidEvent, MessageCreated, MessageDeleted, MessageEdited,
                            parse_event)
from memory.config import Settings


def created(**over):
    event = {"type": "message.created", "profile": "slack:T01:C42", "session_id": "C42:2026-11-16",
             "external_id": "slack:C42:1715172960.000200", "author": "maya",
             "content": "Use pnpm for the dashboard", "ts": "1715172960.000200"}
    event.update(over)
    return event


def test_created_event_parses_timestamps_and_defaults_role():
    event = parse_event(created())
    assert isinstance(event, MessageCreated) and event.role == "user"
    assert event.ts == datetime(2024, 5, 8, 12, 56, 0, 200, tzinfo=timezone.utc)
    # the same instant, with the offset it was written with (the poster's zone dates "tonight")
    local = parse_event(created(ts="2026-11-16T09:00:00+01:00")).ts
    assert local == datetime(2026, 11, 16, 8, 0, tzinfo=timezone.utc)
    assert local.utcoffset().total_seconds() == 3600
    assert parse_event(parse_event(created(ts=local.isoformat())).to_json()).ts.utcoffset() == \
        local.utcoffset()  # kept through the queue's JSON
    assert parse_event(event.to_json()) == event  # round-trips through JSON
    assert event.message()["external_id"] == "slack:C42:1715172960.000200"


def test_edit_and_delete_events():
    edit = parse_event({"type": "message.edited", "profile": "p", "external_id": "x",
                        "content": "Use yarn"})
    assert isinstance(edit, MessageEdited) and edit.ts is None and edit.session_id is None
    gone = parse_event({"type": "message.deleted", "profile": "p", "external_id": "x"})
    assert isinstance(gone, MessageDeleted)


@pytest.mark.parametrize("raw, expected", [
    ("not an object", "must be a JSON object"),
    ({"type": "message.posted"}, "unknown event type 'message.posted'"),
    (created(profile="bad name!"), "profile: invalid profile name"),
    (created(content="   "), "content: content must be a non-empty string"),
    (created(content=None), "content: content must be a non-empty string"),
    (created(session_id=""), "session_id: session_id must be a non-empty string"),
    (created(ts="next tuesday-ish"), "ts: unrecognised timestamp"),
    (created(ts=True), "not a boolean"),
    (created(ts=None), "ts is required"),
    (created(role="bot"), "role: Input should be 'user', 'assistant' or 'system'"),
    (created(external_id=""), "external_id: external_id must be a non-empty string"),
    (created(channel="C42"), "channel: unknown field"),
    ({"type": "message.deleted", "profile": "p"}, "external_id: Field required"),
    ({"type": "message.edited", "profile": "p", "external_id": "x", "content": ""},
     "content must be a non-empty string"),
])
def test_malformed_events_name_what_is_wrong(raw, expected):
    with pytest.raises(InvalidEvent) as info:
        parse_event(raw)
    assert expected in str(info.value)


def test_every_problem_is_listed_at_once():
    with pytest.raises(InvalidEvent) as info:
        parse_event(created(profile="bad name", content="", ts="nope"))
    message = str(info.value)
    assert "profile:" in message and "content:" in message and "ts:" in message
    assert "external_id 'slack:C42:1715172960.000200'" in message  # which event it was


def test_app_configuration_follows_settings():
    settings = Settings(broker_url="redis://127.0.0.1:6399/3", batch_size=100,
                        worker_concurrency=2, broker_visibility_timeout_s=30)
    conf = celery_config(settings)
    assert conf["broker_url"] == "redis://127.0.0.1:6399/3" and not conf["task_always_eager"]
    assert conf["task_acks_late"] and conf["task_reject_on_worker_lost"]
    assert conf["worker_prefetch_multiplier"] == prefetch_multiplier(settings) == 150
    assert conf["broker_transport_options"]["visibility_timeout"] == 30
    for eager in (Settings(broker_url="memory://"), Settings(worker_eager=True)):
        assert is_eager(eager) and celery_config(eager)["task_always_eager"]
        assert celery_config(eager)["broker_url"] == "memory://"
