"""The bot configuration: which profile each channel uses, who may run admin commands, which other
bots are ingested. A TOML file (or YAML, by its .yaml/.yml suffix, same keys) named by
LURKER_BOT_CONFIG (or `--config`); without one every channel gets its own profile and only
workspace/guild admins may run admin commands.

    # lurker-bot.toml
    admins = ["slack:U01ADMIN", "discord:81234567890"]   # besides workspace / guild admins
    allowed_bots = ["slack:B0REVIEW"]                    # other bots whose messages are knowledge
    audit_log = "/var/log/lurker/audit.jsonl"            # default: <user data dir>/audit.jsonl
    state = "/var/lib/lurker/bot-state.sqlite3"          # default: beside audit_log
    sink = "auto"                                        # auto | queue | inprocess
    time_zone = "America/Los_Angeles"                    # the team's, for people the platform
                                                         # gives none (Discord gives no one's)

    [profiles.team-backend]                              # a shared, named profile
    channels = ["slack:T01:C42", "slack:T01:C43", "discord:9001:1234"]
    clients = ["code-review-bot"]                        # API clients that read/write it
    admins = ["slack:U05LEAD"]                           # admins of this profile only

A channel is named like its default profile: `slack:<team>:<channel>`,
`discord:<guild>:<channel>`; `*` and `?` match like shell patterns (`slack:T01:*`), exact names
win over patterns, patterns apply in file order. A user or bot id may carry its platform
(`slack:U01`) or not (`U01`, any platform).
"""
from __future__ import annotations

import fnmatch
import os
import tomllib
from dataclasses import dataclass, field
from datetime import tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from platformdirs import user_data_dir

from memory.errors import InvalidProfileName, LurkerError
from memory.ids import check_profile_name

CONFIG_ENV = "LURKER_BOT_CONFIG"
SINK_ENV = "LURKER_BOT_SINK"
SINKS = ("auto", "queue", "inprocess")
_TOP_KEYS = {"admins", "allowed_bots", "audit_log", "state", "sink", "time_zone", "profiles"}
_PROFILE_KEYS = {"channels", "clients", "admins"}


class ConfigError(LurkerError, ValueError):
    """The bot configuration file is malformed; the message names the file and the key."""


def default_audit_log() -> Path:
    return Path(user_data_dir("lurker")) / "audit.jsonl"


def channel_key(platform: str, workspace: str, channel: str) -> str:
    """The default profile of a channel, which is also how the config file names it."""
    return f"{platform}:{workspace}:{channel}"


def _matches_id(entries: frozenset[str], platform: str, user_id: str | None) -> bool:
    return bool(user_id) and (user_id in entries or f"{platform}:{user_id}" in entries)


@dataclass(frozen=True)
class ProfileRule:
    name: str
    channels: tuple[str, ...] = ()
    clients: tuple[str, ...] = ()
    admins: frozenset[str] = frozenset()


