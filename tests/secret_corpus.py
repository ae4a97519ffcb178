"""The labelled secret-scanning corpus (tests/data/secret_corpus.jsonl) and how it is scored.

Each line of the corpus is `{"text", "label": "secret"|"ordinary", "kind", "set"?}`. Secret
values are not written in the file: a secret line holds placeholders such as `{{aws_secret}}` (`{{password#2}}`
for a second, different value of the same kind in one line), and `load()` fills each with a
value of the real shape — prefix, alphabet, length, base64 of real JSON for JWTs, PEM lines for
keys — drawn from a random generator seeded by the line number and placeholder, so the corpus is
the same on every run and no credential-shaped string is committed. Ordinary lines are literal
technical chat: commit SHAs, UUIDs in ticket links, base64 in pasted code, hashes, versions, URLs.

The lines without a `set` (the tuning set) were written first and memory/redaction.py's rules
were then adjusted until they passed; the `"set": "heldout"` lines were written afterwards and
scored once, unchanged, so their figures say how the rules do on chat they were not fitted to.

Scoring (`score`): a secret line is caught when no 10-character run of any of its values (the
whole value when shorter) is left in the redacted text; an ordinary line is a false positive
when redaction changed it at all.
"""
from __future__ import annotations

import base64
import json
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).parent / "data" / "secret_corpus.jsonl"
_PLACEHOLDER = re.compile(r"\{\{([a-z0-9_]+)(?:#(\d+))?\}\}")
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "_-"


def _pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _jwt(rng: random.Random) -> str:
    header = {"alg": "HS256", "typ": "JWT"}
    payload = {"sub": str(rng.randrange(10**6, 10**7)), "name": rng.choice(["maya", "lee", "ops"]),
               "iat": rng.randrange(1_600_000_000, 1_800_000_000)}
    signature = bytes(rng.randrange(256) for _ in range(32))
    return ".".join([_b64url(json.dumps(header).encode()), _b64url(json.dumps(payload).encode()),
                     _b64url(signature)])


def _pem(rng: random.Random, label: str, lines: int = 5) -> str:
    body = "\n".join(_pick(rng, B64, 64) for _ in range(lines))
    return f"-----BEGIN {label}-----\n{body}\n{_pick(rng, B64, 40)}=\n-----END {label}-----"


def _password(rng: random.Random) -> str:
    style = rng.randrange(4)
    if style == 0:
        return rng.choice(["Summer", "Winter", "Falcon", "Dragon", "Monkey"]) + \
            str(rng.randrange(1990, 2030)) + rng.choice("!#$%")
    if style == 1:
        return "-".join(rng.choice(["correct", "horse", "battery", "staple", "orbit", "maple",
                                    "violet", "copper"]) for _ in range(3)) + str(rng.randrange(99))
    if style == 2:
        return _pick(rng, ALNUM + "!@#$%^&*", 14)
    return _pick(rng, string.ascii_lowercase, 6) + _pick(rng, string.digits, 3) + \
        rng.choice("!?.")


def _symbol_password(rng: random.Random) -> str:
    """A password holding "&" or ";", which also separate a query string's or a config line's
    values ("Tr0ub4dor&3"): the redaction must not stop inside it."""
    word = rng.choice(["Tr0ub4dor", "Sn0wfall", "Gr4nite", "Pa55word", "M4ple", "K1ngfisher"])
    return word + rng.choice("&;") + str(rng.randrange(1, 999)) + rng.choice(["", "!", "x"])


def _word_password(rng: random.Random) -> str:
    """Letters only, no English word: what "password is X" holds when X is not a predicate."""
    words = ["blue", "frog", "maple", "orbit", "violet", "copper", "tiger", "lemon", "storm"]
    style = rng.randrange(3)
    if style == 0:
        return "".join(rng.sample(words, 3))
    if style == 1:
        return "".join(w.capitalize() for w in rng.sample(words, 3))
    return rng.choice(["letmein", "iloveyou", "trustno", "opensesame", "zaqxswcde"])


