"""API keys scoped to profiles, stored hashed.

A key is `lk_` followed by 43 URL-safe characters (256 random bits); it is shown once, when it is
made, and only its SHA-256 is stored. A slow password hash would add nothing for a secret of 256
random bits, and a plain digest lets every request find its key with one dictionary lookup.

The keys file (LURKER_API_KEYS_FILE) is JSON:

    {"keys": [
      {"name": "review-bot", "hash": "sha256:9f86d0...", "profiles": ["team-backend"],
       "scopes": ["read", "write"]},
      {"name": "ops", "hash": "sha256:...", "profiles": ["*"], "scopes": ["admin"]}
    ]}

- `profiles`: exact profile names, or prefixes ending in `*` ("slack:T01:*"); "*" is every profile.
- `scopes`: `read` (recall, list, export), `write` (ingest, remember, import), `admin` (forget,
  purge, import with replace; admin includes read and write).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from memory.errors import LurkerError
from memory.ids import PROFILE_NAME

log = logging.getLogger("lurker.api.keys")

KEY_PREFIX = "lk_"
SCOPES = ("read", "write", "admin")
_PATTERN = re.compile(r"\*|[A-Za-z0-9:._-]{1,128}\*?")
_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}")
_HASH = re.compile(r"sha256:[0-9a-f]{64}")


class KeyFileError(LurkerError):
    """The keys file is missing or malformed; the message names the file and the entry."""


def generate_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def profile_allowed(patterns: Iterable[str], profile: str) -> bool:
    """Whether `profile` matches one of the patterns (exact names, or prefixes ending in `*`)."""
    if not isinstance(profile, str) or not PROFILE_NAME.fullmatch(profile):
        return False
    for pattern in patterns:
        if pattern.endswith("*"):
            if profile.startswith(pattern[:-1]):
                return True
        elif hmac.compare_digest(pattern, profile):
            return True
    return False


@dataclass(frozen=True)
class ApiKey:
    name: str
    hash: str
    profiles: tuple[str, ...]
    scopes: frozenset[str] = field(default_factory=lambda: frozenset({"read"}))

    def can(self, scope: str) -> bool:
        return "admin" in self.scopes or scope in self.scopes

    def allows(self, profile: str) -> bool:
        return profile_allowed(self.profiles, profile)

    def as_json(self) -> dict:
        return {"name": self.name, "hash": self.hash, "profiles": list(self.profiles),
                "scopes": sorted(self.scopes)}


def _entry(raw: object, where: str) -> ApiKey:
    if not isinstance(raw, dict):
        raise KeyFileError(f"{where}: expected an object with name, hash, profiles, scopes")
    name, digest = raw.get("name"), raw.get("hash")
    profiles, scopes = raw.get("profiles"), raw.get("scopes", ["read"])
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise KeyFileError(f"{where}: name must be 1-64 characters from A-Z a-z 0-9 . _ -")
    if not isinstance(digest, str) or not _HASH.fullmatch(digest):
        raise KeyFileError(f"{where} ({name}): hash must be 'sha256:' and 64 hex digits "
                           f"(`lurker api key create` writes it)")
    if (not isinstance(profiles, list) or not profiles
            or not all(isinstance(p, str) and _PATTERN.fullmatch(p) for p in profiles)):
        raise KeyFileError(f"{where} ({name}): profiles must be a non-empty list of profile "
                           f"names or prefixes ending in '*'")
    if (not isinstance(scopes, list) or not scopes
            or not all(s in SCOPES for s in scopes)):
        raise KeyFileError(f"{where} ({name}): scopes must be a non-empty list of "
                           f"{', '.join(SCOPES)}")
    return ApiKey(name, digest, tuple(profiles), frozenset(scopes))


class KeyStore:
    """The configured keys, looked up by the hash of the presented key."""

    def __init__(self, keys: Iterable[ApiKey] = ()):
        self._by_hash: dict[str, ApiKey] = {}
        for key in keys:
            self._by_hash[key.hash] = key

    def __len__(self) -> int:
        return len(self._by_hash)

    @property
    def keys(self) -> list[ApiKey]:
        return list(self._by_hash.values())

    def authenticate(self, presented: str | None) -> ApiKey | None:
        if not presented or len(presented) > 512:
            return None
        return self._by_hash.get(hash_key(presented))

    @classmethod
    def from_json(cls, data: object, source: str = "<keys>") -> KeyStore:
        if not isinstance(data, dict) or not isinstance(data.get("keys"), list):
            raise KeyFileError(f'{source}: expected {{"keys": [...]}}')
        keys = [_entry(raw, f"{source}: keys[{i}]") for i, raw in enumerate(data["keys"])]
        names = [k.name for k in keys]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise KeyFileError(f"{source}: duplicate key names {', '.join(duplicates)}")
        return cls(keys)

    @classmethod
    def load(cls, path: str | Path) -> KeyStore:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise KeyFileError(f"API keys file {path} does not exist (create a key with "
                               f"`lurker api key create --keys-file {path} ...`)") from None
        except OSError as exc:
            raise KeyFileError(f"API keys file {path}: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise KeyFileError(f"{path}: invalid JSON at line {exc.lineno} ({exc.msg})") from None
        return cls.from_json(data, str(path))


def _write(path: Path, data: dict) -> None:
    """Atomically, readable by the owner only (the hashes are not secret, but the list of what
    each key may reach is nobody else's business)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".keys-")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2)
        fh.write("\n")
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def add_key(path: str | Path, name: str, profiles: list[str], scopes: list[str]) -> str:
    """Make a key, append its hash to the keys file (created if absent) and return the key."""
    path = Path(path)
    data = {"keys": []}
    if path.exists():
        store = KeyStore.load(path)
        if any(k.name == name for k in store.keys):
            raise KeyFileError(f"{path}: a key named {name!r} exists already (remove it first)")
        data["keys"] = [k.as_json() for k in store.keys]
    key = generate_key()
    entry = {"name": name, "hash": hash_key(key), "profiles": profiles, "scopes": scopes}
    _entry(entry, f"new key {name!r}")  # validate before writing
    data["keys"].append(entry)
    _write(path, data)
    return key


def default_keys_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("lurker")) / "api-keys.json"


def keys_path(settings) -> Path:
    """LURKER_API_KEYS_FILE, or api-keys.json beside the default store."""
    return Path(settings.api_keys_file).expanduser() if settings.api_keys_file \
        else default_keys_path()


class KeyFile:
    """The keys file, read again when it changes: a key made or revoked with `lurker api key`
    takes effect without a restart. A file that turns invalid keeps the last good keys (logged);
    a file that is removed leaves no key valid."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._store = KeyStore.load(self.path)  # KeyFileError at start: refuse to serve
        self._stamp = self._stat()

    def _stat(self):
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size, st.st_ino

    def current(self) -> KeyStore:
        stamp = self._stat()
        if stamp != self._stamp:
            self._stamp = stamp
            if stamp is None:
                log.error("API keys file %s is gone: every key is refused", self.path)
                self._store = KeyStore()
            else:
                try:
                    self._store = KeyStore.load(self.path)
                except KeyFileError as exc:
                    log.error("keeping the previous API keys: %s", exc)
        return self._store


def remove_key(path: str | Path, name: str) -> None:
    """Revoke the key called `name` (its hash leaves the keys file)."""
    path = Path(path)
    store = KeyStore.load(path)
    if not any(k.name == name for k in store.keys):
        raise KeyFileError(f"{path}: no key named {name!r}")
    _write(path, {"keys": [k.as_json() for k in store.keys if k.name != name]})
