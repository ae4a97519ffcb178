"""Shared state under threads: stemming, recall and the API served to many clients at once must give
exactly what one thread gets alone (the API's and MCP's thread pools share one engine)."""
from __future__ import annotations

import random
import string
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from memory import text
from memory.eval import metrics
from memory.offline_answerer import content_stems

THREADS = 8


def _words(n: int, seed: int = 7) -> list[str]:
    """Distinct made-up words with real English suffixes (so the stemmer has work to do), never
    seen by the stem cache before: every call below is a real stemming call."""
    rng = random.Random(seed)
    suffixes = ["izations", "ational", "fulness", "iveness", "ing", "ed", "ies", "ly", "ment",
                "ousness", "ation", "ers"]
    out = set()
    while len(out) < n:
        stem = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9)))
        out.add(stem + rng.choice(suffixes) + str(rng.randint(0, 99999)))
    return sorted(out)


def _hammer(fn, items: list, threads: int = THREADS) -> list:
    """fn over items from `threads` threads started together, results in item order."""
    start = threading.Barrier(threads)

    def run(part: list) -> list:
        start.wait()
        return [fn(x) for x in part]

    parts = [items[i::threads] for i in range(threads)]
    with ThreadPoolExecutor(threads) as pool:
        done = list(pool.map(run, parts))
    out: list = [None] * len(items)
    for i, results in enumerate(done):
        out[i::threads] = results
    return out


def test_stemming_from_many_threads_matches_one_thread():
    import snowballstemmer

    words = _words(6000)
    reference = snowballstemmer.stemmer("english")  # a private stemmer, used by this thread only
    expected = [reference.stemWord(w) for w in words]
    text._stem.cache_clear()
    assert _hammer(text._stem, words) == expected
    # and the cache kept the right stems, not a neighbour's
    assert [text._stem(w) for w in words] == expected

    sentences = [" ".join(words[i:i + 7]) for i in range(0, len(words), 7)]
    alone = [text.stem_tokens(s) for s in sentences]
    text._stem.cache_clear()
    assert _hammer(text.stem_tokens, sentences) == alone
    alone = [content_stems(s) for s in sentences]
    assert _hammer(content_stems, sentences) == alone
    porter = snowballstemmer.stemmer("porter")
    alone = [porter.stemWords(metrics.normalize_answer(s).split()) for s in sentences]
    assert _hammer(metrics.answer_tokens, sentences) == alone


def test_redaction_and_dates_from_many_threads_match_one_thread():
    """Redaction (detect-secrets' entropy plugins, kept per thread), the fullwidth and invisible
    characters read through, and date finding: many threads give what one does alone."""
    from datetime import datetime, timezone

    from memory.dates import find_dates
    from memory.eval.date_corpus import load as load_dates
    from memory.redaction import redact
    from tests.secret_corpus import load as load_secrets

    lines = [c.text for c in load_secrets()]
    lines += [f"ＰＡＳＳＷＯＲＤ： Ｔｒ０ｕｂ４ｄｏｒ＆{i} and pass\u200bword: Sn0w\u200bfall;{i}"
              for i in range(50)]
    lines = lines * 4
    alone = [redact(t) for t in lines]
    assert _hammer(redact, lines) == alone
    anchor = datetime(2026, 11, 25, 10, tzinfo=timezone.utc)
    texts = [c.text for c in load_dates()[0]] * 4

    def dates(t: str) -> list:
        return [(f.date.phrase, f.date.start, f.date.end) for f in find_dates(t, anchor)]

    alone = [dates(t) for t in texts]
    assert _hammer(dates, texts) == alone
    alone = [text.expand_query(t) for t in texts]
    assert _hammer(text.expand_query, texts) == alone


def test_name_letters_from_many_threads_match_one_thread():
    """anyascii fills a module-level table of Unicode blocks on first use: names of many scripts
    transliterated by many threads at once, from an empty table, read as they do alone."""
    import anyascii

    from memory.people import name_letters

    names = [f"{a} {b}" for a in ("Zoë", "Søren", "Łukasz", "Саша", "Ngô Bảo", "İlkay", "Þóra")
             for b in ("Müller", "Ødegaard", "Ñúñez", "Οδυσσέας", "Ďurica", "Ærø", "Żółw")] * 40
    alone = [name_letters(n) for n in names]
    anyascii._blocks.clear()
    assert _hammer(name_letters, names) == alone
    assert "Zoe Muller" in alone and "Sasha Odysseas" in alone


