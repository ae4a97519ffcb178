"""Secrets never reach storage: API keys, tokens, private keys and password assignments are
replaced with a visible marker before a message or memory is stored (and before ids are computed,
so not even a hash of the secret is kept)."""
from __future__ import annotations

import re

# (kind, pattern); a pattern with a group named "secret" redacts only that part.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
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
        # Letters, not word boundaries, delimit the label: DB_PASSWORD=... counts too.
        r"(?i)(?<![a-z])(?:password|passwd|pwd|passphrase|secret|api[_ -]?key|access[_ -]?key|"
        r"auth[_ -]?token|token)(?![a-z])[\"']?\s*(?:is|:|=|->)\s*[\"']?(?P<secret>[^\s\"',;]{4,})")),
    # "the admin password for grafana is X": a qualifier only after unambiguous password words
    # ("the secret of success is ..." must stay readable).
    ("password", re.compile(
        r"(?i)(?<![a-z])(?:password|passwd|passphrase)\s+(?:for|of|on|to)\s+(?:the\s+)?"
        r"[\w.@-]+(?:\s+[\w.@-]+)?\s*(?:is|:|=)\s*[\"']?(?P<secret>[^\s\"',;]{4,})")),
]


def marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def redact(text: str) -> tuple[str, list[str]]:
    """The text with secrets replaced, and the kinds found (for counts and logs, never values)."""
    found: list[str] = []
    for kind, pattern in _PATTERNS:
        def replace(m: re.Match, kind=kind) -> str:
            if m.group(0).startswith("[REDACTED") or "[REDACTED:" in m.group(0):
                return m.group(0)
            found.append(kind)
            if "secret" in pattern.groupindex:
                start, end = m.span("secret")
                base = m.start()
                return m.group(0)[: start - base] + marker(kind) + m.group(0)[end - base:]
            return marker(kind)
        text = pattern.sub(replace, text)
    return text, found
