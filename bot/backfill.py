"""Paging a channel's history in: one path for every platform.

A platform implements `HistorySource` (Slack: conversations.history + conversations.replies in
bot/slack_app.py), or `AsyncHistorySource` when its client lives on an event loop (Discord:
channel.history in bot/discord_app.py). `backfill` / `backfill_async` fetch every page first, then
hand the messages to the bot's sink oldest first (Slack pages newest first, and a later statement
must supersede an earlier one, not the other way round), skipping what the store already holds by
external id, so running it twice adds nothing. Rate limits are the source's business (it waits
out a 429's Retry-After).
"""
from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, TextIO, runtime_checkable

from .contract import ChatMessage, Place
from .core import LurkerBot

log = logging.getLogger("lurker.backfill")

BATCH = 200  # events per sink publish


@runtime_checkable
class HistorySource(Protocol):
    """One platform's message history."""

    def places(self) -> Iterable[Place]:
        """The channels the bot can read (what `lurker backfill` pages in by default)."""
        ...

    def pages(self, place: Place, oldest: datetime | None = None) -> Iterator[list[ChatMessage]]:
        """The channel's messages and thread replies since `oldest`, a page at a time, in any
        order; the bot's own messages may be included (the bot filters them)."""
        ...


class AsyncHistorySource(Protocol):
    """The same for a client on an event loop (the channels to page are given by the caller)."""

    def pages(self, place: Place, oldest: datetime | None = None
              ) -> AsyncIterator[list[ChatMessage]]: ...


class Progress:
    """A one-line progress bar on a terminal (`lurker backfill`), silent otherwise."""

    def __init__(self, stream: TextIO | None = None, enabled: bool | None = None,
                 every_s: float = 0.2):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.every_s = every_s
        self._last = 0.0

    def update(self, label: str, done: int, total: int | None = None, *,
               force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < self.every_s:
            return
        self._last = now
        if total:
            filled = int(24 * done / total)
            bar = f"[{'#' * filled}{'.' * (24 - filled)}] {done}/{total}"
        else:
            bar = f"{done}"
        self.stream.write(f"\r{label} {bar}\x1b[K")
        self.stream.flush()

    def done(self, line: str) -> None:
        if self.enabled:
            self.stream.write(f"\r{line}\x1b[K\n")
            self.stream.flush()


@dataclass
class BackfillReport:
    place: str
    profile: str
    fetched: int = 0  # messages the platform returned
    handed_on: int = 0  # new messages put on the sink
    already_stored: int = 0
    ignored: int = 0  # the bot's own, other bots', blank or system messages
    errors: list[str] = field(default_factory=list)

    @property
    def covered(self) -> int:
        """The channel's messages that are now stored, or handed on to be: new plus stored."""
        return self.handed_on + self.already_stored

    def line(self) -> str:
        return (f"{self.place} -> {self.profile}: {self.fetched} fetched, {self.handed_on} new, "
                f"{self.already_stored} already stored, {self.ignored} ignored")


def backfill(bot: LurkerBot, source: HistorySource, place: Place, *,
             oldest: datetime | None = None, progress: Progress | None = None) -> BackfillReport:
    """Page one channel's history into the bot's sink (see the module docstring)."""
    run = _Backfill(bot, place, progress)
    for page in source.pages(place, oldest):
        run.take(page)
    return run.hand_on()


async def backfill_async(bot: LurkerBot, source: AsyncHistorySource, place: Place, *,
                         oldest: datetime | None = None, progress: Progress | None = None,
                         run_sync: Callable[[Callable[[], BackfillReport]],
                                            Awaitable[BackfillReport]] | None = None
                         ) -> BackfillReport:
    """`backfill` for an async source: the pages are fetched on the event loop, the engine work
    runs through `run_sync` (default: a worker thread; an adapter passes its ingestion lane so the
    history is ordered with live messages)."""
    run = _Backfill(bot, place, progress)
    async for page in source.pages(place, oldest):
        run.take(page)
    return await (run_sync or asyncio.to_thread)(run.hand_on)


class _Backfill:
    """One channel: pages taken in, then the new messages handed to the sink oldest first."""

    def __init__(self, bot: LurkerBot, place: Place, progress: Progress | None):
        self.bot, self.place = bot, place
        self.profile = bot.profile_for(place)
        self.report = BackfillReport(place=place.key, profile=self.profile)
        self.progress = progress or Progress(enabled=False)
        self.seen: dict[str, ChatMessage] = {}

    def take(self, page: list[ChatMessage]) -> None:
        self.report.fetched += len(page)
        for message in page:
            self.seen.setdefault(message.external_id, message)
        self.progress.update(f"{self.place.key}: fetching", self.report.fetched)

    def hand_on(self) -> BackfillReport:
        bot, report, key = self.bot, self.report, self.place.key
        wanted = sorted((m for m in self.seen.values() if bot.ingestible(m)), key=lambda m: m.ts)
        report.ignored = len(self.seen) - len(wanted)
        stored = bot.service.profile(self.profile).known_external_ids(
            m.external_id for m in wanted)
        fresh = [m for m in wanted if m.external_id not in stored]
        report.already_stored = len(wanted) - len(fresh)
        for start in range(0, len(fresh), BATCH):
            events = [e for m in fresh[start:start + BATCH] for e in [bot.created_event(m)]
                      if e is not None]
            if events:
                bot.sink.publish(events)
            report.handed_on += len(events)
            self.progress.update(f"{key}: storing", start + len(events), len(fresh))
        self.progress.done(report.line())
        return report


def backfill_all(bot: LurkerBot, source: HistorySource, places: Iterable[Place] | None = None,
                 *, oldest: datetime | None = None,
                 progress: Progress | None = None) -> list[BackfillReport]:
    """Every readable channel (or the ones given); one channel's failure does not stop the rest."""
    reports = []
    for place in (source.places() if places is None else places):
        try:
            reports.append(backfill(bot, source, place, oldest=oldest, progress=progress))
        except Exception as exc:  # noqa: BLE001 - reported, and the next channel goes on
            reports.append(_failed(bot, place, exc))
    return reports


async def backfill_all_async(bot: LurkerBot, source: AsyncHistorySource, places: Iterable[Place],
                             *, oldest: datetime | None = None, progress: Progress | None = None,
                             run_sync=None) -> list[BackfillReport]:
    """backfill_all for an async source."""
    reports = []
    for place in places:
        try:
            reports.append(await backfill_async(bot, source, place, oldest=oldest,
                                                progress=progress, run_sync=run_sync))
        except Exception as exc:  # noqa: BLE001 - reported, and the next channel goes on
            reports.append(_failed(bot, place, exc))
    return reports


def _failed(bot: LurkerBot, place: Place, exc: Exception) -> BackfillReport:
    log.warning("backfill of %s failed", place.key, exc_info=exc)
    report = BackfillReport(place=place.key, profile=bot.profile_for(place))
    report.errors.append(f"{type(exc).__name__}: {exc}")
    return report
