"""Client-side English stemming for full-text search, so a store can rank stemmed BM25 without the
backend's own analysers (Elasticsearch's bare distribution has no `english` analyser): lowercase
word tokens, English stop words dropped, Snowball (Porter2) English stems."""
from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache

import snowballstemmer

from .dates import ANNOTATED
from .topics import asked_tool_category, kind_search_words

# Lucene's English stop set plus question words, pronouns and auxiliaries: in an OR query they only
# add noise to the BM25 ranking ("what did we decide about the rate limit?" -> decid rate limit).
STOP_WORDS: frozenset[str] = frozenset("""
a an and are as at be but by for if in into is it no not of on or such that the their then there
these they this to was will with
about am any been being can could did do does doing done had has have having he her hers him his
how i its me my our ours she should so than them those too very was we were what when where
which who whom why would you your yours
""".split())

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")  # words; "rate_limit" is two


class _ThreadStemmers(threading.local):
    """One stemmer per thread and algorithm: a Snowball stemmer keeps the word being stemmed in
    the object (pure-Python snowballstemmer and the C PyStemmer alike), so two threads sharing one
    get each other's stems (seen: 8 API threads -> ~25 % wrong stems, IndexErrors)."""

    def __init__(self) -> None:
        self.by_algorithm: dict[str, object] = {}

    def get(self, algorithm: str):
        stemmer = self.by_algorithm.get(algorithm)
        if stemmer is None:
            stemmer = self.by_algorithm[algorithm] = snowballstemmer.stemmer(algorithm)
        return stemmer


_stemmers = _ThreadStemmers()


# Work asked of anyone: "can someone check …", "who can take the swap?" (not "can anyone
# recommend / explain / tell …", which ask for an answer). The extractor keeps such a question as
# a task; open work counts it as a commitment.
ASKED_OF_ANYONE = (r"(?:can|could|would)\s+(?:someone|somebody|anyone|anybody)\s+"
                   r"(?!be\b|have\b|tell\b|explain\b|remind\b|recommend\b|suggest\b|think\b|"
                   r"guess\b|see\b|hear\b|imagine\b)\w"
                   r"|who\s+can\s+(?:take|do|handle|own|pick up|look)\b")


def thread_stemmer(algorithm: str = "english"):
    """This thread's own Snowball stemmer for `algorithm` (never share one across threads)."""
    return _stemmers.get(algorithm)


@lru_cache(maxsize=65536)  # a pure function of the word, so the cache is safe to share
def _stem(word: str) -> str:
    return thread_stemmer().stemWord(word)


def stem_words(words_: Iterable[str]) -> list[str]:
    """English Snowball stems of already tokenised words, in order (cached, thread-safe)."""
    return [_stem(w) for w in words_]


def words(text: str) -> list[str]:
    """Lowercased word tokens: letters/digits, apostrophes inside a word kept (typographic ones
    normalised), underscores split."""
    low = text.lower()
    if "(" in low:
        low = _PLAN_LETTER.sub(r"\1\2", low)
    return [w.replace("’", "'") for w in _WORD.findall(low)]


# a retirement plan's name is one word however written: "401(k) match goes from 4% to 5%" and
# "what's the 401k match?" (no word shared: "401", "k" and "401k")
_PLAN_LETTER = re.compile(r"\b(401|403|457)\s*\(\s*([kb])\s*\)")


def stem_tokens(text: str) -> list[str]:
    """The stems of the non-stop words of `text`, in order, repeats kept (they count for BM25)."""
    out = []
    for word in words(text):
        if word in STOP_WORDS:
            continue
        stem = _stem(word)
        if stem.endswith("'"):  # "teams'" -> "team'"
            stem = stem.rstrip("'")
        if stem and stem not in STOP_WORDS:  # "it's" -> "it"
            out.append(stem)
    return out