def test_whose_words_asked_from_many_threads_match_one_thread():
    """Which person a question asks for the words or work of (stemmers, transliteration, the
    spelling list, all shared by the API's threads): many threads read what one thread does."""
    from memory.offline_answerer import whose_words_asked

    people = {"zoe", "kofi", "priya", "soren"}
    questions = [q.format(n=n) for n in ("zoë", "@kofi", "Priya", "søren", "sam")
                 for q in ("what did {n} say?", "what's {n} up to?", "what is {n} working on?",
                           "what did {n} say about the rate limit?", "who owns billing?")] * 30
    alone = [whose_words_asked(q, lambda: people) for q in questions]
    assert _hammer(lambda q: whose_words_asked(q, lambda: people), questions) == alone
    assert alone[0] == {"zoe"} and alone[5] == {"kofi"} and alone[3] == set()


CONVERSATION = [
    ("maya", "We decided to use pnpm for the dashboard"),
    ("li", "The rate limit for the public API is 100 requests per minute"),
    ("sam", "Deploys to production happen on Tuesdays and Thursdays after the standup"),
    ("maya", "The staging database is Postgres 16 on the big instance"),
    ("li", "Our on-call rotation changes every Monday at 10am"),
    ("sam", "Grafana dashboards moved to the observability folder last week"),
    ("maya", "The mobile release is frozen until the accessibility audit passes"),
    ("li", "Use ruff for linting and black for formatting in the backend repo"),
    # a slip by how much and a schedule's next day: computed on every call (memory.moves,
    # memory.recurrence)
    ("maya", "Code freeze for the 4.2 release is Dec 1"),
    ("sam", "Heads up: the code freeze is pushed a week"),
    ("li", "Design sync is every other Thursday at 15:00, the first one was on Nov 5"),
    # a state asked by its opposite, a decision asked for (memory.offline_answerer)
    ("sam", "The office is closed Dec 24 – Jan 2 for the holidays"),
    ("maya", "Agreed, let's go with SQS for the event bus"),
]
QUESTIONS = [
    "what package manager do we use for the dashboard?", "what is the rate limit?",
    "when do deploys to production happen?", "which database does staging run?",
    "when does the on-call rotation change?", "where did the grafana dashboards move?",
    "why is the mobile release frozen?", "what do we use for linting?",
    "who decided on pnpm?", "what formatter does the backend use?",
    "when is the code freeze?", "how many days until the code freeze?",
    "when is the next design sync?", "is the office open on Dec 28?",
    "what did we decide about the event bus?",
]


def _loaded(service, profile_name):
    profile = service.profile(profile_name)
    profile.ingest([{"role": "user", "author": a, "content": c, "ts": f"2026-11-16T09:{i:02d}:00Z"}
                    for i, (a, c) in enumerate(CONVERSATION)], session_id="2026-11-16")
    return profile


def _summary(result) -> tuple:
    return (result.answer, tuple(m.memory.id for m in result.memories),
            tuple(m.message.id for m in result.messages))


def test_recall_from_many_threads_matches_one_thread(service, profile_name):
    from datetime import datetime, timezone

    profile = _loaded(service, profile_name)
    now = datetime(2026, 11, 18, 9, tzinfo=timezone.utc)
    asked = QUESTIONS * 6
    text._stem.cache_clear()
    alone = [_summary(profile.recall(q, now=now)) for q in asked]
    text._stem.cache_clear()
    together = _hammer(lambda q: _summary(profile.recall(q, now=now)), asked)
    assert together == alone


def test_first_person_recall_from_many_threads_matches_one_thread(service, profile_name):
    """The asker channels (each thread its own asker) give what one thread gives."""
    from datetime import datetime, timezone

    profile = _loaded(service, profile_name)
    now = datetime(2026, 11, 18, 9, tzinfo=timezone.utc)
    asked = [(q, who) for q in ("what did I decide about the dashboard?", "what is my database?",
                                "when do I deploy to production?", "what did I say about ruff?")
             for who in ("maya", "li", "sam")] * 4
    alone = [_summary(profile.recall(q, now=now, asker=who)) for q, who in asked]
    assert len(set(alone)) > 4  # the askers' answers differ
    together = _hammer(lambda qw: _summary(profile.recall(qw[0], now=now, asker=qw[1])), asked)
    assert together == alone


def test_the_embedding_pool_is_made_once_under_many_first_callers(tmp_path, embedder):
    """MemoryService.embedding_pool (shared by every recall thread) is created once even when
    eight threads ask for it at the same moment, and closing the service shuts it down."""
    from memory.config import Settings
    from memory.service import MemoryService

    service = MemoryService.from_settings(Settings(
        store=f"sqlite:///{tmp_path / 'pool.sqlite3'}", anthropic_api_key=None), embedder=embedder)
    pools = _hammer(lambda _: service.embedding_pool(), list(range(THREADS * 4)))
    assert len({id(p) for p in pools}) == 1
    assert pools[0].submit(lambda: 42).result() == 42
    service.close()
    with pytest.raises(RuntimeError):  # shut down with the service
        pools[0].submit(lambda: 42)


