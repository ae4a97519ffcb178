"""bot/backfill.py: paging a channel's history into the sink, oldest first, without duplicates,
with one channel's failure reported and the rest paged in, from a plain or an async source. The
history here is a list served a page at a time (the platforms' own sources are tested against
their loopback APIs)."""
from __future__ import annotations

import asyncio
import io
from datetime import datetime, timedelta, timezone

import pytest

from bot.backfill import (BackfillReport, HistorySource, Progress, backfill, backfill_all,
                          backfill_all_async, backfill_async)
from bot.config import BotConfig
from bot.contract import Actor, ChatMessage, Place
from bot.core import LurkerBot
from memory.config import Settings
from memory.service import MemoryService
from tests.recorders import RecordingSink

DAY = datetime(2026, 11, 16, 9, 0, tzinfo=timezone.utc)
MAYA = Actor("slack", "U1", "maya")
LURKER = Actor("slack", "ULURKER", "lurker", is_bot=True)


class ListHistory:
    """Pages of a fixed history, newest first like Slack's conversations.history."""

    def __init__(self, by_channel: dict[str, list[ChatMessage]], page: int = 3,
                 broken: set[str] = frozenset()):
        self.by_channel, self.page, self.broken = by_channel, page, broken

    def places(self):
        return [Place("slack", "T1", c) for c in self.by_channel]

    def pages(self, place, oldest=None):
        if place.channel in self.broken:
            raise ConnectionError("history unavailable")
        items = sorted(self.by_channel[place.channel], key=lambda m: m.ts, reverse=True)
        items = [m for m in items if oldest is None or m.ts > oldest]
        for start in range(0, len(items), self.page):
            yield items[start:start + self.page]


class AsyncListHistory(ListHistory):
    """The same pages from an async source (a client on an event loop, like Discord's)."""

    async def pages(self, place, oldest=None):
        for page in super().pages(place, oldest):
            await asyncio.sleep(0)
            yield page


@pytest.fixture
def bot(tmp_path, embedder):
    settings = Settings(store=f"sqlite:///{tmp_path / 'b.sqlite3'}", anthropic_api_key=None)
    service = MemoryService.from_settings(settings, embedder=embedder)
    yield LurkerBot(service, RecordingSink(service), BotConfig(audit_log=tmp_path / "audit.jsonl"))
    service.close()


def history(channel: str, n: int) -> list[ChatMessage]:
    place = Place("slack", "T1", channel)
    out = [ChatMessage(place, f"{1000 + i}.000100", f"Host gamma{i} moved to rack {i} today.",
                       DAY + timedelta(minutes=i), MAYA) for i in range(n)]
    out.append(ChatMessage(place, "2000.000100", "I don't have anything about that in memory.",
                           DAY + timedelta(hours=1), LURKER))
    return out


def test_backfill_pages_oldest_first_and_twice_adds_nothing(bot):
    source = ListHistory({"C1": history("C1", 7)})
    assert isinstance(source, HistorySource)
    stream = io.StringIO()
    report = backfill(bot, source, Place("slack", "T1", "C1"),
                      progress=Progress(stream, enabled=True, every_s=0))
    assert (report.fetched, report.handed_on, report.ignored, report.already_stored) == \
        (8, 7, 1, 0)
    assert [e.ts for e in bot.sink.events] == sorted(e.ts for e in bot.sink.events)
    assert "fetching" in stream.getvalue() and report.line() in stream.getvalue()
    stored = list(bot.service.store.iter_messages("slack:T1:C1"))
    assert len(stored) == 7 and all(m.author == "maya (U1)" for m in stored)
    again = backfill(bot, source, Place("slack", "T1", "C1"))
    assert (again.handed_on, again.already_stored) == (0, 7) and len(bot.sink.events) == 7
    later = backfill(bot, source, Place("slack", "T1", "C1"), oldest=DAY + timedelta(minutes=5))
    assert later.fetched == 2 and later.handed_on == 0


def test_one_failing_channel_does_not_stop_the_others(bot):
    source = ListHistory({"C1": history("C1", 2), "C2": history("C2", 3)}, broken={"C1"})
    reports = backfill_all(bot, source)
    assert [r.place for r in reports] == ["slack:T1:C1", "slack:T1:C2"]
    assert reports[0].errors == ["ConnectionError: history unavailable"]
    assert reports[1].handed_on == 3 and isinstance(reports[1], BackfillReport)


def test_an_async_source_takes_the_same_path(bot):
    source = AsyncListHistory({"C1": history("C1", 7), "C2": history("C2", 2)}, broken={"C2"})
    threads = []

    async def on_a_lane(call):  # what an adapter passes: its own ingestion thread
        threads.append(call)
        return await asyncio.to_thread(call)
    report = asyncio.run(backfill_async(bot, source, Place("slack", "T1", "C1"),
                                        run_sync=on_a_lane))
    assert (report.fetched, report.handed_on, report.ignored, report.already_stored) == \
        (8, 7, 1, 0)
    assert len(threads) == 1
    assert [e.ts for e in bot.sink.events] == sorted(e.ts for e in bot.sink.events)
    reports = asyncio.run(backfill_all_async(bot, source, source.places()))
    assert [(r.handed_on, r.already_stored, r.covered) for r in reports] == [(0, 7, 7), (0, 0, 0)]
    assert reports[1].errors == ["ConnectionError: history unavailable"]