# a title's stop ends no sentence: "Dr. Patel is out Dec 8-12" was two, "Dr." and "Patel is out
# …", and "when is Dr. Patel back?" found no Dr. Patel (one lookbehind each: Python's are fixed)
NOT_AN_END = "".join(rf"(?<!\b{re.escape(word)})" for word in (
    "Dr.", "Drs.", "Mr.", "Mrs.", "Ms.", "Mx.", "Prof.", "St.", "Sr.", "Jr.", "Mt.", "Capt.",
    "Gen.", "Col.", "Lt.", "Sgt.", "Rev.", "Hon.", "Fig.", "vs.", "approx.", "e.g.", "i.e.",
    "cf."))

CARRY_SHARE = 0.6  # a source sentence is carried when this share of its word stems is in the memory
_SOURCE_SENTENCE = re.compile(rf"(?<=[.!?]){NOT_AN_END}\s+|\n+")


def carries(content: str, source: str) -> bool:
    """Whether a memory's `content` carries some sentence of its `source` message: at least
    CARRY_SHARE of that sentence's content-word stems are in the memory. "John signed with the
    Wolves" carries "I signed with the Wolves!" but not the question "Which team did you sign
    with?" that it answers."""
    have = set(stem_tokens(content))
    for sentence in _SOURCE_SENTENCE.split(source):
        stems = set(stem_tokens(sentence))
        if stems and len(stems & have) >= CARRY_SHARE * len(stems):
            return True
    return False


QUOTE_SHARE = 0.8  # siblings that differ in their value ("runs Postgres 14" / "runs Redis 7") share less


def quotes(content: str, quoted: str) -> bool:
    """Whether `content` repeats the memory `quoted` whole: nearly all its word stems (its dates
    as labelled at ingest left out), as a correction quotes what it corrects."""
    want = set(stem_tokens(ANNOTATED.sub("", quoted)))
    return bool(want) and len(want & set(stem_tokens(content))) >= QUOTE_SHARE * len(want)


def query_stems(text: str, limit: int = 32) -> list[str]:
    """Unique stems of a query, first occurrence order, at most `limit`."""
    return list(dict.fromkeys(stem_tokens(text)))[:limit]


_english_words: frozenset[str] | None = None
_english_lock = threading.Lock()


def english_word(word: str) -> bool:
    """A word of four letters or more in pyspellchecker's English list (read on first use, once,
    and then shared read-only between threads). Rare words count too: "caching", "unset" and
    "deprecated" (what a password is said to be, memory.redaction); "owner", "status" (what a
    "Word: value" topic key is about, memory.offline_extractor). Shorter words never count."""
    global _english_words
    if _english_words is None:
        with _english_lock:
            if _english_words is None:
                from spellchecker import SpellChecker
                _english_words = frozenset(
                    w for w in SpellChecker(language="en", distance=1).word_frequency.dictionary
                    if len(w) >= 4)
    return word.lower() in _english_words


# Words a team writes short: "what version is in production right now?" and "prod is on 4.11.3"
# share "prod" ("production" stems to "product", "prod" to itself). The answerer reads both
# forms as the short one; a search adds the other form (`expand_query`).
SHORT_FORMS = {"production": "prod", "environment": "env", "environments": "env",
               "repository": "repo", "repositories": "repo", "configuration": "config",
               "database": "db", "databases": "db", "kubernetes": "k8s",
               "documentation": "docs", "authentication": "auth", "infrastructure": "infra",
               "dependencies": "deps", "dependency": "deps", "elasticsearch": "es",
               # "PG16 upgrade pushed a week" moved "the Postgres 16 upgrade" (it was answered
               # with the old day: no word of the two was one)
               "postgresql": "pg", "postgres": "pg"}
# Units as chat writes them, read as the words written out: "SSO for Acme (8 pts, dana)" for
# "how many points is the SSO story?" (declined). Short to long, unlike SHORT_FORMS: "points" is
# also a verb ("the db alias points to db-3"), which must stay the word "point" on both sides.
UNIT_FORMS = {"pts": "points", "mins": "minutes", "hrs": "hours", "secs": "seconds"}
_UNIT_SHORT = {long: short for short, long in UNIT_FORMS.items()}  # ("point of contact" stays)
_LONG_FORMS = {short: long for long, short in SHORT_FORMS.items()
               if not long.endswith(("s", "ies")) or short in ("deps", "pg")}
