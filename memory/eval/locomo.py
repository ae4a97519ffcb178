"""`lurker eval locomo`: retrieval recall and answer quality on LoCoMo (Maharana et al., ACL 2024).

    lurker eval locomo --data locomo10.json [--store URL] [--k 5,10,20] [--out results.json]
                       [--limit-conversations N] [--limit-questions N] [--judge]

Each conversation goes into its own fresh profile (`locomo:<sample_id>`) through the real ingestion
path, one `Profile.ingest` call per session. Then, for every question, as of one day after the last
session:
- the fused ranking (`Profile.search`) and, on the same ingested data, the baselines a user would
  otherwise build over the raw turns, each turn indexed as "speaker: text": BM25 alone (SQLite
  FTS5, Porter stemming, the same OR query our store sends) and dense vectors alone (same embedding
  model, ranked with numpy); and each of our retrieval channels alone (an ablation);
  each is scored by evidence recall@k (memory.eval.metrics);
- the answer (`Profile.recall`, timed), scored with LoCoMo's token F1 (category 5: whether it
  declines) and, with --judge and an Anthropic key, by an LLM judge (CORRECT/WRONG, as in the
  mem0 paper's J score).

The module is three stages: loading and ingest, the evaluation loop, reporting.
"""
from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel

from ..errors import LurkerError
from ..stores.base import CHANNELS
from ..stores.sqlite import fts_query
from .metrics import (ADVERSARIAL, CATEGORY_NAMES, answer_score, decline_rates, evidence_recall,
                      is_decline, mean, percentile, record_dia_ids)

DEFAULT_KS = (5, 10, 20)
PER_CATEGORY_K = 10  # the k of the per-category columns (the largest k when 10 is not asked for)
TOP_RECORDED = 10  # fused results kept per question in the JSON
FUSED, BM25_RAW, DENSE_RAW = "fused", "bm25-raw", "dense-raw"
OFFLINE_NOTE = "answers scored by token-F1 only (no LLM judge offline)"
NO_JUDGE_NOTE = "answers scored by token-F1 only (pass --judge for the LLM judge)"


def channel_system(channel: str) -> str:
    return f"{channel}-only"


SYSTEMS = (FUSED, BM25_RAW, DENSE_RAW, *(channel_system(c) for c in CHANNELS))


# === loading and ingest ==========================================================================
@dataclass
class Turn:
    dia_id: str
    speaker: str
    content: str  # as ingested: the text, plus the caption of a shared photo
    ts: datetime


@dataclass
class Session:
    number: int
    started: datetime
    turns: list[Turn]


@dataclass
class Question:
    index: int  # position in the sample's qa list
    question: str
    category: int
    evidence: list[str]  # normalised dia_ids that exist in the conversation
    gold: str | None  # None for category 5 (unanswerable)
    adversarial_answer: str | None = None


@dataclass
class Conversation:
    sample_id: str
    sessions: list[Session]
    questions: list[Question]
    evidence_dropped: list[str] = field(default_factory=list)  # evidence naming no turn

    @property
    def profile_name(self) -> str:
        return "locomo:" + re.sub(r"[^A-Za-z0-9:._-]", "_", self.sample_id)

    @property
    def now(self) -> datetime:
        """When the questions are asked: one day after the last session began."""
        return max(s.started for s in self.sessions) + timedelta(days=1)

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]


_SESSION_KEY = re.compile(r"session_(\d+)")
_DIA_ID = re.compile(r"D:?(\d+):(\d+)")  # "D3:12"; the data also has "D:11:26" and "D8:6; D9:17"


def normalize_evidence(raw: list) -> list[str]:
    """Canonical dia_ids from an evidence list, in order, without duplicates."""
    found = [f"D{a}:{b}" for item in raw for a, b in _DIA_ID.findall(str(item))]
    return list(dict.fromkeys(found))


def turn_content(turn: dict) -> str:
    text = str(turn.get("text") or "").strip()
    caption = str(turn.get("blip_caption") or "").strip()
    return f"{text} [shares a photo: {caption}]".strip() if caption else text


