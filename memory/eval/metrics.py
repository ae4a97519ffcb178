"""Scoring for the LoCoMo evaluation: pure functions, no I/O.

Answer scores follow LoCoMo's own evaluation code (task_eval/evaluation.py of the LoCoMo repository):
- normalise: drop commas, lowercase, remove punctuation, remove the words a/an/the/and, split on
  whitespace; stem every token with the Porter stemmer (LoCoMo uses NLTK's PorterStemmer; here the
  Snowball project's "porter" algorithm, the same original Porter rules);
- token F1 between the prediction's and the gold answer's tokens (bag-of-tokens overlap);
- category 1 (multi-hop): both are split on commas, and the score is the mean, over the gold
  sub-answers, of the best F1 any prediction part reaches against it;
- category 3 (open-domain): only the gold answer's first ';'-separated alternative is used;
- category 5 (adversarial, unanswerable): 1 if the answer declines, else 0.

Evidence recall: the share of a question's evidence turns (dia_ids such as "D3:12") covered by what a
system hands over, three ways:
- at k results (recall@k): a raw message covers its own turn(s), a memory the turns of every
  source message it cites. Systems whose results cover several turns look better here than they
  are, so the figures that lead are the two budgets below.
- at a budget of T turns: the ranking flattened to distinct turns in rank order, cut at T; a memory
  brings only the turns whose content it carries (`carries`): a cited question whose words are not
  in the memory is context the answerer never reads, not evidence.
- at a budget of N characters: results in rank order, each as the text the answerer would read
  (a memory's content, a raw turn, a passage of a long one), taken while they fit in N (one that
  does not fit is skipped); a result's turns count when its text was taken.
"""
from __future__ import annotations

import math
import re
import string
from dataclasses import dataclass
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

# carries: a memory is credited with a turn only when it carries it, the test fusion folds by
from ..text import CARRY_SHARE, carries, thread_stemmer  # noqa: F401 (re-exported)

CATEGORY_NAMES: dict[int, str] = {1: "multi-hop", 2: "temporal", 3: "open-domain",
                                  4: "single-hop", 5: "adversarial"}
MULTI_HOP, TEMPORAL, OPEN_DOMAIN, SINGLE_HOP, ADVERSARIAL = 1, 2, 3, 4, 5