# a short form run into its version: "PG16" is "pg 16"
SHORT_WITH_VERSION = re.compile(r"\b(pg)(\d{1,2})\b")
# phrases a team writes as their letters: "who was the incident commander?" and "I'm IC"
SHORT_PHRASES = {"incident commander": "ic", "pull request": "pr", "merge request": "mr",
                 "root cause analysis": "rca", "out of office": "ooo", "point of contact": "poc",
                 "service level objective": "slo", "end of day": "eod",
                 "account manager": "am", "account executive": "ae",
                 # "what learning rate fixed the divergence?" and "lowering lr to 1e-5"
                 "learning rate": "lr",
                 # "BF email sent to 182k contacts" for "… the Black Friday email?"
                 "black friday": "bf",
                 # a rota, not a call: "who was on call last week?" shared "call" with "after the
                 # sales call we're raising Pro to $59"
                 "on call": "oncall", "on-call": "oncall",
                 # "when did the rate limit roll out?" and "rollout Dec 1" (no word shared)
                 "roll out": "rollout", "roll-out": "rollout", "rolled out": "rollout",
                 "rolling out": "rollout", "rolls out": "rollout",
                 # "how do I log into docker?" and "docker login -u deploybot -p …" (declined)
                 # ("log in" last: the long form "login" is searched with)
                 "logging in": "login", "logged in": "login", "logs in": "login",
                 "log into": "login", "log-in": "login", "log in": "login"}
# a noun written as its verb's two words: "when do we pick up the van?" and "van rental
# confirmed, pickup Jan 7" (declined: no word shared); "can pick mom up" keeps its verb apart
_COMPOUND_NOUN = re.compile(r"(?i)\b(pick|drop|kick)-?(up|off)s?\b")
# a change that says the rest of what it changes stands: "update: field trip moved to Friday …,
# everything else the same" moved no permission slips' day and no price
REST_AS_BEFORE = re.compile(r"(?i)\b(?:everything|all)\s+else\s+(?:is\s+|stays\s+|remains\s+)?"
                            r"(?:the\s+same|unchanged|as\s+is)\b|\bnothing\s+else\s+change[sd]?\b|"
                            r"\brest\s+(?:is\s+|stays\s+)?(?:the\s+same|unchanged)\b")
_PHRASE = re.compile(r"\b(?:" + "|".join(SHORT_PHRASES) + r")\b", re.IGNORECASE)
_LONG_PHRASES = {short: long for long, short in SHORT_PHRASES.items()}


def short_phrases(text: str) -> str:
    """`text` with each phrase of SHORT_PHRASES as its letters (and "401(k)" as "401k")."""
    if "(" in text:
        text = _PLAN_LETTER.sub(r"\1\2", text)
    text = _PHRASE.sub(lambda m: SHORT_PHRASES[m.group(0).lower()], text)
    return _COMPOUND_NOUN.sub(r"\1 \2", text) if "up" in text or "off" in text else text
_ASKS_VERSION = re.compile(
    r"(?i)\b(?:what|which)(?:'s|\u2019s| is)?\s+(?:the\s+)?(?:current\s+|latest\s+)?"
    r"(?:version|release|build)\b|\bversion\s+(?:is|are)\b|"
    r"\bwhen\b.*\b(?:last|latest|most recent|previous)\s+(?:release|deploy|deployment|version|"
    r"build|hotfix)\b|\bwhen\s+did\s+we\s+last\s+(?:release|deploy|ship)"
    # "what's in prod right now?", "what's running on staging?"
    r"|\bwhat(?:'s|\u2019s| is)\s+(?:running\s+|deployed\s+|live\s+|out\s+)?(?:in|on)\s+"
    r"(?:prod(?:uction)?|staging|stage|live)\b")
