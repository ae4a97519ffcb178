"""Real chat for tests that check a rule on what people write: Ubuntu IRC lines where
../shared/benchdata holds them (CC BY 4.0; see its README)."""
from __future__ import annotations

from pathlib import Path


def irc_lines(limit: int) -> list[str]:
    folder = Path(__file__).resolve().parents[1].parent / "shared/benchdata/ubuntu-irc/train"
    lines: list[str] = []
    for path in sorted(folder.glob("*.raw.txt")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("[") and "] <" in line:
                lines.append(line.split("> ", 1)[-1])
        if len(lines) >= limit:
            break
    return lines[:limit]