def load_locomo(path: str | Path) -> list[Conversation]:
    """Read LoCoMo data (the published locomo10.json shape); LurkerError if it is not that."""
    from ..dates import parse_timestamp

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise LurkerError(f"{path}: invalid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, list) or not all(
            isinstance(s, dict) and {"sample_id", "conversation", "qa"} <= set(s) for s in data):
        raise LurkerError(f"{path}: not LoCoMo data: expected a list of "
                          "{sample_id, conversation, qa} objects")
    conversations = []
    for sample in data:
        conv, sid = sample["conversation"], str(sample["sample_id"])
        sessions = []
        numbers = sorted(int(m[1]) for key in conv if (m := _SESSION_KEY.fullmatch(key)))
        for n in numbers:
            when = conv.get(f"session_{n}_date_time")
            if not conv[f"session_{n}"]:
                continue
            try:
                started = parse_timestamp(when)
            except ValueError as exc:
                raise LurkerError(f"{path}: {sid} session {n}: {exc}") from None
            turns = [Turn(t["dia_id"], t.get("speaker") or "", turn_content(t),
                          started + timedelta(seconds=i))
                     for i, t in enumerate(conv[f"session_{n}"]) if turn_content(t)]
            sessions.append(Session(n, started, turns))
        if not sessions:
            raise LurkerError(f"{path}: {sid} has no sessions")
        known = {t.dia_id for s in sessions for t in s.turns}
        questions, dropped = [], []
        for i, qa in enumerate(sample["qa"]):
            evidence = normalize_evidence(qa.get("evidence") or [])
            dropped += [d for d in evidence if d not in known]
            gold = qa.get("answer")
            questions.append(Question(
                index=i, question=str(qa["question"]), category=int(qa["category"]),
                evidence=[d for d in evidence if d in known],
                gold=None if gold is None else str(gold),
                adversarial_answer=qa.get("adversarial_answer")))
        conversations.append(Conversation(sid, sessions, questions, dropped))
    return conversations


@dataclass
class Ingested:
    conversation: Conversation
    profile: object  # memory.service.Profile
    dia_ids_by_message: dict[str, list[str]]  # message id -> every turn stored under it
    contents: dict[str, str]  # message id -> "speaker: text" (for the baselines)
    memories: int
    seconds: float


def ingest_conversation(service, conv: Conversation, progress: Progress | None = None
                        ) -> Ingested:
    """A fresh profile holding the conversation, ingested one session at a time."""
    service.store.delete_profile(conv.profile_name)
    profile = service.profile(conv.profile_name)
    by_message: dict[str, list[str]] = {}
    contents: dict[str, str] = {}
    memories = 0
    start = time.perf_counter()
    for session in conv.sessions:
        raw = [{"role": "user", "author": t.speaker, "content": t.content, "ts": t.ts}
               for t in session.turns]
        result = profile.ingest(raw, session_id=f"{conv.sample_id}:session_{session.number}",
                                now=session.turns[-1].ts + timedelta(seconds=1))
        # Ids are content-addressed: the same text twice in one session is one stored message.
        for message_id, turn in zip(result.message_ids, session.turns, strict=True):
            by_message.setdefault(message_id, []).append(turn.dia_id)
            contents.setdefault(message_id, f"{turn.speaker}: {turn.content}")
        memories += result.memories_created
        if progress:
            progress.update()
    return Ingested(conv, profile, by_message, contents, memories, time.perf_counter() - start)


# === the evaluation loop =========================================================================
class JudgeVerdict(BaseModel):
    reasoning: str
    label: Literal["CORRECT", "WRONG"]