# what a version's answer says instead of "version": "Hotfix 4.12.2 shipped", "4.12.1 is out"
_SHIPPING_WORDS = "shipped released deployed rollout live out"
# what a blocker's answer says instead of "blocked": "pg_partman 4.x isn't compatible with PG16",
# "#2250 on hold until …" (BM25 found neither for "what blocked the upgrade?")
_ASKS_BLOCKER = re.compile(r"(?i)\bblock(?:s|ed|ing|ers?)?\b|\bheld\s+up\b|\bholding\s+up\b")
_BLOCKER_WORDS = "blocker hold stuck waiting depends compatible incompatible issue"
# what a choice's answer says instead of "pick": "Going with Blue Fin." (no channel found it for
# "which agency did we pick?", sharing no word with it)
# (a team's choice, asked of "we": LoCoMo's "why did Caroline choose …?" lost open-domain
# questions to "going" and "went", 0.453 -> 0.447 at T@5)
_ASKS_CHOICE = re.compile(r"(?i)\b(?:did|do|have|will|should|are)\s+we\s+(?:pick|choose|select|"
                          r"go\s+with|settle\s+on|opt\s+for)\b|\bwe\s+(?:picked|chose|selected|"
                          r"went\s+with|settled\s+on|opted\s+for)\b")
_CHOICE_WORDS = "going went chose picked selected opted settled"


def asks_version(question: str) -> bool:
    """"what version is in prod?", "which release are we on?", "when was the last release?"."""
    return bool(_ASKS_VERSION.search(question))


# How questions are typed in chat, spelled out before anything reads them: "wat time is
# standup" was declined (what the question asked was "wat"), "whats in prod rn?" too.
# (lower case only, between words: "R" is a language, "Wen" a name, "U.S." a country)
_CHAT_SPELLINGS = {"wat": "what", "wut": "what", "wht": "what", "wats": "what's",
                   "whats": "what's", "whos": "who's", "wheres": "where's", "whens": "when's",
                   "r": "are", "u": "you", "ur": "your", "rn": "right now",
                   "atm": "at the moment", "pls": "", "plz": ""}
_CHAT_SPELLING = re.compile(r"(?<![\w'’.-])(?:" + "|".join(_CHAT_SPELLINGS) +
                            r")(?![\w'’-]|\.\w)")
_OPENING = {"wen": "when", "y": "why"}  # only where a question starts
_CHAT_OPENING = re.compile(r"^(\W*)(wen|y)(?=\s+\w)")


def spelled_out(question: str) -> str:
    """The question with chat's spellings written out ("wat time is standup" -> "what time is
    standup"); other text as it is."""
    question = _CHAT_OPENING.sub(lambda m: m[1] + _OPENING[m[2].lower()], question)
    out = _CHAT_SPELLING.sub(lambda m: _CHAT_SPELLINGS[m[0]], question)
    if out == question:
        return out
    out = re.sub(r"\s{2,}", " ", out).strip()
    return out if re.search(r"\w", out) else question  # "pls?" alone stays what was asked


def expand_query(text: str) -> str:
    """The query with the other form of a word written short or long ("prod" / "production"),
    and, for a question asking which version, the words its answer says instead."""
    extra = [SHORT_FORMS.get(w) or _LONG_FORMS.get(w) or _LONG_PHRASES.get(w)
             or _UNIT_SHORT.get(w) or UNIT_FORMS.get(w) for w in words(text)]
    extra += [SHORT_PHRASES[m.group(0).lower()] for m in _PHRASE.finditer(text)]
    extra = [w for w in dict.fromkeys(extra) if w]
    if asks_version(text):
        extra.append(_SHIPPING_WORDS)
    if _ASKS_BLOCKER.search(text):
        extra.append(_BLOCKER_WORDS)
    if _ASKS_CHOICE.search(text):
        extra.append(_CHOICE_WORDS)
    kind = asked_tool_category(text)
    if kind is not None:  # "what package manager do we use?" finds "Build uses pnpm 9"
        extra.append(kind_search_words(kind))
    return f"{text} {' '.join(extra)}" if extra else text


def sums_named(text: str) -> list[str]:
    """The sums of money a text names ("$412", "€1,200"), each once."""
    return list(dict.fromkeys(_SUM.findall(ANNOTATED.sub("", text))))


_SUM = re.compile(r"[$€£]\d+(?:,\d{3})*(?:\.\d+)?(?:[kKmMbB]\b)?(?![\d.,]?\d)")