@pytest.fixture
def api_client(service, profile_name, tmp_path):
    from memory.surfaces.api.app import create_app
    from memory.surfaces.api.keys import KeyFile, add_key
    from memory.config import Settings

    keys = tmp_path / "keys.json"
    key = add_key(keys, "reader", [profile_name], ["read", "write"])
    settings = Settings(store=f"sqlite:///{tmp_path / 'unused.sqlite3'}", broker_url="memory://",
                        anthropic_api_key=None)
    app = create_app(service, KeyFile(keys), settings)
    # raise_server_exceptions=False: a client sees what a real HTTP client would, the 500 body
    return TestClient(app, raise_server_exceptions=False), {"Authorization": f"Bearer {key}"}


def test_api_serves_eight_clients_like_one(service, profile_name, api_client):
    _loaded(service, profile_name)
    client, headers = api_client
    path = f"/v1/profiles/{profile_name}/recall"

    def ask(q: str) -> tuple:
        response = client.post(path, headers=headers,
                               json={"query": q, "now": "2026-11-18T09:00:00Z"})
        assert response.status_code == 200, response.text
        body = response.json()
        return body["answer"], tuple(m["id"] for m in body["memories"])

    asked = QUESTIONS * 4
    text._stem.cache_clear()
    alone = [ask(q) for q in asked]
    text._stem.cache_clear()
    assert _hammer(ask, asked) == alone


def test_an_unhandled_error_leaves_as_the_json_error_body(service, profile_name, api_client,
                                                          monkeypatch):
    from memory.service import Profile

    def broken(self, *args, **kwargs):
        raise IndexError("string index out of range")  # what the shared stemmer used to raise

    monkeypatch.setattr(Profile, "recall", broken)
    client, headers = api_client
    response = client.post(f"/v1/profiles/{profile_name}/recall", headers=headers,
                           json={"query": "what is the rate limit?"})
    assert response.status_code == 500
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == "internal_error" and error["message"]
    assert "string index" not in error["message"]  # internals stay in the log


def test_standing_rules_from_many_threads_match_one_thread(service, profile_name):
    """The instruction channel's per-store state (on SQLite: which instructions are rules, and
    the row of each memory in the vector matrix) filled by many threads at once gives what one
    thread gives, rules and all."""
    from datetime import datetime, timezone

    profile = _loaded(service, profile_name)
    profile.ingest([{"role": "user", "author": "maya", "ts": "2026-11-16T10:00:00Z",
                     "content": "Always include version numbers when someone asks about "
                                "dependencies."},
                    {"role": "user", "author": "li", "ts": "2026-11-16T10:01:00Z",
                     "content": "Never deploy to production on Fridays."}],
                   session_id="2026-11-16")
    now = datetime(2026, 11, 18, 9, tzinfo=timezone.utc)
    asked = ["what packages does the dashboard need?", "can I ship the release tomorrow?",
             *QUESTIONS] * 4
    store = service.store

    def forget_state():
        for cache in ("_standing", "_vector_rows"):
            getattr(store, cache, {}).clear()

    forget_state()
    alone = [_summary(profile.recall(q, now=now)) for q in asked]
    assert any("Standing rule:" in answer for answer, *_ in alone)
    forget_state()
    together = _hammer(lambda q: _summary(profile.recall(q, now=now)), asked)
    assert together == alone


def test_time_zones_and_memory_stems_from_many_threads_match_one_thread():
    """5 Dec (fourteenth session): the places a zone is named by (an immutable map read by every
    thread) and the answerer's cache of a memory's stems (immutable sets, shared): many threads
    give what one does alone."""
    from datetime import date

    from memory.offline_answerer import _text_stems
    from memory.time_zones import asked_zone, clock_in

    places = ["Bangalore", "Berlin", "New York", "Tokyo", "SF", "London", "PT", "CET", "UTC"]
    asked = [f"what time is standup for the {p} folks?" for p in places] * 20
    alone = [asked_zone(q) for q in asked]
    assert _hammer(asked_zone, asked) == alone
    said = [(f"daily standup is at 9:{m:02d} Berlin time", date(2026, 12, d), p)
            for m in range(0, 60, 7) for d in (1, 7) for p in places]

    def read(row: tuple) -> str | None:
        return clock_in(*row)

    alone = [read(r) for r in said]
    assert _hammer(read, said) == alone
    texts = [f"no RateLimitErrors since v2.{i}, TimeoutError gone, owner is maya"
             for i in range(40)] * 10
    alone = [frozenset(_text_stems(t)) for t in texts]
    assert _hammer(_text_stems, texts) == alone