@dataclass
class BotConfig:
    admins: frozenset[str] = frozenset()
    allowed_bots: frozenset[str] = frozenset()
    audit_log: Path = field(default_factory=default_audit_log)
    state: Path | None = None  # bot/state.py's file; None: bot-state.sqlite3 beside audit_log
    sink: str = "auto"
    profiles: dict[str, ProfileRule] = field(default_factory=dict)
    source: str = "<defaults>"
    # the team's time zone, for a person the platform gives none (Discord gives no one's; Slack
    # a user's from users.info): what "tonight" in their message and "last Friday" in their
    # question are counted in. None: UTC
    zone: tzinfo | None = None

    @property
    def state_path(self) -> Path:
        """bot/state.py's file: handled event ids and pending confirmations."""
        return self.state or self.audit_log.with_name("bot-state.sqlite3")

    # --- loading ----------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike | None = None) -> BotConfig:
        """From `path`, else $LURKER_BOT_CONFIG, else the defaults. $LURKER_BOT_SINK overrides
        the file's `sink`."""
        path = path or os.environ.get(CONFIG_ENV) or None
        if path is None:
            config = cls()
        else:
            try:
                text = Path(path).read_text(encoding="utf-8")
            except OSError as exc:
                raise ConfigError(f"cannot read the bot config {str(path)!r}: "
                                  f"{exc.strerror or exc}") from None
            if str(path).lower().endswith((".yaml", ".yml")):
                config = cls.from_yaml(text, str(path))
            else:
                config = cls.from_toml(text, str(path))
        env_sink = os.environ.get(SINK_ENV)
        if env_sink:
            if env_sink not in SINKS:
                raise ConfigError(f"{SINK_ENV}={env_sink!r}: use one of {', '.join(SINKS)}")
            config.sink = env_sink
        return config

    @classmethod
    def from_toml(cls, text: str, source: str = "<config>") -> BotConfig:
        return cls._parsed(text, source, "TOML", tomllib.loads, tomllib.TOMLDecodeError)

    @classmethod
    def from_yaml(cls, text: str, source: str = "<config>") -> BotConfig:
        import yaml

        def loads(text: str):
            data = yaml.safe_load(text)
            return {} if data is None else data  # an empty file: the defaults
        return cls._parsed(text, source, "YAML", loads, yaml.YAMLError)

    @classmethod
    def _parsed(cls, text: str, source: str, kind: str, loads, error: type[Exception]
                ) -> BotConfig:
        try:
            data = loads(text)
        except error as exc:
            raise ConfigError(f"{source}: invalid {kind} ({exc})") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{source}: expected a mapping of keys at the top level")
        return cls.from_dict(data, source)

    @classmethod
    def from_dict(cls, data: dict, source: str = "<config>") -> BotConfig:
        def fail(where: str, why: str):
            raise ConfigError(f"{source}: {where}: {why}")

        unknown = set(data) - _TOP_KEYS
        if unknown:
            fail(", ".join(sorted(unknown)), f"unknown key (known: {', '.join(sorted(_TOP_KEYS))})")

        def strings(value, where: str) -> tuple[str, ...]:
            if value is None:
                return ()
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip()
                                                      for v in value):
                fail(where, "must be a list of non-empty strings")
            return tuple(v.strip() for v in value)

        config = cls(source=source)
        config.admins = frozenset(strings(data.get("admins"), "admins"))
        config.allowed_bots = frozenset(strings(data.get("allowed_bots"), "allowed_bots"))
        if "audit_log" in data:
            if not isinstance(data["audit_log"], str) or not data["audit_log"].strip():
                fail("audit_log", "must be a file path")
            config.audit_log = Path(data["audit_log"]).expanduser()
        if "state" in data:
            if not isinstance(data["state"], str) or not data["state"].strip():
                fail("state", "must be a file path")
            config.state = Path(data["state"]).expanduser()
        if "sink" in data:
            if data["sink"] not in SINKS:
                fail("sink", f"use one of {', '.join(SINKS)}")
            config.sink = data["sink"]
        if "time_zone" in data:
            name = data["time_zone"]
            try:
                config.zone = ZoneInfo(name) if isinstance(name, str) and name.strip() else None
            except (ZoneInfoNotFoundError, ValueError):
                config.zone = None
            if config.zone is None:
                fail("time_zone", f"{name!r} is not a time zone: use an IANA name such as "
                                  "\"America/Los_Angeles\" or \"Europe/Berlin\"")
        profiles = data.get("profiles") or {}
        if not isinstance(profiles, dict):
            fail("profiles", "must be a table of [profiles.<name>] tables")
        owner: dict[str, str] = {}
        for name, body in profiles.items():
            where = f"profiles.{name}"
            if not isinstance(name, str):
                fail(where, "a profile name must be a string")
            try:
                check_profile_name(name)
            except InvalidProfileName as exc:
                fail(where, str(exc))
            if not isinstance(body, dict):
                fail(where, "must be a table with channels, clients and admins")
            extra = set(body) - _PROFILE_KEYS
            if extra:
                fail(f"{where}.{sorted(extra)[0]}",
                     f"unknown key (known: {', '.join(sorted(_PROFILE_KEYS))})")
            rule = ProfileRule(name=name, channels=strings(body.get("channels"), f"{where}.channels"),
                               clients=strings(body.get("clients"), f"{where}.clients"),
                               admins=frozenset(strings(body.get("admins"), f"{where}.admins")))
            for entry in (*rule.channels, *(f"client:{c}" for c in rule.clients)):
                if entry in owner:
                    fail(where, f"{entry!r} is already mapped to profile {owner[entry]!r}")
                owner[entry] = name
            config.profiles[name] = rule
        return config

    # --- resolution -------------------------------------------------------------------------
    def profile_for(self, key: str) -> str:
        """The profile of the channel named `key` (`slack:T01:C42`): a profile listing it exactly,
        else the first whose pattern matches, else the channel's own profile."""
        for rule in self.profiles.values():
            if key in rule.channels:
                return rule.name
        for rule in self.profiles.values():
            if any(any(c in p for c in "*?[") and fnmatch.fnmatchcase(key, p)
                   for p in rule.channels):
                return rule.name
        return check_profile_name(key)

    def profile_for_client(self, client: str) -> str | None:
        """The shared profile an API client (e.g. a code-review bot) reads and writes, if any."""
        for rule in self.profiles.values():
            if client in rule.clients:
                return rule.name
        return None

    def is_admin(self, platform: str, user_id: str | None, profile: str | None = None) -> bool:
        """Listed as an admin in the config: globally, or for `profile`. (Workspace and guild
        admins are recognised by the adapters.)"""
        if _matches_id(self.admins, platform, user_id):
            return True
        rule = self.profiles.get(profile or "")
        return rule is not None and _matches_id(rule.admins, platform, user_id)

    def bot_allowed(self, platform: str, *ids: str | None) -> bool:
        """Whether another bot's messages are ingested (any of its ids is listed)."""
        return any(_matches_id(self.allowed_bots, platform, i) for i in ids)