_PUNCTUATION = set(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")

# An answer that declines. NO_ANSWER is the engine's own wording (memory.synthesis); the others are
# the phrases LoCoMo's scorer looks for plus common ways a model says it does not know.
DECLINE_PHRASES = (
    "no information available", "not mentioned", "no information", "don't have anything",
    "do not have anything", "don't have any information", "do not have any information",
    "not in memory", "no record", "no mention", "cannot be determined", "can't be determined",
    "unable to determine", "cannot answer", "can't answer", "not enough information",
)


# --- answers ------------------------------------------------------------------------------------
def normalize_answer(text: str) -> str:
    """LoCoMo's normalize_answer: no commas, lowercase, no punctuation, no a/an/the/and."""
    text = str(text).replace(",", "").lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def answer_tokens(text: str) -> list[str]:
    """Normalised, Porter-stemmed tokens."""
    return thread_stemmer("porter").stemWords(normalize_answer(text).split())


def token_f1(prediction: str, gold: str) -> float:
    """Bag-of-tokens F1 of the stemmed, normalised strings (0.0 when either is empty)."""
    pred, ref = answer_tokens(prediction), answer_tokens(gold)
    same = sum((Counter(pred) & Counter(ref)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def multi_hop_f1(prediction: str, gold: str) -> float:
    """LoCoMo's multi-hop score: split both on commas; average over gold parts of the best F1."""
    preds = [p.strip() for p in str(prediction).split(",")]
    golds = [g.strip() for g in str(gold).split(",")]
    return sum(max(token_f1(p, g) for p in preds) for g in golds) / len(golds)


def is_decline(answer: str) -> bool:
    """Whether the answer says the information is not there (the right answer to category 5)."""
    from ..synthesis import NO_ANSWER

    text = " ".join(str(answer).lower().replace("\u2019", "'").split())
    return NO_ANSWER.lower() in text or any(phrase in text for phrase in DECLINE_PHRASES)


def answer_score(prediction: str, gold: str | int | float | None, category: int) -> float:
    """The LoCoMo answer score of one prediction for its question's category."""
    if category == ADVERSARIAL:
        return 1.0 if is_decline(prediction) else 0.0
    gold = str(gold if gold is not None else "")
    if category == MULTI_HOP:
        return multi_hop_f1(prediction, gold)
    if category == OPEN_DOMAIN:
        gold = gold.split(";")[0].strip()
    return token_f1(prediction, gold)


def decline_rates(records: Iterable[Mapping]) -> dict[str, float | None]:
    """The share of adversarial (category 5) questions declined, which is right, and of answerable
    ones (1-4) declined, which is a false decline: one is raised at the other's expense."""
    records = list(records)
    adversarial = [bool(r["declined"]) for r in records if r["category"] == ADVERSARIAL]
    answerable = [bool(r["declined"]) for r in records if r["category"] != ADVERSARIAL]
    return {"adversarial": mean(adversarial), "false": mean(answerable)}


# --- evidence recall ----------------------------------------------------------------------------
def record_dia_ids(record, dia_ids_by_message: Mapping[str, Sequence[str]]) -> list[str]:
    """The turns a retrieved record covers: a memory (it has `source_message_ids`) covers the turns
    of its source messages, a raw message (anything else with an `id`) covers its own turns."""
    sources = getattr(record, "source_message_ids", None)
    ids = sources if sources is not None else [record.id]
    return [d for i in ids for d in dia_ids_by_message.get(i, ())]


@dataclass(frozen=True)
class Shown:
    """One result as scored: the turns it cites, the turns it carries, and how many characters the
    answerer reads for it."""

    cited: tuple[str, ...]
    carried: tuple[str, ...]
    chars: int


def shown(record, dia_ids_by_message: Mapping[str, Sequence[str]],
          texts: Mapping[str, str]) -> Shown:
    """A retrieved record (memory, raw message, or a passage of one) as scored. `texts`: message
    id -> its raw text, for the carried test."""
    cited = tuple(record_dia_ids(record, dia_ids_by_message))
    sources = getattr(record, "source_message_ids", None)
    if sources is None:  # raw text: it carries its own turn
        return Shown(cited, cited, len(record.content))
    carried = tuple(d for i in sources if carries(record.content, texts.get(i, ""))
                    for d in dia_ids_by_message.get(i, ()))
    return Shown(cited, carried, len(record.content))


def turn_budget(entries: Sequence[Iterable[str]], budget: int) -> list[str]:
    """The first `budget` distinct turns of a ranking (each entry: the turns one result brings)."""
    seen: dict[str, None] = {}
    for entry in entries:
        for d in entry:
            if len(seen) >= budget:
                return list(seen)
            seen.setdefault(d)
    return list(seen)


def char_budget(entries: Sequence[tuple[Iterable[str], int]], budget: int) -> list[str]:
    """The turns of the results taken, in rank order, while their text fits in `budget`
    characters (a result that does not fit is skipped, as a context builder would)."""
    left, covered = budget, {}
    for turns, chars in entries:
        if chars <= left:
            left -= chars
            for d in turns:
                covered.setdefault(d)
    return list(covered)


def covered_recall(evidence: Iterable[str], covered: Iterable[str]) -> float | None:
    """Share of `evidence` in `covered`; None when there is no evidence."""
    wanted = set(evidence)
    if not wanted:
        return None
    return len(wanted & set(covered)) / len(wanted)


def evidence_recall(evidence: Iterable[str], ranked: Sequence[Iterable[str]], k: int
                    ) -> float | None:
    """Share of `evidence` covered by the first k entries of `ranked` (each entry: the dia_ids one
    result covers). None when there is no evidence (the question is left out of recall)."""
    wanted = set(evidence)
    if not wanted:
        return None
    covered = {d for entry in ranked[:k] for d in entry}
    return len(wanted & covered) / len(wanted)


# --- aggregates ---------------------------------------------------------------------------------
def mean(values: Iterable[float | None]) -> float | None:
    """Mean of the values that are not None; None if there are none."""
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0-100) with linear interpolation (numpy's default); None if empty."""
    ordered = sorted(values)
    if not ordered:
        return None
    pos = (len(ordered) - 1) * q / 100
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)
