"""Topic keys: the normalised subject of a fact or instruction. A new memory with an existing key
supersedes the old one, so the key must be stable across phrasings ("Our rate limits" and "the rate
limit" -> "rate limit") and must not merge different subjects."""
from __future__ import annotations

import re

_DETERMINERS = {"the", "a", "an", "our", "my", "your", "their", "his", "her", "its", "this", "that",
                "these", "those", "team", "team's", "we", "current", "new", "default"}

# Tool choices: "use pnpm" then "switch to yarn" must land on one key although neither message names
# the subject. A small lexicon of common engineering choices maps a tool to its category.
TOOL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "package manager": ("npm", "pnpm", "yarn", "bun", "pip", "poetry", "uv", "pipenv", "conda",
                        "cargo", "maven", "gradle"),
    "programming language": ("python", "go", "golang", "rust", "java", "kotlin", "typescript",
                             "javascript", "ruby", "elixir", "scala", "c#", "c++", "swift"),
    "database": ("postgres", "postgresql", "mysql", "mariadb", "sqlite", "mongodb", "mongo",
                 "dynamodb", "cassandra", "cockroachdb", "redis", "elasticsearch", "opensearch"),
    "ci system": ("github actions", "gitlab ci", "circleci", "jenkins", "buildkite", "travis"),
    "cloud provider": ("aws", "gcp", "azure", "google cloud", "cloudflare", "fly.io", "heroku"),
    "frontend framework": ("react", "vue", "svelte", "angular", "solid", "next.js", "nextjs",
                           "nuxt", "remix"),
    "test framework": ("pytest", "unittest", "jest", "vitest", "mocha", "junit"),
    "message queue": ("kafka", "rabbitmq", "sqs", "nats", "pulsar", "celery"),
    "container orchestrator": ("kubernetes", "k8s", "nomad", "ecs", "docker swarm"),
    "linter": ("eslint", "ruff", "flake8", "pylint", "golangci-lint", "clippy"),
    "formatter": ("prettier", "black", "gofmt", "rustfmt"),
    "issue tracker": ("jira", "linear", "github issues", "asana", "trello"),
    # what a code-review bot or agent writes down: "new Python services log with structlog"
    "logging library": ("structlog", "loguru", "logrus", "zerolog", "log4j", "logback", "slf4j",
                        "winston", "pino", "serilog"),
    "http client": ("httpx", "aiohttp", "axios", "urllib3", "okhttp", "reqwest"),
    "retry library": ("tenacity", "resilience4j", "polly"),
    "web framework": ("django", "flask", "fastapi", "rails", "express", "spring boot", "laravel",
                      "phoenix"),
    "orm": ("sqlalchemy", "prisma", "typeorm", "hibernate", "activerecord", "sequelize", "gorm"),
    "monitoring": ("datadog", "grafana", "prometheus", "new relic", "honeycomb", "sentry"),
    "feature flag service": ("launchdarkly", "unleash", "flagsmith", "growthbook"),
    "secrets manager": ("hashicorp vault", "vault", "doppler", "aws secrets manager", "1password"),
    "payment provider": ("stripe", "stripe checkout", "adyen", "braintree", "paypal",
                         "checkout.com", "paddle", "mollie"),
}
_TOOL_TO_CATEGORY = {tool: cat for cat, tools in TOOL_CATEGORIES.items() for tool in tools}


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def normalize_topic_key(raw: str | None) -> str | None:
    """Lowercase, drop determiners/possessives and punctuation, singularise: a stable key or None."""
    if not raw:
        return None
    words = re.findall(r"[a-z0-9][a-z0-9+#._-]*", raw.lower())
    words = [w.strip("._-") for w in words]
    words = [w for w in words if w and w not in _DETERMINERS]
    words = [re.sub(r"'s$", "", w) for w in words]
    if not words or len(words) > 6:
        return None
    return " ".join(_singular(w) for w in words)


# Longest names first ("google cloud"), each with its whole-word pattern: sorted and compiled once.
_TOOLS = tuple((tool, re.compile(rf"(?<![\w.-]){re.escape(tool)}(?![\w-])"), category)
               for tool, category in sorted(_TOOL_TO_CATEGORY.items(), key=lambda t: len(t[0]),
                                            reverse=True))


def tool_category(text: str) -> str | None:
    """The category of the first known tool named in `text` (longest names first: "google cloud")."""
    low = text.lower()
    for tool, whole_word, category in _TOOLS:
        if tool in low and whole_word.search(low):  # the substring test skips most patterns
            return category
    return None