JUDGE_SYSTEM = "You grade answers produced by a conversational memory system. Reply in JSON."
# The J score of the mem0 paper (Chhikara et al., 2025): a generous CORRECT/WRONG judgement.
JUDGE_PROMPT = """Label a generated answer to a question as CORRECT or WRONG. You are given:
(1) a question (asked by one user about another user, or about their earlier conversations),
(2) the gold (ground truth) answer,
(3) the generated answer.

The gold answer is usually short, for example:
Question: Do you remember what I got the last time I went to Hawaii?
Gold answer: A shell necklace
The generated answer may be much longer. Be generous: as long as it touches on the same topic as
the gold answer, count it as CORRECT.

For time questions the gold answer is a specific date, month or year. The generated answer may be
longer or use relative references ("last Tuesday", "next month"); be generous: if it refers to the
same date or period as the gold answer it is CORRECT, even in another format ("May 7th" vs
"7 May").

Question: {question}
Gold answer: {gold}
Generated answer: {answer}

Give a one-sentence explanation in "reasoning", then the label, CORRECT or WRONG, in "label"."""


class Judge:
    """The LLM judge over memory.llm.client.LLMClient.complete_json."""

    def __init__(self, client, model: str):
        self.client, self.model = client, model

    def __call__(self, question: str, gold: str, answer: str) -> str:
        verdict = self.client.complete_json(
            model=self.model, system=JUDGE_SYSTEM, schema=JudgeVerdict,
            user=JUDGE_PROMPT.format(question=question, gold=gold, answer=answer))
        label = verdict["label"] if isinstance(verdict, dict) else verdict.label
        if label not in ("CORRECT", "WRONG"):
            raise ValueError(f"judge label {label!r}")
        return label


def _retrieved_json(fused, by_message: dict[str, list[str]]) -> list[dict]:
    return [{"kind": "memory" if hasattr(f.record, "source_message_ids") else "message",
             "id": f.record.id, "dia_ids": record_dia_ids(f.record, by_message),
             "score": round(f.score, 6), "channels": f.channels,
             "content": f.record.content[:300]} for f in fused[:TOP_RECORDED]]


class TurnIndex:
    """The BM25 baseline: an in-memory SQLite FTS5 index of the labelled turns."""

    def __init__(self, texts: dict[str, str]):
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE turns USING fts5(id UNINDEXED, text, "
                        "tokenize = 'porter unicode61')")
        self.db.executemany("INSERT INTO turns VALUES (?, ?)", texts.items())

    def search(self, question: str, k: int) -> list[str]:
        query = fts_query(question)
        if not query:
            return []
        return [row[0] for row in self.db.execute(
            "SELECT id FROM turns WHERE turns MATCH ? ORDER BY bm25(turns) LIMIT ?", (query, k))]


def evaluate_conversation(ing: Ingested, ks: tuple[int, ...], limit_questions: int | None = None,
                          judge: Judge | None = None, progress: Progress | None = None
                          ) -> list[dict]:
    """One record per question: recall@k of every system, the answer, its score and latency."""
    conv, profile, by_message = ing.conversation, ing.profile, ing.dia_ids_by_message
    embedder = profile.service.embedder
    questions = conv.questions[:limit_questions]
    max_k, now = max(ks), conv.now
    message_ids = list(ing.contents)
    message_vectors = embedder.embed([ing.contents[i] for i in message_ids])
    bm25 = TurnIndex(ing.contents)
    question_vectors = embedder.embed([q.question for q in questions])

    def covered(fused) -> list[list[str]]:
        return [record_dia_ids(f.record, by_message) for f in fused]

    records = []
    for q, q_vector in zip(questions, question_vectors):
        fused = profile.search(q.question, k=max_k)
        ranked = {FUSED: covered(fused),
                  BM25_RAW: [by_message[i] for i in bm25.search(q.question, max_k)]}
        order = np.argsort(-(message_vectors @ q_vector), kind="stable")[:max_k]
        ranked[DENSE_RAW] = [by_message[message_ids[i]] for i in order]
        for channel in CHANNELS:
            ranked[channel_system(channel)] = covered(
                profile.search(q.question, channels=(channel,), k=max_k))

        start = time.perf_counter()
        result = profile.recall(q.question, now=now)
        latency_ms = (time.perf_counter() - start) * 1000

        score = answer_score(result.answer, q.gold, q.category)
        recall = {system: {f"@{k}": evidence_recall(q.evidence, ranked[system], k) for k in ks}
                  for system in SYSTEMS}
        top = {d for entry in ranked[FUSED][:TOP_RECORDED] for d in entry}
        record = {
            "sample_id": conv.sample_id, "index": q.index, "question": q.question,
            "category": q.category, "category_name": CATEGORY_NAMES.get(q.category, "?"),
            "evidence": q.evidence, "gold": q.gold, "adversarial_answer": q.adversarial_answer,
            "answer": result.answer, "answer_score": score, "declined": is_decline(result.answer),
            "latency_ms": round(latency_ms, 3),
            "hit": None if not q.evidence else set(q.evidence) <= top,
            "missing_evidence": [d for d in q.evidence if d not in top],
            "retrieved": _retrieved_json(fused, by_message),
            "recall": recall,
        }
        if judge is not None and q.category != ADVERSARIAL:
            try:
                record["judge"] = judge(q.question, q.gold or "", result.answer)
            except Exception as exc:  # one failed call must not lose the run; counted below
                record["judge"], record["judge_error"] = None, f"{type(exc).__name__}: {exc}"
        records.append(record)
        if progress:
            progress.update()
    return records


