"""The embedded store: one SQLite file with FTS5 (porter stemming) for full text and float32 vectors
beside it, searched exactly with numpy (fast enough for one machine's profiles: 10k memories is a
single 10k x 384 matrix product)."""
from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from datetime import date, datetime, timezone
from pathlib import Path

import numpy as np

from ..errors import EmbeddingMismatch, StoreBusy, StoreUnavailable
from ..models import Memory, Message, Passage
from ..passages import PASSAGE_CHARS, is_long, split_passages
from ..standing import is_standing_rule
from .base import (CH_ASKER_TEXT, CH_ASKER_VECTOR, CH_DATE, CH_HYDE, CH_INSTRUCTION,
                   CH_MEMORY_TEXT, CH_MESSAGE_TEXT, CH_PASSAGE_TEXT, CH_PASSAGE_VECTOR,
                   CH_SESSION_TEXT, CH_TOPIC, CH_VECTOR, INSTRUCTION_K,
                   INSTRUCTION_MIN_SIMILARITY, INSTRUCTION_SCAN, SESSION_DOC_MESSAGES,
                   EmbeddingSpec, Hit, SearchRequest, Store, dated_then_said, said_within,
                   span_utc_bounds)

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
    profile TEXT NOT NULL, id TEXT NOT NULL, ts TEXT NOT NULL, session_id TEXT NOT NULL,
    seq INTEGER NOT NULL, doc TEXT NOT NULL, external_id TEXT, PRIMARY KEY (profile, id));
CREATE INDEX IF NOT EXISTS messages_order ON messages (profile, ts, session_id, seq);
-- messages_external (profile, external_id) is created by open(), after it adds the column to a
-- file made before external ids existed.
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
    profile UNINDEXED, id UNINDEXED, content, tokenize = 'porter unicode61');
CREATE TABLE IF NOT EXISTS memories (
    profile TEXT NOT NULL, id TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL,
    topic_key TEXT, created_at TEXT NOT NULL, event_time TEXT, doc TEXT NOT NULL,
    PRIMARY KEY (profile, id));
CREATE INDEX IF NOT EXISTS memories_topic ON memories (profile, topic_key, status);
CREATE INDEX IF NOT EXISTS memories_order ON memories (profile, created_at, id);
CREATE INDEX IF NOT EXISTS memories_by_type ON memories (profile, type, status, id);
-- One row per (memory, source message), rewritten with the memory by upsert_memories.
CREATE TABLE IF NOT EXISTS memory_sources (
    profile TEXT NOT NULL, memory_id TEXT NOT NULL, message_id TEXT NOT NULL,
    PRIMARY KEY (profile, memory_id, message_id));
CREATE INDEX IF NOT EXISTS memory_sources_message ON memory_sources (profile, message_id);
-- What each active memory is about in time (Memory.event_dates, days as ISO text), for the date
-- channel: "anything planned for December?" finds the memories dated in it, though none of them
-- was said then. Rewritten with the memory by upsert_memories.
CREATE TABLE IF NOT EXISTS memory_dates (
    profile TEXT NOT NULL, memory_id TEXT NOT NULL, start TEXT NOT NULL, end TEXT NOT NULL);
-- (by end: the spans asked about are mostly recent or to come, so few rows end after one starts)
CREATE INDEX IF NOT EXISTS memory_dates_span ON memory_dates (profile, end);
CREATE INDEX IF NOT EXISTS memory_dates_memory ON memory_dates (profile, memory_id);
-- Only active memories are in the full-text index: recall never sees superseded/forgotten ones.
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
    profile UNINDEXED, id UNINDEXED, body, tokenize = 'porter unicode61');
CREATE TABLE IF NOT EXISTS vectors (
    profile TEXT NOT NULL, id TEXT NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (profile, id));
-- Passages of raw messages (memory.passages): BM25 over those of long messages, vectors for all.
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
    profile UNINDEXED, id UNINDEXED, idx UNINDEXED, start UNINDEXED, end UNINDEXED, body,
    tokenize = 'porter unicode61');
CREATE TABLE IF NOT EXISTS passage_vectors (
    profile TEXT NOT NULL, id TEXT NOT NULL, idx INTEGER NOT NULL, start INTEGER NOT NULL,
    end INTEGER NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (profile, id, idx));
-- One full-text document per session (session_text): the text of its searchable messages,
-- rebuilt whenever one of them is stored, deleted or suppressed. Its rowid is its session's.
CREATE TABLE IF NOT EXISTS sessions (
    profile TEXT NOT NULL, session_id TEXT NOT NULL, PRIMARY KEY (profile, session_id));
CREATE VIRTUAL TABLE IF NOT EXISTS sessions_fts USING fts5(
    profile UNINDEXED, session_id UNINDEXED, body, tokenize = 'porter unicode61');
CREATE INDEX IF NOT EXISTS messages_session ON messages (profile, session_id);
CREATE INDEX IF NOT EXISTS messages_session_ts ON messages (profile, session_id, ts);
-- The asker channels find a person's own messages by their stored author.
CREATE INDEX IF NOT EXISTS messages_author ON messages (profile, json_extract(doc, '$.author'));
-- A profile's generation of vectors, of passage vectors and of memories, bumped by triggers on
-- every write whichever process makes it: a reader's cached matrix (or its instruction rows) is
-- stale once the generation moved (the worker's processes write what the API's process searches).
CREATE TABLE IF NOT EXISTS vector_generations (
    profile TEXT NOT NULL, kind TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (profile, kind));