def _uuid(rng: random.Random) -> str:
    h = _pick(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _card(r: random.Random, sep: str) -> str:
    """A 16-digit Visa-shaped number that passes the Luhn check, in groups of four."""
    digits = [4] + [r.randrange(10) for _ in range(14)]
    total = sum(d if i % 2 else (d * 2 - 9 if d > 4 else d * 2)
                for i, d in enumerate(reversed(digits)))
    number = "".join(map(str, digits + [(10 - total % 10) % 10]))
    return sep.join(number[i:i + 4] for i in range(0, 16, 4))


def _iban(r: random.Random) -> str:
    """A German IBAN (bank code and account, 18 digits) with its mod-97 check digits, in groups
    of four as banks print it."""
    bban = _pick(r, string.digits, 18)
    check = 98 - int(bban + "131400") % 97  # "DE00" moved to the end, D = 13, E = 14
    plain = f"DE{check:02d}{bban}"
    return " ".join(plain[i:i + 4] for i in range(0, len(plain), 4))


GENERATORS: dict[str, Callable[[random.Random], str]] = {
    # Google's app passwords: four groups of four lowercase letters
    "app_password": lambda r: " ".join(_pick(r, string.ascii_lowercase, 4) for _ in range(4)),
    "aws_key_id": lambda r: "AKIA" + _pick(r, string.ascii_uppercase + "234567", 16),
    "aws_secret": lambda r: _pick(r, ALNUM, 18) + r.choice("/+") + _pick(r, B64, 21),
    "github_pat": lambda r: "ghp_" + _pick(r, ALNUM, 36),
    "github_fine": lambda r: "github_pat_11" + _pick(r, string.ascii_uppercase + string.digits,
                                                     20) + "_" + _pick(r, ALNUM, 59),
    "github_oauth": lambda r: "gho_" + _pick(r, ALNUM, 36),
    "gitlab_pat": lambda r: "glpat-" + _pick(r, URLSAFE, 20),
    "slack_bot": lambda r: f"xoxb-{_pick(r, string.digits, 12)}-{_pick(r, string.digits, 13)}-"
                           f"{_pick(r, ALNUM, 24)}",
    "slack_user": lambda r: f"xoxp-{_pick(r, string.digits, 12)}-{_pick(r, string.digits, 12)}-"
                            f"{_pick(r, string.digits, 13)}-{_pick(r, HEX, 32)}",
    "slack_webhook": lambda r: "https://hooks.slack.com/services/T" + _pick(
        r, string.ascii_uppercase + string.digits, 8) + "/B" + _pick(
        r, string.ascii_uppercase + string.digits, 10) + "/" + _pick(r, ALNUM, 24),
    "stripe_live": lambda r: "sk_live_" + _pick(r, ALNUM, 34),
    "stripe_restricted": lambda r: "rk_live_" + _pick(r, ALNUM, 34),
    "openai": lambda r: "sk-proj-" + _pick(r, URLSAFE, 28) + _pick(r, ALNUM, 20) + "T3BlbkFJ"
                        + _pick(r, ALNUM, 20),
    "anthropic": lambda r: "sk-ant-api03-" + _pick(r, URLSAFE, 93) + "AA",
    "google_api": lambda r: "AIza" + _pick(r, URLSAFE, 35),
    "jwt": _jwt,
    "rsa_private_key": lambda r: _pem(r, "RSA PRIVATE KEY"),
    "openssh_private_key": lambda r: _pem(r, "OPENSSH PRIVATE KEY"),
    "pkcs8_private_key": lambda r: _pem(r, "PRIVATE KEY", 3),
    "discord_bot": lambda r: r.choice("MN") + _pick(r, ALNUM, 23) + "." + _pick(r, URLSAFE, 6)
                             + "." + _pick(r, URLSAFE, 27),
    "telegram_bot": lambda r: _pick(r, string.digits, 10) + ":AA" + _pick(r, URLSAFE, 33),
    "twilio_key": lambda r: "SK" + _pick(r, HEX, 32),
    "sendgrid": lambda r: "SG." + _pick(r, URLSAFE, 22) + "." + _pick(r, URLSAFE, 43),
    "mailchimp": lambda r: _pick(r, HEX, 32) + "-us" + str(r.randrange(1, 21)),
    "npm": lambda r: "npm_" + _pick(r, ALNUM, 36),
    "pypi": lambda r: "pypi-AgEIcHlwaS5vcmc" + _pick(r, URLSAFE, 80),
    "square": lambda r: "sq0csp-" + _pick(r, URLSAFE, 43),
    "azure_storage": lambda r: _pick(r, B64, 86) + "==",
    # (a key cut or of another service's length: the label says what it is)
    "azure_short_key": lambda r: _pick(r, B64, r.randrange(40, 80)) + "==",
    "bip39": lambda r: " ".join(r.choice(["abandon", "ability", "legal", "winner", "thank",
                                          "year", "wave", "sausage", "worth", "useful", "zoo",
                                          "orbit", "violet", "crane", "absorb", "access"])
                                for _ in range(r.choice([12, 24]))),
    "huggingface": lambda r: "hf_" + _pick(r, string.ascii_letters, 34),
    "digitalocean": lambda r: "dop_v1_" + _pick(r, HEX, 64),
    "vault": lambda r: "hvs." + _pick(r, URLSAFE, 90),
    "shopify": lambda r: "shpat_" + _pick(r, HEX, 32),
    "linear": lambda r: "lin_api_" + _pick(r, ALNUM, 40),
    "postman": lambda r: "PMAK-" + _pick(r, HEX, 24) + "-" + _pick(r, HEX, 34),
    "databricks": lambda r: "dapi" + _pick(r, HEX, 32),
    "grafana": lambda r: "glsa_" + _pick(r, ALNUM, 32) + "_" + _pick(r, HEX, 8),
    "newrelic": lambda r: "NRAK-" + _pick(r, string.ascii_uppercase + string.digits, 27),
    "age": lambda r: "AGE-SECRET-KEY-1" + _pick(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
    "stripe_webhook": lambda r: "whsec_" + _pick(r, ALNUM, 32),
    "sentry_user": lambda r: "sntryu_" + _pick(r, HEX, 64),
    "planetscale": lambda r: "pscale_tkn_" + _pick(r, URLSAFE, 43),
    "pulumi": lambda r: "pul-" + _pick(r, HEX, 40),
    "rubygems": lambda r: "rubygems_" + _pick(r, HEX, 48),
    "terraform": lambda r: _pick(r, ALNUM, 14) + ".atlasv1." + _pick(r, ALNUM, 67),
    "supabase": lambda r: "sbp_" + _pick(r, HEX, 40),
    "mailgun": lambda r: "key-" + _pick(r, HEX, 32),
    # (Mailgun's keys as its docs print them: base 36)
    "mailgun_b36": lambda r: "key-" + _pick(r, string.digits, 2)
                             + _pick(r, string.ascii_lowercase + string.digits, 30),
    "notion": lambda r: "ntn_" + _pick(r, string.digits, 11) + _pick(r, ALNUM, 35),
    "sendinblue": lambda r: "xkeysib-" + _pick(r, HEX, 64) + "-" + _pick(r, ALNUM, 16),
    "atlassian": lambda r: "ATATT3xFfGF0" + _pick(r, URLSAFE, 170) + "=" + _pick(r, HEX, 8),
    "gitlab_runner": lambda r: "glrt-" + _pick(r, URLSAFE, 20),
    "doppler": lambda r: "dp.st.prd." + _pick(r, ALNUM, 43),
    "flyio": lambda r: "FlyV1 fm2_" + _pick(r, URLSAFE, 120),
    # (found leaking from outside, 4 Dec, twelfth session; shapes as gitleaks' rules give them)
    "onepassword": lambda r: "ops_eyJ" + _pick(r, B64, 300),
    "netlify": lambda r: "nfp_" + _pick(r, ALNUM, 40),
    # a passphrase of words joined by hyphens (no English word list needed: letters only)
    "hyphen_words": lambda r: "-".join(_pick(r, string.ascii_lowercase, r.randrange(4, 8))
                                       for _ in range(r.choice([3, 4]))),
    # 1Password's account Secret Key, as its emergency kit prints it
    "op_secret_key": lambda r: "A3-" + "-".join(
        _pick(r, string.ascii_uppercase + string.digits, n) for n in (6, 6, 5, 5, 5, 5)),
    "resend": lambda r: "re_" + _pick(r, ALNUM, 8) + "_" + _pick(r, ALNUM, 24),
    "sonarqube": lambda r: "sqp_" + _pick(r, HEX, 40),
    "airtable": lambda r: "pat" + _pick(r, ALNUM, 14) + "." + _pick(r, HEX, 64),
    "groq": lambda r: "gsk_" + _pick(r, ALNUM, 52),
    "replicate": lambda r: "r8_" + _pick(r, ALNUM, 37),
    "figma": lambda r: "figd_" + _pick(r, URLSAFE, 40),
    "heroku_v2": lambda r: "HRKU-AA" + _pick(r, URLSAFE, 58),
    "password": _password,
    # a short one, letters and a digit: "hunter2"
    "short_password": lambda r: _pick(r, string.ascii_lowercase, r.randrange(5, 7))
                                + r.choice("23456789"),
    "cvv": lambda r: "".join(r.sample("2456789", 3)),
    "word_password": _word_password,
    "spaced_passphrase": lambda r: " ".join(r.sample(["correct", "horse", "battery", "staple",
                                                      "maple", "tiger", "crane", "orbit",
                                                      "violet"], 4)),
    "symbol_password": _symbol_password,
    "ssn": lambda r: f"{r.randrange(1, 666):03d}-{r.randrange(1, 100):02d}-"
                     f"{r.randrange(1, 10000):04d}",
    "card": lambda r: _card(r, " "),
    "card_plain": lambda r: _card(r, ""),
    "bank_account": lambda r: r.choice("123456789") + _pick(r, string.digits,
                                                            r.randrange(7, 12)),
    "iban": _iban,
    "passport": lambda r: r.choice(["", "X", "C"]) + r.choice("123456789")
                          + _pick(r, string.digits, 7),
    "discord_webhook": lambda r: _pick(r, string.digits, 18) + "/" + _pick(r, URLSAFE, 68),
    "backup_code": lambda r: "-".join(_pick(r, string.ascii_lowercase + string.digits, 4)
                                      for _ in range(3)),
    "hex32": lambda r: _pick(r, HEX, 32),
    "hex64": lambda r: _pick(r, HEX, 64),
    "google_code": lambda r: _pick(r, "0123456789", 4) + " " + _pick(r, "0123456789", 4),
    "base32": lambda r: _pick(r, string.ascii_uppercase + "234567", 16),
    "passphrase": lambda r: "-".join(r.sample(["correct", "horse", "battery", "staple", "maple",
                                               "tiger", "crane", "orbit", "violet"], 4)),
    "apr1": lambda r: "$apr1$" + _pick(r, ALNUM, 8) + "$" + _pick(r, ALNUM + "./", 22),
    "pin": lambda r: _pick(r, "0123456789", r.choice([4, 6, 8])),
    "hex40": lambda r: _pick(r, HEX, 40),
    "okta": lambda r: "00" + _pick(r, URLSAFE, 40),
    "sas_sig": lambda r: _pick(r, ALNUM, 30) + "%2B" + _pick(r, ALNUM, 10) + "%3D",
    "token": lambda r: _pick(r, ALNUM, r.randrange(32, 48)),
    "uuid_secret": _uuid,
    # a private key as a kubeconfig holds it: the whole PEM block base64-encoded
    "pem_b64": lambda r: base64.b64encode(_pem(r, r.choice(["RSA PRIVATE KEY", "EC PRIVATE KEY",
                                                               "PRIVATE KEY"]), 3).encode()
                                          ).decode(),
    # (its first line only, as a paste cut short: too short for an entropy rule)
    "pem_b64_head": lambda r: base64.b64encode(
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA" + _pick(r, ALNUM, 4)).encode()
    ).decode(),
    "basic_b64": lambda r: base64.b64encode(
        f"{r.choice(['deploy', 'ci', 'admin'])}:{_password(r)}".encode()).decode(),
}


@dataclass
class Case:
    number: int  # line number in the corpus file
    text: str
    label: str  # secret | ordinary
    kind: str
    values: list[str] = field(default_factory=list)  # the filled secret values
    set: str = "tuning"  # tuning: written before the scanner's rules were tuned; heldout: after

    @property
    def is_secret(self) -> bool:
        return self.label == "secret"


def fill(template: str, number: int) -> tuple[str, list[str]]:
    """The template with each placeholder replaced by a value of its kind (same name and index:
    same value), and the values."""
    values: dict[tuple[str, str], str] = {}

    def value(m: re.Match) -> str:
        key = (m.group(1), m.group(2) or "1")
        if key not in values:
            values[key] = GENERATORS[key[0]](random.Random(f"{number}:{key[0]}:{key[1]}"))
        return values[key]

    return _PLACEHOLDER.sub(value, template), list(values.values())


def load(path: Path = CORPUS) -> list[Case]:
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        record = json.loads(line)
        text, values = fill(record["text"], number)
        if record["label"] not in ("secret", "ordinary"):
            raise ValueError(f"{path}:{number}: label must be secret or ordinary")
        if (record["label"] == "secret") != bool(values):
            raise ValueError(f"{path}:{number}: a secret line needs placeholders, an ordinary "
                             f"line none")
        cases.append(Case(number, text, record["label"], record["kind"], values,
                          record.get("set", "tuning")))
    return cases


def leaked(value: str, output: str, window: int = 10) -> bool:
    """Whether any `window`-character run of the secret is still in the output, or a piece of it
    beside a redaction marker (`pass=[REDACTED:password]&3` leaked "&3" of "Tr0ub4dor&3": the
    redaction stopped inside the value)."""
    if len(value) <= window:
        if value in output:
            return True
    elif any(value[i:i + window] in output for i in range(len(value) - window + 1)):
        return True
    return any(f"]{value[-k:]}" in output or f"{value[:k]}[REDACTED" in output
               for k in range(2, len(value)))


@dataclass
class Score:
    secrets: int
    caught: int
    ordinary: int
    false_positives: int
    missed: list[Case]
    flagged: list[Case]
    kinds: int

    @property
    def recall(self) -> float:
        return self.caught / self.secrets

    @property
    def false_positive_rate(self) -> float:
        return self.false_positives / self.ordinary


def score(redact: Callable[[str], str], cases: list[Case]) -> Score:
    missed, flagged = [], []
    for case in cases:
        out = redact(case.text)
        if case.is_secret and any(leaked(v, out) for v in case.values):
            missed.append(case)
        elif not case.is_secret and out != case.text:
            flagged.append(case)
    secrets = sum(c.is_secret for c in cases)
    return Score(secrets=secrets, caught=secrets - len(missed), ordinary=len(cases) - secrets,
                 false_positives=len(flagged), missed=missed, flagged=flagged,
                 kinds=len({c.kind for c in cases if c.is_secret}))