# === reporting ===================================================================================
def per_category_k(ks: tuple[int, ...]) -> int:
    return PER_CATEGORY_K if PER_CATEGORY_K in ks else max(ks)


def _by_category(records: list[dict], value) -> dict[str, float | None]:
    return {name: mean(value(r) for r in records if r["category"] == c)
            for c, name in CATEGORY_NAMES.items()}


def summarize(records: list[dict], ks: tuple[int, ...]) -> dict:
    """Per-system recall@k (overall and per category), answer scores and recall() latency."""
    systems = {}
    for system in SYSTEMS:
        recall = {}
        for k in ks:
            def value(r, system=system, k=k):
                return r["recall"][system][f"@{k}"]
            recall[f"@{k}"] = {"overall": mean(value(r) for r in records),
                               "n": sum(value(r) is not None for r in records),
                               "by_category": _by_category(records, value)}
        systems[system] = {"recall": recall}

    answerable = [r for r in records if r["category"] != ADVERSARIAL]
    adversarial = [r for r in records if r["category"] == ADVERSARIAL]
    judged = [r for r in answerable if r.get("judge")]
    latencies = [r["latency_ms"] for r in records]
    counts = {name: sum(r["category"] == c for r in records) for c, name in CATEGORY_NAMES.items()}
    return {
        "questions": len(records),
        "questions_by_category": counts,
        "questions_with_evidence": sum(bool(r["evidence"]) for r in records),
        "systems": systems,
        "answers": {
            "f1": {"overall": mean(r["answer_score"] for r in answerable),
                   "by_category": {name: v for name, v in _by_category(
                       records, lambda r: r["answer_score"]).items()
                       if name != CATEGORY_NAMES[ADVERSARIAL]}},
            "adversarial_decline_rate": mean(r["answer_score"] for r in adversarial),
            "false_decline_rate": decline_rates(records)["false"],
            "locomo_overall": mean(r["answer_score"] for r in records),
            "judge": None if not any("judge" in r for r in records) else {
                "overall": mean(float(r["judge"] == "CORRECT") for r in judged),
                "by_category": {name: v for name, v in _by_category(
                    judged, lambda r: float(r["judge"] == "CORRECT")).items()
                    if name != CATEGORY_NAMES[ADVERSARIAL]},
                "judged": len(judged),
                "errors": sum(bool(r.get("judge_error")) for r in records)},
        },
        "latency_ms": {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95),
                       "mean": mean(latencies), "n": len(latencies)},
    }


def _fmt(value: float | None, width: int) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.3f}"


