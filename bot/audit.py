"""The audit log of admin actions: one JSON object per line, appended to a file (the config's
`audit_log`, default `<user data dir>/audit.jsonl`). Refused attempts are written too.

    {"at": "2026-11-18T09:00:00+00:00", "action": "forget", "outcome": "done",
     "profile": "team-backend", "platform": "slack", "place": "slack:T01:C42",
     "actor": "U01ADMIN", "actor_name": "maya", "detail": {"memory_ids": ["…"]}}
"""
from __future__ import annotations

import json
import os
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any


class AuditLog:
    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self._lock = threading.Lock()

    def write(self, action: str, outcome: str, *, profile: str | None, platform: str,
              place: str | None, actor: str | None, actor_name: str | None = None,
              detail: dict[str, Any] | None = None) -> dict:
        record = {"at": datetime.now(timezone.utc).isoformat(), "action": action,
                  "outcome": outcome, "profile": profile, "platform": platform, "place": place,
                  "actor": actor, "actor_name": actor_name, "detail": detail or {}}
        line = json.dumps(record, ensure_ascii=False, default=str)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(line + "\n")
                fh.flush()
                os.fsync(fh.fileno())
        return record

    def read(self) -> list[dict]:
        """Every record (for tests and `lurker`-side inspection)."""
        if not self.path.exists():
            return []
        with open(self.path, encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]
