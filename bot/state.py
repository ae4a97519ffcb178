"""What the bot itself must remember across restarts, with an expiry: the chat events it has
already handled (Slack retries one with the same `event_id`, a reconnecting Discord gateway may
replay a message) and the forget confirmations still waiting for an answer.

One small SQLite file (WAL, one row per key, `expires` in Unix seconds), by default beside the
audit log (`bot-state.sqlite3`), or `state = "<path>"` in the bot config. It is not the memory
store: the bot never touches the engine's store, and this works the same with the embedded SQLite
store and with Elasticsearch. Every call opens its own connection, so threads share nothing.
"""
from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

SWEEP_CHANCE = 0.002
SEEN_TTL_S = 24 * 3600  # Slack retries within minutes; a day covers a restart and a replay

_SCHEMA = """CREATE TABLE IF NOT EXISTS bot_state (
    key TEXT PRIMARY KEY, value TEXT NOT NULL, expires REAL NOT NULL)"""


class BotState:
    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.clock = clock
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.execute("PRAGMA synchronous=NORMAL")  # WAL: durable across a crash of the bot
        return db

    def _run(self, fn):
        db = self._connect()
        try:
            return fn(db)
        finally:
            db.close()

    def claim(self, key: str, ttl: float = SEEN_TTL_S) -> bool:
        """True the first time `key` is claimed (until it expires), False on every repeat."""
        now = self.clock()

        def go(db):
            db.execute("BEGIN IMMEDIATE")
            try:
                if random.random() < SWEEP_CHANCE:  # now and then, everything expired
                    db.execute("DELETE FROM bot_state WHERE expires < ?", (now,))
                db.execute("DELETE FROM bot_state WHERE key = ? AND expires < ?", (key, now))
                cur = db.execute("INSERT OR IGNORE INTO bot_state VALUES (?, '1', ?)",
                                 (key, now + ttl))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return cur.rowcount == 1
        return self._run(go)

    def put(self, key: str, value: dict, ttl: float) -> None:
        self._run(lambda db: db.execute("INSERT OR REPLACE INTO bot_state VALUES (?, ?, ?)",
                                        (key, json.dumps(value), self.clock() + ttl)))

    def get(self, key: str) -> dict | None:
        row = self._run(lambda db: db.execute(
            "SELECT value FROM bot_state WHERE key = ? AND expires >= ?",
            (key, self.clock())).fetchone())
        return json.loads(row[0]) if row else None

    def take(self, key: str) -> dict | None:
        """Remove `key` and return what it held (None if it had gone or expired): exactly one
        caller gets it."""
        now = self.clock()

        def go(db):
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT value, expires FROM bot_state WHERE key = ?",
                                 (key,)).fetchone()
                db.execute("DELETE FROM bot_state WHERE key = ?", (key,))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return json.loads(row[0]) if row and row[1] >= now else None
        return self._run(go)

    def items(self, prefix: str) -> list[tuple[str, dict]]:
        rows = self._run(lambda db: db.execute(
            "SELECT key, value FROM bot_state WHERE key >= ? AND key < ? AND expires >= ? "
            "ORDER BY rowid", (prefix, prefix + "\uffff", self.clock())).fetchall())
        return [(k, json.loads(v)) for k, v in rows]

    def sweep(self) -> None:
        self._run(lambda db: db.execute("DELETE FROM bot_state WHERE expires < ?",
                                        (self.clock(),)))