def format_report(summary: dict, ks: tuple[int, ...], note: str) -> str:
    """The recall table (every system side by side), then answers and latency for fused."""
    ck = per_category_k(ks)
    names = list(CATEGORY_NAMES.values())
    lines = [f"LoCoMo evidence recall ({summary['questions_with_evidence']} questions with "
             f"evidence; per-category columns at k={ck})"]
    head = f"{'system':<18}" + "".join(f"{'R@' + str(k):>8}" for k in ks) + "  |" + \
        "".join(f"{n:>13}" for n in names)
    lines += [head, "-" * len(head)]
    for system, data in summary["systems"].items():
        recall = data["recall"]
        lines.append(f"{system:<18}" + "".join(_fmt(recall[f"@{k}"]["overall"], 8) for k in ks)
                     + "  |" + "".join(_fmt(recall[f"@{ck}"]["by_category"][n], 13)
                                       for n in names))
    answers, counts = summary["answers"], summary["questions_by_category"]
    judge = answers["judge"]
    lines += ["", "Answers (fused recall)", f"{'category':<18}{'n':>6}{'F1':>9}"
              + (f"{'J':>9}" if judge else "")]
    for name in names[:-1]:
        lines.append(f"{name:<18}{counts[name]:>6}{_fmt(answers['f1']['by_category'][name], 9)}"
                     + (_fmt(judge["by_category"][name], 9) if judge else ""))
    answerable = sum(counts[n] for n in names[:-1])
    lines.append(f"{'overall (1-4)':<18}{answerable:>6}{_fmt(answers['f1']['overall'], 9)}"
                 + (_fmt(judge["overall"], 9) if judge else ""))
    lines.append(f"{'adversarial':<18}{counts[names[-1]]:>6}"
                 f"{_fmt(answers['adversarial_decline_rate'], 9)}  (declined)")
    lines.append(f"{'answerable (1-4)':<18}{answerable:>6}"
                 f"{_fmt(answers.get('false_decline_rate'), 9)}  (declined: false declines)")
    lat = summary["latency_ms"]
    if lat["n"]:
        lines.append(f"recall() latency: p50 {lat['p50']:.1f} ms, p95 {lat['p95']:.1f} ms "
                     f"(n={lat['n']})")
    lines.append(note)
    return "\n".join(lines)