""" + "".join(
    f"CREATE TRIGGER IF NOT EXISTS {table}_{event.lower()} AFTER {event} ON {table} BEGIN\n"
    f"    INSERT INTO vector_generations VALUES ({row}.profile, '{table}', 1)\n"
    f"    ON CONFLICT (profile, kind) DO UPDATE SET n = n + 1; END;\n"
    for table in ("vectors", "passage_vectors", "memories")
    for event, row in (("INSERT", "new"), ("UPDATE", "new"), ("DELETE", "old")))

_WORD = re.compile(r"\w+", re.UNICODE)
# Function words only add noise to an OR query's BM25 ranking.
_QUERY_STOP = {"a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "is", "are", "was",
               "were", "be", "do", "did", "does", "what", "when", "where", "who", "which", "how", "why",
               "we", "i", "you", "it", "that", "this", "with", "about", "from", "by", "as", "has",
               "have", "had", "any", "there", "their", "our", "my", "your", "me", "us", "not", "but",
               "can", "could", "would", "should", "will", "its", "so", "if", "then", "than"}


def fts_query(text: str) -> str | None:
    """Free text -> an FTS5 OR query of quoted terms (quoting keeps user input from being syntax)."""
    terms = [t for t in _WORD.findall(text.lower()) if t not in _QUERY_STOP]
    unique = list(dict.fromkeys(terms))[:32]
    return " OR ".join(f'"{t}"' for t in unique) or None


class _Connection(sqlite3.Connection):
    """A connection whose "database is busy/locked" errors (another process held the write lock
    past the busy timeout) come out as StoreBusy, the typed transient error writers retry; every
    other error is left as it is. Told apart by SQLite's own result code, not the message."""

    location = ""

    def _busy(self, exc: sqlite3.OperationalError) -> Exception:
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF in (sqlite3.SQLITE_BUSY,
                                                         sqlite3.SQLITE_LOCKED):
            return StoreBusy(f"{self.location} stayed locked by another writer: {exc}")
        return exc

    def execute(self, *args):
        try:
            return super().execute(*args)
        except sqlite3.OperationalError as exc:
            raise self._busy(exc) from None

    def executemany(self, *args):
        try:
            return super().executemany(*args)
        except sqlite3.OperationalError as exc:
            raise self._busy(exc) from None

    def executescript(self, *args):
        try:
            return super().executescript(*args)
        except sqlite3.OperationalError as exc:
            raise self._busy(exc) from None