# A question that asks which tool of a kind: "what package manager do we use?", "which CI do we
# run on?". The memory names the tool ("Build uses pnpm 9"), never its kind.
_KIND_ALIASES = {"db": "database", "ci": "ci system", "queue": "message queue",
                 "test runner": "test framework", "cloud": "cloud provider",
                 "logger": "logging library", "logging framework": "logging library",
                 "logging lib": "logging library", "http library": "http client",
                 "feature flags": "feature flag service", "feature flag": "feature flag service",
                 "secret store": "secrets manager", "secrets store": "secrets manager",
                 "observability": "monitoring", "apm": "monitoring",
                 "payment processor": "payment provider", "payment gateway": "payment provider",
                 "payments provider": "payment provider", "psp": "payment provider"}
# Kinds named by a shape, not a list: a cloud instance type ("r6i.2xlarge", "n2-standard-8",
# "Standard_D4s_v5"): "what instance type are we using for the ES cluster?" was declined, as
# "Decisions: … r6i.2xlarge nodes …" names none of its words.
_SHAPED_KINDS = {"instance type": re.compile(
    r"(?<![\w.-])(?:[a-z]{1,3}\d[a-z0-9-]*\.(?:nano|micro|small|medium|large|\d*xlarge|metal)"
    r"|[a-z]\d[a-z]?-(?:standard|highmem|highcpu|micro|small|medium)-\d+"
    r"|standard_[a-z]\d+[a-z_\d]*)(?![\w-])")}
# what a shaped kind's names are searched by: their sizes and the words said beside them
_SHAPED_WORDS = {"instance type": "xlarge 2xlarge 4xlarge large medium nodes instances"}


def kind_search_words(kind: str) -> str:
    """The words that find a tool of `kind` ("pnpm yarn …" for "package manager")."""
    return _SHAPED_WORDS.get(kind) or " ".join(TOOL_CATEGORIES[kind])


_KIND_ALIASES.update({"instance": "instance type", "instance size": "instance type",
                      "instance types": "instance type", "node type": "instance type",
                      "machine type": "instance type", "vm size": "instance type",
                      "node size": "instance type"})
_ASKS_KIND = re.compile(
    r"(?i)\b(?:what|which)(?:'s|\u2019s| is| are)?\s+(?:\w+\s+)?(?P<kind>"
    + "|".join(re.escape(k) for k in sorted([*TOOL_CATEGORIES, *_SHAPED_KINDS, *_KIND_ALIASES],
                                             key=len,
                                             reverse=True))
    + r")s?\b"
    # "what did we decide about CI?", "any news on the message queue?": a kind named as the
    # subject asks which tool of it (declined: "Decision: we move to GitHub Actions …" names none
    # of its words)
    r"|\b(?:about|on|re|regarding)\s+(?:the\s+|our\s+)?(?P<subject>"
    + "|".join(re.escape(k) for k in sorted([*TOOL_CATEGORIES, *_SHAPED_KINDS, *_KIND_ALIASES],
                                             key=len, reverse=True))
    + r")s?\W*$")


def asked_tool_category(question: str) -> str | None:
    """The kind of tool a question asks for ("package manager"), or None."""
    m = _ASKS_KIND.search(question)
    if m is None:
        return None
    kind = (m.group("kind") or m.group("subject")).lower()
    return _KIND_ALIASES.get(kind, kind)


def names_tool_of(text: str, category: str) -> bool:
    """Whether `text` names a tool of `category` ("pnpm" for "package manager")."""
    low = text.lower()
    if category in _SHAPED_KINDS:
        return _SHAPED_KINDS[category].search(low) is not None
    return any(cat == category and tool in low and whole_word.search(low)
               for tool, whole_word, cat in _TOOLS)


# A choice of tool: the tool right after a verb of choosing ("use pnpm", "switch to yarn", "we're
# going with Postgres"). A tool merely named in an instruction is no choice: "Make sure the Redis
# cache is flushed before the demo" took the key "database" and superseded "We decided to use
# Postgres for the billing service".
_CHOICE = re.compile(
    r"\b(?:use|uses|using|switch(?:ed|ing)? (?:over )?to|mov(?:e|ed|ing) (?:over )?to|"
    r"migrat(?:e|ed|ing) to|go(?:ing)? with|went with|stick(?:ing)? with|stay(?:ing)? (?:on|with)|"
    r"adopt(?:ed|ing)?|standardi[sz](?:e|ed|ing) on|prefer|chose|choose|pick(?:ed)?|"
    r"replac(?:e|ed|ing) \S+ with|(?:we're|we are) on)\s+(?:the |our )?")


def chosen_tool_category(text: str) -> str | None:
    """The category of a tool the text chooses (see above), or None."""
    low = text.lower()
    for choice in _CHOICE.finditer(low):
        for tool, whole_word, category in _TOOLS:
            if low.startswith(tool, choice.end()) and whole_word.match(low, choice.end()):
                return category
    return None