# === running it ==================================================================================
class Progress:
    """A one-line progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, total: int, label: str, stream=None, width: int = 30):
        self.total, self.label, self.width = max(total, 0), label, width
        self.stream = stream if stream is not None else sys.stderr
        self.done, self.start, self._drawn = 0, time.monotonic(), 0.0

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if now - self._drawn >= 0.1 or self.done >= self.total:
            self._drawn = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        share = self.done / self.total if self.total else 1.0
        filled = int(self.width * min(share, 1.0))
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} "
                          f"{now - self.start:6.1f}s")
        self.stream.flush()

    def close(self) -> None:
        self._draw(time.monotonic())
        self.stream.write("\n")
        self.stream.flush()


def run_locomo(service, conversations: list[Conversation], ks: tuple[int, ...] = DEFAULT_KS,
               limit_questions: int | None = None, judge: Judge | None = None,
               stream=None) -> dict:
    """Ingest, evaluate and summarise; returns the report (without printing it)."""
    stream = stream if stream is not None else sys.stderr
    progress = Progress(sum(len(c.sessions) for c in conversations), "ingest  ", stream)
    ingested = [ingest_conversation(service, c, progress) for c in conversations]
    progress.close()

    total = sum(len(c.questions[:limit_questions]) for c in conversations)
    progress = Progress(total, "evaluate", stream)
    start = time.perf_counter()
    records = [r for ing in ingested
               for r in evaluate_conversation(ing, ks, limit_questions, judge, progress)]
    progress.close()
    evaluate_seconds = time.perf_counter() - start
    return {
        "dataset": {
            "conversations": [c.sample_id for c in conversations],
            "sessions": sum(len(c.sessions) for c in conversations),
            "turns": sum(len(c.turns) for c in conversations),
            "evidence_dropped": {c.sample_id: c.evidence_dropped
                                 for c in conversations if c.evidence_dropped},
        },
        "ingest": [{"sample_id": i.conversation.sample_id, "profile": i.conversation.profile_name,
                    "messages": len(i.dia_ids_by_message), "memories": i.memories,
                    "seconds": round(i.seconds, 3)} for i in ingested],
        "timing_s": {"ingest": round(sum(i.seconds for i in ingested), 3),
                     "evaluate": round(evaluate_seconds, 3)},
        **summarize(records, ks),
        "records": records,
    }


def parse_ks(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        ks = ()
    if not ks or ks[0] < 1:
        raise argparse.ArgumentTypeError(f"--k wants positive integers like 5,10,20, not {text!r}")
    return ks


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return value


def add_parser(benchmarks) -> argparse.ArgumentParser:
    """Register `locomo` on the `lurker eval` subparsers."""
    p = benchmarks.add_parser("locomo", help="evidence recall and answer F1 on LoCoMo",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("--data", required=True, help="LoCoMo JSON (the locomo10.json shape)")
    p.add_argument("--store", default=argparse.SUPPRESS,
                   help="store URL for the locomo:* profiles (default: LURKER_STORE)")
    p.add_argument("--k", type=parse_ks, default=DEFAULT_KS, help="recall cut-offs (default 5,10,20)")
    p.add_argument("--out", help="write config, per-system numbers and per-question records here")
    p.add_argument("--limit-conversations", type=_positive, help="only the first N conversations")
    p.add_argument("--limit-questions", type=_positive,
                   help="only the first N questions of each conversation")
    p.add_argument("--judge", action="store_true",
                   help="also grade answers CORRECT/WRONG with the LLM judge (needs ANTHROPIC_API_KEY)")
    p.add_argument("--judge-model", help="model for --judge (default: LURKER_ANSWER_MODEL)")
    return p


def _make_judge(settings, model: str | None) -> Judge:
    from ..llm.client import LLMClient

    client = LLMClient(api_key=settings.anthropic_api_key, base_url=settings.anthropic_base_url,
                       max_retries=settings.llm_max_retries)
    return Judge(client, model or settings.answer_model)


def run_command(args: argparse.Namespace) -> int:
    """`lurker eval locomo`: print the tables, write --out, return the exit code."""
    from ..config import Settings
    from ..service import MemoryService

    store = getattr(args, "store", None)
    settings = Settings(**({"store": store} if store else {}))
    if args.judge and not settings.anthropic_api_key:
        raise LurkerError("--judge needs ANTHROPIC_API_KEY (the judge is an LLM)")
    conversations = load_locomo(args.data)[:args.limit_conversations]
    judge = _make_judge(settings, args.judge_model) if args.judge else None
    note = (OFFLINE_NOTE if not settings.anthropic_api_key
            else "answers also judged by the LLM (J)" if judge else NO_JUDGE_NOTE)
    started = datetime.now(timezone.utc)
    wall = time.perf_counter()
    with MemoryService.from_settings(settings) as service:
        report = run_locomo(service, conversations, args.k, args.limit_questions, judge)
        config = {
            "data": str(args.data), "store": settings.store, "ks": list(args.k),
            "per_category_k": per_category_k(args.k),
            "limit_conversations": args.limit_conversations,
            "limit_questions": args.limit_questions,
            "embedder": service.embedder.name, "extractor": type(service.extractor).__name__,
            "answerer": getattr(service.answerer, "name", type(service.answerer).__name__),
            "judge": judge.model if judge else None, "answer_scoring": note,
            "started_at": started.isoformat(), "runtime_s": round(time.perf_counter() - wall, 3),
        }
    report = {"config": config, **report}
    print(format_report(report, args.k, note))
    print(f"runtime: {config['runtime_s']:.1f}s (ingest {report['timing_s']['ingest']:.1f}s, "
          f"evaluate {report['timing_s']['evaluate']:.1f}s)")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n",
                                  encoding="utf-8")
        print(f"wrote {args.out}")
    return 0