def similarities(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """matrix @ vector on this thread: BLAS splits a matrix-vector product over its own threads,
    which on a busy machine waits for a core (measured at load 2.4 on 2 cores, 10k x 384:
    p95 9.9 ms through BLAS, 0.9 ms with einsum, same p50 0.7 ms)."""
    return np.einsum("ij,j->i", matrix, np.asarray(vector, dtype=np.float32))


def best_rows(scores: np.ndarray, n: int) -> np.ndarray:
    """The rows of the n best scores and of any tied with the n-th, best first, ties in row
    order: the head of a stable descending sort, without sorting every row."""
    if n >= len(scores):
        return np.argsort(-scores, kind="stable")
    if n <= 0:
        return np.zeros(0, dtype=np.intp)
    nth = np.partition(scores, len(scores) - n)[len(scores) - n]
    rows = np.flatnonzero(scores >= nth)
    return rows[np.argsort(-scores[rows], kind="stable")]


def memory_body(memory: Memory) -> str:
    return "\n".join([memory.content, *memory.questions])


class SQLiteStore(Store):
    def __init__(self, path: str | Path, busy_timeout_s: float = 5.0):
        self.path = Path(path).expanduser()
        self.location = f"sqlite:///{self.path}"
        self.busy_timeout_s = busy_timeout_s  # a write waits this long for another writer
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        self._vector_cache: dict[str, tuple[list[str], np.ndarray]] = {}
        # until the next passage write: profile -> (passage keys (message id, idx, start, end)
        # sorted by id, their vectors, the keys' message ids: a message's passages are one run
        # of rows, found by bisection)
        self._passage_cache: dict[str, tuple[list[tuple[str, int, int, int]], np.ndarray,
                                             list[str]]] = {}
        # profile -> (the ids list of its cached vector matrix, id -> row in it): rebuilt when the
        # matrix is (a new ids list)
        self._vector_rows: dict[str, tuple[list[str], dict[str, int]]] = {}
        # instruction memory id -> whether its text is a standing rule; ids are content-addressed,
        # so an entry never goes stale (read and written under _lock, by searches)
        self._standing: dict[str, bool] = {}
        # (profile, table) -> the table's generation (vector_generations) the cached matrix of
        # the profile was read at
        self._generations: dict[tuple[str, str], int] = {}
        # profile -> (its memories' generation, the ids list of the vector matrix, the rows of
        # its active instructions in that matrix) (_instruction_rows)
        self._instructions: dict[str, tuple[int, list[str], np.ndarray]] = {}

    # --- lifecycle ------------------------------------------------------------------------
    def open(self, embedding: EmbeddingSpec) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                 timeout=self.busy_timeout_s, factory=_Connection)
            db.location = self.location
        except (OSError, sqlite3.Error) as exc:
            raise StoreUnavailable(f"cannot open the embedded store at {self.path}: {exc}") from None
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        # a deleted message's or forgotten memory's text is overwritten, not left in free pages
        db.execute("PRAGMA secure_delete=ON")
        had_sources = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                 "name = 'memory_sources'").fetchone() is not None
        had_passages = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                  "name = 'passages_fts'").fetchone() is not None
        had_dates = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                               "name = 'memory_dates'").fetchone() is not None
        db.executescript(_SCHEMA)
        self._upgrade(db, had_sources, had_passages, had_dates)
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        if "embedding_model" in meta:
            stored = (meta["embedding_model"], int(meta["embedding_dims"]))
            if stored != (embedding.name, embedding.dim):
                db.close()
                raise EmbeddingMismatch(
                    f"{self.location} holds vectors from {stored[0]} ({stored[1]} dims) but the "
                    f"configured embedder is {embedding.name} ({embedding.dim} dims): export and "
                    f"re-import the profiles into a new store to reindex")
        else:
            db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
                ("schema_version", str(SCHEMA_VERSION)), ("embedding_model", embedding.name),
                ("embedding_dims", str(embedding.dim))])
        self._db = db
        self.dim = embedding.dim

    @staticmethod
    def _upgrade(db: sqlite3.Connection, had_sources: bool, had_passages: bool = True,
                 had_dates: bool = True) -> None:
        """Bring a file made before chat edits/deletes up to the schema (idempotent, cheap when
        nothing is missing): the messages.external_id column and the memory_sources table, both
        filled from the stored documents; the BM25 passages of long messages stored before
        passages existed (their passage vectors come with a re-import); and the full-text rows of
        memories and messages keyed by their records' rowids (once each, marked in `meta`)."""
        db.execute("BEGIN IMMEDIATE")
        try:
            columns = {row[1] for row in db.execute("PRAGMA table_info(messages)")}
            if "external_id" not in columns:
                db.execute("ALTER TABLE messages ADD COLUMN external_id TEXT")
                db.execute("UPDATE messages SET external_id = json_extract(doc, '$.external_id')")
            db.execute("CREATE INDEX IF NOT EXISTS messages_external ON messages "
                       "(profile, external_id)")
            if not had_sources:
                db.execute("INSERT OR IGNORE INTO memory_sources SELECT m.profile, m.id, s.value "
                           "FROM memories m, json_each(m.doc, '$.source_message_ids') s")
            if not had_dates:
                db.execute("INSERT INTO memory_dates SELECT m.profile, m.id, "
                           "json_extract(d.value, '$.start'), json_extract(d.value, '$.end') "
                           "FROM memories m, json_each(m.doc, '$.event_dates') d "
                           "WHERE m.status = 'active'")
            if not had_passages:
                for profile, id_, content in db.execute(
                        "SELECT profile, id, json_extract(doc, '$.content') FROM messages "
                        f"WHERE length(json_extract(doc, '$.content')) > {PASSAGE_CHARS} "
                        "AND NOT coalesce(json_extract(doc, '$.suppressed'), 0)"
                        ).fetchall():
                    if is_long(content):
                        db.executemany("INSERT INTO passages_fts VALUES (?, ?, ?, ?, ?, ?)",
                                       [(profile, id_, i, a, b, content[a:b]) for i, (a, b)
                                        in enumerate(split_passages(content))])
            for table, text in (("memories", "body"), ("messages", "content")):
                if db.execute("SELECT 1 FROM meta WHERE key = ?",
                              (f"{table}_fts_rowids",)).fetchone() is None:
                    # full-text rows renumbered to the rowids of their memories / messages
                    db.execute(f"CREATE TEMP TABLE fts_copy AS SELECT profile, id, {text} "
                               f"FROM {table}_fts")
                    db.execute(f"DELETE FROM {table}_fts")
                    db.execute(f"INSERT INTO {table}_fts (rowid, profile, id, {text}) SELECT "
                               f"t.rowid, c.profile, c.id, c.{text} FROM fts_copy c JOIN {table} "
                               f"t ON t.profile = c.profile AND t.id = c.id")
                    db.execute("DROP TABLE fts_copy")
                    db.execute("INSERT INTO meta VALUES (?, '1')", (f"{table}_fts_rowids",))
            if db.execute("SELECT 1 FROM meta WHERE key = 'sessions_fts'").fetchone() is None:
                # a file from before session_text: every session's document, once
                for profile, session_id in db.execute(
                        "SELECT DISTINCT profile, session_id FROM messages").fetchall():
                    SQLiteStore._rebuild_sessions(db, profile, [session_id])
                db.execute("INSERT INTO meta VALUES ('sessions_fts', '1')")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreUnavailable(f"{self.location} is not open")
        return self._db

    def _write(self, statements: Iterable[tuple[str, Iterable]]) -> None:
        """Run several statements as one transaction."""
        with self._transaction() as db:
            for sql, params in statements:
                db.executemany(sql, params)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on any error)."""
        with self._lock:
            db = self.db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    @staticmethod
    def _id_chunks(ids: list[str]) -> Iterator[tuple[list[str], str]]:
        """The ids in chunks of 500 (SQLite's bound-parameter limit), each with its "?,?,…"."""
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            yield chunk, ",".join("?" * len(chunk))

    @staticmethod
    def _rebuild_sessions(db: sqlite3.Connection, profile: str, session_ids: Iterable[str]
                          ) -> None:
        """Rewrite the session_text documents of these sessions from their messages' full-text
        rows (so suppressed and deleted messages are left out); inside the caller's
        transaction."""
        for session_id in dict.fromkeys(session_ids):
            row = db.execute("SELECT rowid FROM sessions WHERE profile = ? AND session_id = ?",
                             (profile, session_id)).fetchone()
            if row:
                db.execute("DELETE FROM sessions_fts WHERE rowid = ?", row)
            texts = [t for (t,) in db.execute(
                "SELECT f.content FROM messages m JOIN messages_fts f ON f.rowid = m.rowid "
                "WHERE m.profile = ? AND m.session_id = ? ORDER BY m.ts, m.seq, m.id LIMIT ?",
                (profile, session_id, SESSION_DOC_MESSAGES))]
            if not texts:
                db.execute("DELETE FROM sessions WHERE profile = ? AND session_id = ?",
                           (profile, session_id))
                continue
            if row is None:
                row = (db.execute("INSERT INTO sessions VALUES (?, ?)",
                                  (profile, session_id)).lastrowid,)
            db.execute("INSERT INTO sessions_fts (rowid, profile, session_id, body) "
                       "VALUES (?, ?, ?, ?)", (row[0], profile, session_id, "\n".join(texts)))

    # --- messages -------------------------------------------------------------------------
    def insert_messages(self, profile: str, messages: list[Message]) -> set[str]:
        created: set[str] = set()
        with self._lock:
            db = self.db
            db.execute("BEGIN IMMEDIATE")
            try:
                for m in messages:
                    cur = db.execute(
                        "INSERT OR IGNORE INTO messages (profile, id, ts, session_id, seq, doc, "
                        "external_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (profile, m.id, m.ts.isoformat(), m.session_id, m.seq, m.model_dump_json(),
                         m.external_id))
                    if cur.rowcount == 1:
                        created.add(m.id)
                        if not m.suppressed:  # suppressed ones are never searchable
                            db.execute("INSERT INTO messages_fts (rowid, profile, id, content) "
                                       "VALUES (?, ?, ?, ?)",
                                       (cur.lastrowid, profile, m.id, m.content))
                            if is_long(m.content):
                                db.executemany(
                                    "INSERT INTO passages_fts VALUES (?, ?, ?, ?, ?, ?)",
                                    [(profile, m.id, i, a, b, m.content[a:b])
                                     for i, (a, b) in enumerate(split_passages(m.content))])
                self._rebuild_sessions(db, profile, [m.session_id for m in messages
                                                     if m.id in created and not m.suppressed])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return created

    def get_messages(self, profile: str, ids: Iterable[str]) -> list[Message]:
        return [Message.model_validate_json(d) for d in self._docs("messages", profile, ids)]

    def iter_messages(self, profile: str) -> Iterator[Message]:
        with self._lock:
            rows = self.db.execute(
                "SELECT doc FROM messages WHERE profile = ? ORDER BY ts, session_id, seq",
                (profile,)).fetchall()
        for (doc,) in rows:
            yield Message.model_validate_json(doc)

    def messages_before(self, profile: str, session_id: str, before: datetime,
                        limit: int = 5) -> list[Message]:
        with self._lock:
            rows = self.db.execute(
                "SELECT doc FROM messages WHERE profile = ? AND session_id = ? AND ts < ? "
                "ORDER BY ts DESC, seq DESC, id DESC LIMIT ?",
                (profile, session_id, (before if before.tzinfo else before.replace(
                    tzinfo=timezone.utc)).astimezone(timezone.utc).isoformat(), limit)).fetchall()
        return [Message.model_validate_json(doc) for (doc,) in rows]

    def find_messages_by_external_id(self, profile: str,
                                     external_ids: Iterable[str]) -> dict[str, Message]:
        keys = list(dict.fromkeys(k for k in external_ids if k))
        found: dict[str, Message] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                rows = self.db.execute(
                    f"SELECT external_id, doc FROM messages WHERE profile = ? AND external_id IN "
                    f"({','.join('?' * len(chunk))}) ORDER BY ts, session_id, seq, id",
                    (profile, *chunk)).fetchall()
                for key, doc in rows:  # ascending, so the newest per id wins
                    found[key] = Message.model_validate_json(doc)
        return found

    def delete_memories(self, profile: str, ids: Iterable[str]) -> None:
        keys = [(profile, i) for i in dict.fromkeys(ids)]
        with self._lock:
            self._write([
                ("DELETE FROM memories_fts WHERE rowid = "
                 "(SELECT rowid FROM memories WHERE profile = ? AND id = ?)", keys),
                ("DELETE FROM memories WHERE profile = ? AND id = ?", keys),
                ("DELETE FROM memory_sources WHERE profile = ? AND memory_id = ?", keys),
                ("DELETE FROM memory_dates WHERE profile = ? AND memory_id = ?", keys),
                ("DELETE FROM vectors WHERE profile = ? AND id = ?", keys)])
            self._vector_cache.pop(profile, None)

    def profiles(self) -> list[str]:
        with self._lock:
            return [p for (p,) in self.db.execute(
                "SELECT profile FROM messages UNION SELECT profile FROM memories ORDER BY 1")]

    def expunge(self, profile: str) -> None:
        # FTS5 keeps a deleted row's terms in its older index segments until they are merged;
        # "optimize" merges them all (for every profile: the tables are shared), secure_delete
        # zeroes the freed pages, and the checkpoint empties the write-ahead log of old pages.
        with self._lock:
            for table in ("messages_fts", "memories_fts", "passages_fts", "sessions_fts"):
                self.db.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def delete_messages(self, profile: str, ids: Iterable[str]) -> set[str]:
        removed: set[str] = set()
        with self._transaction() as db:
            for chunk, marks in self._id_chunks(list(dict.fromkeys(ids))):
                found = db.execute(f"SELECT id, session_id FROM messages WHERE profile = ? AND "
                                   f"id IN ({marks})", (profile, *chunk)).fetchall()
                existing = [i for i, _ in found]
                if not existing:
                    continue
                marks = ",".join("?" * len(existing))
                db.execute("DELETE FROM messages_fts WHERE rowid IN (SELECT rowid FROM messages "
                           f"WHERE profile = ? AND id IN ({marks}))", (profile, *existing))
                for table in ("messages", "passages_fts", "passage_vectors"):
                    db.execute(f"DELETE FROM {table} WHERE profile = ? AND id IN ({marks})",
                               (profile, *existing))
                self._rebuild_sessions(db, profile, [session for _, session in found])
                removed.update(existing)
            if removed:
                self._passage_cache.pop(profile, None)
        return removed

    def suppress_messages(self, profile: str, ids: Iterable[str]) -> set[str]:
        suppressed: set[str] = set()
        sessions: set[str] = set()
        with self._transaction() as db:
            for chunk, marks in self._id_chunks(list(dict.fromkeys(ids))):
                for message_id_, doc in db.execute(
                        f"SELECT id, doc FROM messages WHERE profile = ? AND id IN ({marks})",
                        (profile, *chunk)).fetchall():
                    message = Message.model_validate_json(doc)
                    if message.suppressed:
                        continue
                    message.suppressed = True
                    db.execute("UPDATE messages SET doc = ? WHERE profile = ? AND id = ?",
                               (message.model_dump_json(), profile, message_id_))
                    db.execute("DELETE FROM messages_fts WHERE rowid = (SELECT rowid FROM "
                               "messages WHERE profile = ? AND id = ?)", (profile, message_id_))
                    for table in ("passages_fts", "passage_vectors"):
                        db.execute(f"DELETE FROM {table} WHERE profile = ? AND id = ?",
                                   (profile, message_id_))
                    sessions.add(message.session_id)
                    suppressed.add(message_id_)
            self._rebuild_sessions(db, profile, sessions)  # once each, after all are out
            if suppressed:
                self._passage_cache.pop(profile, None)
        return suppressed

    def _docs(self, table: str, profile: str, ids: Iterable[str]) -> list[str]:
        ids = list(dict.fromkeys(ids))
        out: list[str] = []
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                marks = ",".join("?" * len(chunk))
                out += [d for (d,) in self.db.execute(
                    f"SELECT doc FROM {table} WHERE profile = ? AND id IN ({marks})",
                    (profile, *chunk))]
        return out

    # --- memories -------------------------------------------------------------------------
    def upsert_memories(self, profile: str, memories: list[Memory]) -> None:
        rows = [(profile, m.id, m.type, m.status, m.topic_key, m.created_at.isoformat(),
                 m.event_time.isoformat() if m.event_time else None, m.model_dump_json())
                for m in memories]
        ids = [(profile, m.id) for m in memories]
        active = [(profile, m.id, memory_body(m), profile, m.id) for m in memories
                  if m.status == "active"]
        sources = [(profile, m.id, s) for m in memories for s in m.source_message_ids]
        dated = [(profile, m.id, e.start.isoformat(), e.end.isoformat()) for m in memories
                 if m.status == "active" for e in m.event_dates]
        # A memory's full-text row has the memory's rowid (kept by the upsert), so it is found
        # by rowid: FTS5 cannot index `profile`/`id`, and deleting by them scanned the whole
        # index for every memory written (the ingest of a 100k-message profile slowed 3x).
        self._write([
            ("INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (profile, id) DO "
             "UPDATE SET type = excluded.type, status = excluded.status, topic_key = "
             "excluded.topic_key, created_at = excluded.created_at, event_time = "
             "excluded.event_time, doc = excluded.doc", rows),
            ("DELETE FROM memories_fts WHERE rowid = "
             "(SELECT rowid FROM memories WHERE profile = ? AND id = ?)", ids),
            ("INSERT INTO memories_fts (rowid, profile, id, body) SELECT rowid, ?, ?, ? "
             "FROM memories WHERE profile = ? AND id = ?", active),
            ("DELETE FROM memory_sources WHERE profile = ? AND memory_id = ?", ids),
            ("INSERT OR IGNORE INTO memory_sources VALUES (?, ?, ?)", sources),
            ("DELETE FROM memory_dates WHERE profile = ? AND memory_id = ?", ids),
            ("INSERT INTO memory_dates VALUES (?, ?, ?, ?)", dated),
        ])

    def get_memories(self, profile: str, ids: Iterable[str]) -> list[Memory]:
        return [Memory.model_validate_json(d) for d in self._docs("memories", profile, ids)]

    def memory_ids_by_prefix(self, profile: str, prefix: str, limit: int = 2) -> list[str]:
        # a range on the primary key (profile, id), not LIKE, which would scan the profile
        with self._lock:
            return [i for (i,) in self.db.execute(
                "SELECT id FROM memories WHERE profile = ? AND id >= ? AND id < ? ORDER BY id "
                "LIMIT ?", (profile, prefix, prefix + "\U0010ffff", limit))]

    def active_by_topic(self, profile: str, topic_keys: Iterable[str]) -> dict[str, Memory]:
        keys = list(dict.fromkeys(k for k in topic_keys if k))
        if not keys:
            return {}
        marks = ",".join("?" * len(keys))
        with self._lock:
            # Only the newest per key is read and parsed (a busy key holds thousands of versions
            # of chatter, and parsing them all made the topic channel grow with the profile).
            rows = self.db.execute(
                f"SELECT doc FROM (SELECT doc, created_at, id, row_number() OVER (PARTITION BY "
                f"topic_key ORDER BY created_at DESC, id DESC) AS newest FROM memories "
                f"WHERE profile = ? AND status = 'active' AND topic_key IN ({marks})) "
                f"WHERE newest = 1 ORDER BY created_at, id", (profile, *keys)).fetchall()
        found: dict[str, Memory] = {}
        for (doc,) in rows:
            memory = Memory.model_validate_json(doc)
            found[memory.topic_key] = memory
        return found

    def list_memories(self, profile: str, types: Iterable[str] | None = None,
                      include_inactive: bool = False, limit: int | None = None,
                      offset: int = 0, newest_first: bool = False) -> list[Memory]:
        sql = "SELECT doc FROM memories WHERE profile = ?"
        params: list = [profile]
        if types:
            types = list(types)
            sql += f" AND type IN ({','.join('?' * len(types))})"
            params += types
        if not include_inactive:
            sql += " AND status = 'active'"
        sql += (" ORDER BY created_at DESC, id DESC" if newest_first else " ORDER BY created_at, id") \
            + " LIMIT ? OFFSET ?"
        params += [-1 if limit is None else limit, offset]
        with self._lock:
            return [Memory.model_validate_json(d) for (d,) in self.db.execute(sql, params)]

    def memories_by_source(self, profile: str, message_ids: Iterable[str],
                           include_inactive: bool = False) -> list[Memory]:
        ids = list(dict.fromkeys(message_ids))
        found: dict[str, tuple[str, str]] = {}  # id -> (created_at, doc)
        status = "" if include_inactive else " AND m.status = 'active'"
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                # (the sources' message index first, then each memory by its key: left to
                # itself the planner walked every memory of the profile, 12 ms a read at 10k
                # memories against 0.01 ms)
                for memory_id_, created_at, doc in self.db.execute(
                        f"SELECT DISTINCT m.id, m.created_at, m.doc FROM memory_sources s "
                        f"INDEXED BY memory_sources_message "
                        f"CROSS JOIN memories m ON m.profile = s.profile AND m.id = s.memory_id "
                        f"WHERE s.profile = ? AND s.message_id IN ({','.join('?' * len(chunk))})"
                        f"{status}", (profile, *chunk)):
                    found[memory_id_] = (created_at, doc)
        ordered = sorted(found.items(), key=lambda item: (item[1][0], item[0]))
        return [Memory.model_validate_json(doc) for _, (_, doc) in ordered]

    def count(self, profile: str) -> dict[str, int]:
        with self._lock:
            def one(table: str) -> int:
                return self.db.execute(f"SELECT count(*) FROM {table} WHERE profile = ?",
                                       (profile,)).fetchone()[0]
            return {"messages": one("messages"), "memories": one("memories"),
                    "vectors": one("vectors")}

    # --- vectors --------------------------------------------------------------------------
    def set_vectors(self, profile: str, vectors: dict[str, np.ndarray]) -> None:
        with self._lock:
            known = {m.id for m in self.get_memories(profile, vectors)}
            rows = [(profile, i, np.asarray(v, dtype=np.float32).tobytes())
                    for i, v in vectors.items() if i in known]
            self._write([("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)])
            self._vector_cache.pop(profile, None)

    def delete_vectors(self, profile: str, ids: Iterable[str]) -> None:
        with self._lock:
            self._write([("DELETE FROM vectors WHERE profile = ? AND id = ?",
                          [(profile, i) for i in ids])])
            self._vector_cache.pop(profile, None)

    def vector_ids(self, profile: str) -> set[str]:
        with self._lock:
            return {i for (i,) in self.db.execute("SELECT id FROM vectors WHERE profile = ?",
                                                  (profile,))}

    def set_passage_vectors(self, profile: str, vectors: dict[str, np.ndarray]) -> None:
        with self._lock:
            rows = []
            for message in self.get_messages(profile, vectors):
                if message.suppressed:  # never searchable, by its vectors either
                    continue
                spans = split_passages(message.content)
                matrix = np.asarray(vectors[message.id], dtype=np.float32).reshape(-1, self.dim)
                if matrix.shape[0] != len(spans):
                    raise ValueError(f"message {message.id} has {len(spans)} passages, not "
                                     f"{matrix.shape[0]} vectors")
                rows += [(profile, message.id, i, a, b, matrix[i].tobytes())
                         for i, (a, b) in enumerate(spans)]
            self._write([("INSERT OR REPLACE INTO passage_vectors VALUES (?, ?, ?, ?, ?, ?)",
                          rows)])
            self._passage_cache.pop(profile, None)

    def passage_vector_ids(self, profile: str) -> set[str]:
        with self._lock:
            return {i for (i,) in self.db.execute(
                "SELECT DISTINCT id FROM passage_vectors WHERE profile = ?", (profile,))}

    def _generation(self, profile: str, table: str) -> int:
        """How many writes `table` (vectors, passage_vectors) has had for the profile, by any
        process (read before the rows it guards: a write in between only costs a re-read)."""
        row = self.db.execute("SELECT n FROM vector_generations WHERE profile = ? AND kind = ?",
                              (profile, table)).fetchone()
        return row[0] if row else 0

    def _fresh(self, cache: dict, profile: str, table: str) -> None:
        """Drop the profile's entry of `cache` when another connection wrote `table` since."""
        generation = self._generation(profile, table)
        if self._generations.get((profile, table)) != generation:
            cache.pop(profile, None)
            self._generations[(profile, table)] = generation

    def _passage_vectors(self, profile: str):
        self._fresh(self._passage_cache, profile, "passage_vectors")
        cached = self._passage_cache.get(profile)
        if cached is None:
            rows = self.db.execute(
                "SELECT id, idx, start, end, vec FROM passage_vectors WHERE profile = ? "
                "ORDER BY id, idx", (profile,)).fetchall()
            keys = [(r[0], r[1], r[2], r[3]) for r in rows]
            matrix = (np.frombuffer(b"".join(r[4] for r in rows), dtype=np.float32)
                      .reshape(len(rows), self.dim) if rows else np.zeros((0, self.dim), np.float32))
            cached = self._passage_cache[profile] = (keys, matrix, [key[0] for key in keys])
        return cached

    def _vectors(self, profile: str) -> tuple[list[str], np.ndarray]:
        """The profile's vector matrix, cached until the next vector write (by any process)."""
        self._fresh(self._vector_cache, profile, "vectors")
        cached = self._vector_cache.get(profile)
        if cached is None:
            rows = self.db.execute("SELECT id, vec FROM vectors WHERE profile = ? ORDER BY id",
                                   (profile,)).fetchall()
            ids = [r[0] for r in rows]
            matrix = (np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
                      .reshape(len(rows), self.dim) if rows else np.zeros((0, self.dim), np.float32))
            cached = self._vector_cache[profile] = (ids, matrix)
        return cached

    def _rows_of(self, profile: str, ids: list[str]) -> dict[str, int]:
        """id -> row of the profile's cached vector matrix whose ids are `ids`."""
        cached = self._vector_rows.get(profile)
        if cached is None or cached[0] is not ids:
            cached = self._vector_rows[profile] = (ids, {i: row for row, i in enumerate(ids)})
        return cached[1]

    # --- retrieval ------------------------------------------------------------------------
    text_while_embedding = True  # the text channels run first, while the question is embedded

    def search(self, profile: str, request: SearchRequest) -> dict[str, list[Hit]]:
        out: dict[str, list[Hit]] = {}
        with self._lock:
            db = self.db
            db.execute("BEGIN")  # one read transaction: every channel sees the same snapshot
            try:
                self._search_channels(profile, request, out)
            finally:
                db.execute("COMMIT")
        return {c: out[c] for c in request.channels if c in out}  # in the order asked

    def _search_channels(self, profile: str, request: SearchRequest,
                         out: dict[str, list[Hit]]) -> None:
        vector_channels = (CH_VECTOR, CH_HYDE, CH_PASSAGE_VECTOR, CH_ASKER_VECTOR,
                           CH_INSTRUCTION)
        scored: list = []  # the question's similarity to every memory vector, computed once

        def question_scores() -> np.ndarray:
            if not scored:
                scored.append(similarities(self._vectors(profile)[1], request.query_vector))
            return scored[0]

        text_first = [c for c in request.channels if c not in vector_channels]
        for channel in text_first + [c for c in request.channels if c in vector_channels]:
            if channel in vector_channels:
                request.wait_vectors()
            started = time.perf_counter()
            if channel == CH_TOPIC:
                found = self.active_by_topic(profile, request.topic_keys)
                out[channel] = [Hit(m.id, 1.0, m) for m in
                                sorted(found.values(), key=lambda m: m.created_at, reverse=True)
                                ][:request.k]
            elif channel in (CH_MEMORY_TEXT, CH_MESSAGE_TEXT):
                out[channel] = self._full_text(profile, channel, request.text, request.k)
            elif channel in (CH_VECTOR, CH_HYDE):
                vector = request.query_vector if channel == CH_VECTOR else request.hyde_vector
                if vector is not None:
                    out[channel] = self._knn(profile, vector, request.k, question_scores()
                                             if channel == CH_VECTOR else None)
            elif channel == CH_PASSAGE_TEXT:
                out[channel] = self._passage_text(profile, request.text, request.k)
            elif channel == CH_SESSION_TEXT:
                out[channel] = self._session_text(profile, request.text, request.k)
            elif channel == CH_PASSAGE_VECTOR and request.query_vector is not None:
                out[channel] = self._passage_knn(profile, request.query_vector, request.k)
            elif channel == CH_ASKER_TEXT and request.askers:
                out[channel] = self._asker_text(profile, request.text, request.askers, request.k)
            elif channel == CH_ASKER_VECTOR and request.askers \
                    and request.query_vector is not None:
                out[channel] = self._passage_knn(profile, request.query_vector, request.k,
                                                 only=self._authored(profile, request.askers))
            elif channel == CH_INSTRUCTION and request.query_vector is not None:
                out[channel] = self._standing_knn(profile, question_scores())
            elif channel == CH_DATE and request.span is not None:
                out[channel] = dated_then_said(
                    self._dated_memories(profile, request.span, request.k)
                    if request.dated else [],
                    self._date_messages(profile, request.text, request.span, request.k))
            if channel in out:
                request.timings[channel] = time.perf_counter() - started

    def _full_text(self, profile: str, channel: str, text: str, k: int) -> list[Hit]:
        query = fts_query(text)
        if not query:
            return []
        table, docs, model = (("memories_fts", "memories", Memory) if channel == CH_MEMORY_TEXT
                              else ("messages_fts", "messages", Message))
        # FTS5 ranks by `rank` (bm25) itself; only the k best rows are then read from the
        # documents table (joining first read a document for every matching row).
        best = self.db.execute(
            f"SELECT id, -rank FROM {table} WHERE {table} MATCH ? AND profile = ? "
            f"ORDER BY rank LIMIT ?", (query, profile, k)).fetchall()
        if not best:
            return []
        marks = ",".join("?" * len(best))
        found = dict(self.db.execute(f"SELECT id, doc FROM {docs} WHERE profile = ? AND id IN "
                                     f"({marks})", (profile, *(i for i, _ in best))).fetchall())
        return [Hit(i, float(score), model.model_validate_json(found[i]))
                for i, score in best if i in found]

    def _dated_memories(self, profile: str, span: tuple[date, date], k: int) -> list[Hit]:
        """The date channel's memories: the active ones with an event date in the span, the
        earliest dated first."""
        if k <= 0:
            return []
        rows = self.db.execute(
            "SELECT m.id, min(d.start), m.doc FROM memory_dates d JOIN memories m ON "
            "m.profile = d.profile AND m.id = d.memory_id WHERE d.profile = ? AND d.end >= ? "
            "AND d.start <= ? AND m.status = 'active' GROUP BY m.id "
            "ORDER BY min(d.start), m.created_at DESC LIMIT ?",
            (profile, span[0].isoformat(), span[1].isoformat(), k)).fetchall()
        return [Hit(i, 1.0, Memory.model_validate_json(doc)) for i, _start, doc in rows]

    def _date_messages(self, profile: str, text: str, span: tuple[date, date], k: int
                       ) -> list[Hit]:
        """The date channel: the messages said on the span's days (local time), those matching
        the question's words first (BM25), then the rest newest first."""
        if k <= 0:
            return []
        low, high = (t.isoformat() for t in span_utc_bounds(span))
        query = fts_query(text)
        hits: dict[str, Hit] = {}

        def keep(rows) -> None:
            for i, score, doc in rows:
                message = Message.model_validate_json(doc)
                if i not in hits and not message.suppressed and said_within(message, span):
                    hits[i] = Hit(i, float(score), message)

        if query:
            keep(self.db.execute(
                "SELECT m.id, -f.rank, m.doc FROM messages_fts f JOIN messages m ON "
                "m.rowid = f.rowid WHERE messages_fts MATCH ? AND f.profile = ? AND m.profile = ? "
                "AND m.ts >= ? AND m.ts < ? ORDER BY f.rank LIMIT ?",
                (query, profile, profile, low, high, 2 * k)))
        if len(hits) < k:  # the rest of the span, newest first
            keep((i, 0.0, doc) for i, doc in self.db.execute(
                "SELECT id, doc FROM messages WHERE profile = ? AND ts >= ? AND ts < ? "
                "ORDER BY ts DESC LIMIT ?", (profile, low, high, 2 * k)))
        return list(hits.values())[:k]

    def _authored(self, profile: str, authors: tuple[str, ...]) -> list[str]:
        """The ids of the messages the `authors` wrote (the messages_author index)."""
        marks = ",".join("?" * len(authors))
        return [i for (i,) in self.db.execute(
            f"SELECT id FROM messages WHERE profile = ? AND json_extract(doc, '$.author') IN "
            f"({marks})", (profile, *authors))]

    def _asker_text(self, profile: str, text: str, authors: tuple[str, ...], k: int
                    ) -> list[Hit]:
        """message_text over the messages the `authors` wrote."""
        query = fts_query(text)
        if not query or k <= 0:
            return []
        marks = ",".join("?" * len(authors))
        rows = self.db.execute(
            "SELECT m.id, -f.rank, m.doc FROM messages_fts f JOIN messages m ON m.rowid = f.rowid "
            "WHERE messages_fts MATCH ? AND f.profile = ? AND m.profile = ? "
            f"AND json_extract(m.doc, '$.author') IN ({marks}) ORDER BY f.rank LIMIT ?",
            (query, profile, profile, *authors, k)).fetchall()
        return [Hit(i, float(score), Message.model_validate_json(doc)) for i, score, doc in rows]

    def authors_with_platform_id(self, profile: str, platform_id: str) -> set[str]:
        suffix = re.sub(r"([\\%_])", r"\\\1", f"({platform_id})")
        with self._lock:  # the messages_author index holds the authors: no document is read
            return {a for (a,) in self.db.execute(
                "SELECT DISTINCT json_extract(doc, '$.author') FROM messages WHERE profile = ? "
                "AND json_extract(doc, '$.author') LIKE ? ESCAPE '\\'",
                (profile, "%" + suffix)) if a and a.endswith(f"({platform_id})")}

    def authors(self, profile: str) -> set[str]:
        with self._lock:  # read from the messages_author index alone
            return {a for (a,) in self.db.execute(
                "SELECT DISTINCT json_extract(doc, '$.author') FROM messages WHERE profile = ?",
                (profile,)) if a}

    def _session_text(self, profile: str, text: str, k: int) -> list[Hit]:
        query = fts_query(text)
        if not query:
            return []
        return [Hit(session_id, float(score), None) for session_id, score in self.db.execute(
            "SELECT session_id, -rank FROM sessions_fts WHERE sessions_fts MATCH ? AND "
            "profile = ? ORDER BY rank LIMIT ?", (query, profile, k))]

    def _passage_hits(self, profile: str, best: list[tuple[str, int, int, int, float]]
                      ) -> list[Hit]:
        """(message id, idx, start, end, score) best first -> Passage hits."""
        messages = {m.id: m for m in self.get_messages(profile, (b[0] for b in best))}
        return [Hit(i, score, Passage(**messages[i].model_dump(exclude={"content"}),
                                      content=messages[i].content[a:b], passage=idx,
                                      start=a, end=b))
                for i, idx, a, b, score in best
                if i in messages and not messages[i].suppressed]

    def _passage_text(self, profile: str, text: str, k: int) -> list[Hit]:
        query = fts_query(text)
        if not query or k <= 0:
            return []
        rows = self.db.execute(
            "SELECT id, idx, start, end, -bm25(passages_fts) AS score FROM passages_fts "
            "WHERE passages_fts MATCH ? AND profile = ? ORDER BY score DESC",
            (query, profile)).fetchall()
        best: dict[str, tuple] = {}
        for i, idx, a, b, score in rows:  # best first: the first passage seen per message wins
            if i not in best:
                best[i] = (i, int(idx), int(a), int(b), float(score))
                if len(best) == k:
                    break
        return self._passage_hits(profile, list(best.values()))

    def _passage_knn(self, profile: str, vector: np.ndarray, k: int,
                     only: list[str] | None = None) -> list[Hit]:
        """The k messages with the best passage; `only`: among those message ids."""
        keys, matrix, ids = self._passage_vectors(profile)
        if only is not None and keys:
            rows = [r for i in sorted(set(only))
                    for r in range(bisect_left(ids, i), bisect_right(ids, i))]
            keys, matrix = [keys[r] for r in rows], matrix[rows]
        if not keys or k <= 0:
            return []
        scores = similarities(matrix, vector)
        best: dict[str, tuple] = {}
        # A message has a few passages: the k best messages are almost always among the 4k best
        # passages; only when they are not is the whole ranking read.
        for rows in (best_rows(scores, n) for n in (4 * k, len(keys))):  # lazily: rarely both
            best.clear()
            for row in rows:
                i, idx, a, b = keys[row]
                if i not in best:
                    best[i] = (i, idx, a, b, float(scores[row]))
                    if len(best) == k:
                        break
            if len(best) == k or len(rows) == len(keys):
                break
        return self._passage_hits(profile, list(best.values()))

    def _standing_knn(self, profile: str, question_scores: np.ndarray) -> list[Hit]:
        """The standing rules (memory.standing) among the INSTRUCTION_SCAN active instruction
        memories nearest the question (`question_scores`: its similarity to every row of the
        vector matrix), the INSTRUCTION_K nearest of them at INSTRUCTION_MIN_SIMILARITY
        or more (what Elasticsearch's filtered kNN does; the memories_by_type index finds the
        instructions, and each one's text is tested once)."""
        ids, _ = self._vectors(profile)
        rows = self._instruction_rows(profile, ids)
        if not len(rows):
            return []
        scores = question_scores[rows]
        nearest = [i for i in best_rows(scores, INSTRUCTION_SCAN)[:INSTRUCTION_SCAN]
                   if scores[i] >= INSTRUCTION_MIN_SIMILARITY]
        unknown = [ids[rows[i]] for i in nearest if ids[rows[i]] not in self._standing]
        if unknown:  # the text of rules not tested before, read once
            marks = ",".join("?" * len(unknown))
            for memory_id, content in self.db.execute(
                    f"SELECT id, json_extract(doc, '$.content') FROM memories WHERE profile = ? "
                    f"AND id IN ({marks})", (profile, *unknown)):
                self._standing[memory_id] = is_standing_rule(content or "")
        top = [i for i in nearest if self._standing.get(ids[rows[i]])][:INSTRUCTION_K]
        memories = {m.id: m for m in self.get_memories(profile, (ids[rows[i]] for i in top))}
        return [Hit(ids[rows[i]], float(scores[i]), memories[ids[rows[i]]]) for i in top
                if ids[rows[i]] in memories]

    def _instruction_rows(self, profile: str, ids: list[str]) -> np.ndarray:
        """The rows of the vector matrix whose ids are `ids` that hold the profile's active
        instructions (embedded already), in id order; kept until a memory of the profile is
        written (by any process) or the matrix is read again. Read on every recall, they were a
        tenth of its time at 10k memories."""
        generation = self._generation(profile, "memories")
        cached = self._instructions.get(profile)
        if cached is not None and cached[0] == generation and cached[1] is ids:
            return cached[2]
        at = self._rows_of(profile, ids)
        rows = np.array([at[i] for (i,) in self.db.execute(
            "SELECT id FROM memories WHERE profile = ? AND type = 'instruction' AND "
            "status = 'active'", (profile,)) if i in at], dtype=np.intp)
        self._instructions[profile] = (generation, ids, rows)
        return rows

    def _knn(self, profile: str, vector: np.ndarray, k: int,
             scores: np.ndarray | None = None) -> list[Hit]:
        ids, matrix = self._vectors(profile)
        if not ids:
            return []
        if scores is None:
            scores = similarities(matrix, vector)
        top = best_rows(scores, k)[:k]
        memories = {m.id: m for m in self.get_memories(profile, (ids[i] for i in top))}
        return [Hit(ids[i], float(scores[i]), memories[ids[i]]) for i in top
                if ids[i] in memories and memories[ids[i]].status == "active"]

    # --- whole profile --------------------------------------------------------------------
    def delete_profile(self, profile: str) -> None:
        with self._lock:
            self._write([(f"DELETE FROM {t} WHERE profile = ?", [(profile,)]) for t in
                         ("messages", "messages_fts", "memories", "memories_fts",
                          "memory_sources", "memory_dates", "vectors", "passages_fts",
                          "passage_vectors",
                          "sessions", "sessions_fts")])
            self._vector_cache.pop(profile, None)
            self._passage_cache.pop(profile, None)
