"""Secret redaction: recall and false-positive rate on the labelled corpus, and the time per message
on ordinary chat, for three scanners measured in the same run:

  (a) baseline  the hand-written regexes memory/redaction.py had before (copied below, frozen)
  (b) detect-secrets alone: Yelp's scanner as its ad hoc string scan reports (`detect-secrets scan
      --string`: every plugin, its default filters, high-entropy strings over the plugin's limit;
      verification off, so nothing leaves the machine), each reported value replaced
  (c) shipped   memory.redaction.redact

    python bench/redaction.py [--chat ../shared/benchdata/ubuntu-irc] [--chat-lines 20000]

The corpus is tests/data/secret_corpus.jsonl (see tests/secret_corpus.py for how secret values are
filled in and how lines are scored); "tuning" lines were written before the shipped rules were
tuned, "heldout" lines after, and scored unchanged; "found" lines were written on 26 Nov after a
Stripe webhook secret reached memory from outside (providers and shapes the rules had not seen),
scored once before the rules were changed for them, then tuned on; "fresh" lines were written on 27
Nov on how people paste passwords in prose ("use X as the admin password", "admin / X", "(pw X)"),
scored once (1/14 caught, 2/16 false positives), then tuned on (14 more, PINs, .pgpass lines and
"user:X@host", the same way: 0/6, 0/8; and two guard lines since); "heldout-27nov" lines were written
after that tuning and scored once (7/10 caught, 2/10 false positives), then tuned on for what they
found. Ordinary chat for the timing is the message
lines of the Ubuntu IRC logs (`[HH:MM] <nick> text`); the lines any scanner changes there are
counted too (they are unlabelled: most changes there are false positives).
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory.redaction import redact  # noqa: E402
from tests.secret_corpus import Case, load, score  # noqa: E402

# --- (a) the hand-written patterns memory/redaction.py had before detect-secrets ----------------
_BASELINE: list[tuple[str, re.Pattern[str]]] = [
    ("private-key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE "
                               r"KEY-----|\Z)", re.DOTALL)),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai-key", re.compile(r"\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}")),
    ("stripe-key", re.compile(r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("url-password", re.compile(r"(?<=://)[^/\s:@]+:(?P<secret>[^/\s@]+)(?=@)")),
    ("password", re.compile(
        r"(?i)(?<![a-z])(?:password|passwd|pwd|passphrase|secret|api[_ -]?key|access[_ -]?key|"
        r"auth[_ -]?token|token)(?![a-z])[\"']?\s*(?:is|:|=|->)\s*[\"']?"
        r"(?P<secret>[^\s\"',;]{4,})")),
    ("password", re.compile(
        r"(?i)(?<![a-z])(?:password|passwd|passphrase)\s+(?:for|of|on|to)\s+(?:the\s+)?"
        r"[\w.@-]+(?:\s+[\w.@-]+)?\s*(?:is|:|=)\s*[\"']?(?P<secret>[^\s\"',;]{4,})")),
]


def baseline(text: str) -> str:
    for kind, pattern in _BASELINE:
        def replace(m: re.Match, kind=kind, pattern=pattern) -> str:
            if "[REDACTED:" in m.group(0):
                return m.group(0)
            if "secret" in pattern.groupindex:
                start, end = m.span("secret")
                return (m.group(0)[:start - m.start()] + f"[REDACTED:{kind}]"
                        + m.group(0)[end - m.start():])
            return f"[REDACTED:{kind}]"
        text = pattern.sub(replace, text)
    return text


# --- (b) detect-secrets alone -------------------------------------------------------------------
def detect_secrets_alone():
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import default_settings, get_plugins

    def scan(text: str) -> str:
        found: set[tuple[str, str]] = set()
        with default_settings():  # every plugin, default filters, no verification
            plugins = {p.secret_type: p for p in get_plugins()}
            for line in text.split("\n"):
                for secret in scan_line(line):
                    # what `detect-secrets scan --string` reports as True (entropy over the limit)
                    if plugins[secret.type].format_scan_result(secret).startswith("True") \
                            and secret.secret_value:
                        found.add((secret.type, secret.secret_value))
        for kind, value in sorted(found, key=lambda f: -len(f[1])):
            text = text.replace(value, f"[REDACTED:{kind}]")
        return text
    return scan


def shipped(text: str) -> str:
    return redact(text)[0]


# --- ordinary chat ------------------------------------------------------------------------------
_IRC_MESSAGE = re.compile(r"\[\d\d:\d\d\] <[^>]+> (.+)")


def chat_lines(folder: Path, limit: int) -> list[str]:
    lines: list[str] = []
    for path in sorted(folder.rglob("*.raw.txt")):
        for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
            m = _IRC_MESSAGE.match(raw)
            if m:
                lines.append(m.group(1))
                if len(lines) >= limit:
                    return lines
    return lines


def per_message_us(scan, lines: list[str], repeats: int = 3) -> float:
    """Median over `repeats` runs of the mean microseconds per line."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for line in lines:
            scan(line)
        runs.append((time.perf_counter() - start) / len(lines) * 1e6)
    return statistics.median(runs)


def rates(scan, cases: list[Case]) -> str:
    s = score(scan, cases)
    return (f"{s.recall:.3f} ({s.caught}/{s.secrets})  "
            f"{s.false_positive_rate:.3f} ({s.false_positives}/{s.ordinary})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chat", type=Path, default=ROOT.parent / "shared" / "benchdata" /
                        "ubuntu-irc", help="the Ubuntu IRC logs folder (ordinary chat)")
    parser.add_argument("--chat-lines", type=int, default=20000)
    parser.add_argument("--show", action="store_true", help="print the misses and false positives")
    args = parser.parse_args()

    cases = load()
    sets = list(dict.fromkeys(c.set for c in cases))  # in the order they were written
    by_set = {name: [c for c in cases if c.set == name] for name in sets}
    kinds = len({c.kind for c in cases if c.is_secret})
    print(f"corpus: {len(cases)} lines ({sum(c.is_secret for c in cases)} with secrets of {kinds} "
          f"kinds, {sum(not c.is_secret for c in cases)} ordinary); "
          + ", ".join(f"{name} {len(by_set[name])}" for name in sets))
    scanners = [("(a) baseline regexes", baseline), ("(b) detect-secrets alone",
                                                     detect_secrets_alone()),
                ("(c) shipped", shipped)]
    lines = chat_lines(args.chat, args.chat_lines) if args.chat.exists() else []
    print(f"{'scanner':26} {'all: recall  FP rate':32} "
          + " ".join(f"{name:32}" for name in sets) + f" {'us/msg':>7} {'chat changed':>12}")
    for name, scan in scanners:
        timed = lines if "detect-secrets" not in name else lines[:2000]  # it is slow
        us = per_message_us(scan, timed, 1 if "detect-secrets" in name else 3) if lines else 0
        changed = sum(scan(line) != line for line in timed)
        print(f"{name:26} {rates(scan, cases):32} "
              + " ".join(f"{rates(scan, by_set[s]):32}" for s in sets)
              + f" {us:7.1f} {changed:5}/{len(timed)}")
        if args.show:
            s = score(scan, cases)
            for c in s.missed:
                print(f"   missed  {c.number:4} {c.kind:16} {scan(c.text)[:120]!r}")
            for c in s.flagged:
                print(f"   flagged {c.number:4} {c.kind:16} {scan(c.text)[:120]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
