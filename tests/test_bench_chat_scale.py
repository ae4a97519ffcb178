"""bench/chat_scale.py as an operator runs it: a (small) IRC log folder through real Redis, a real
`lurker worker` and the suite's Elasticsearch, stage by stage, with messy lines on the way."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BROKER_DB = 13  # a Redis database of its own (tests/test_workers_real.py counts up from 1)

pytestmark = [pytest.mark.elasticsearch, pytest.mark.redis]

WORDS = ["kernel", "module", "driver", "install", "upgrade", "network", "wireless", "package",
         "repository", "desktop", "partition", "grub", "xorg", "sound", "printer", "mount"]


def write_logs(folder: Path) -> int:
    """Two days of IRC: ordinary lines, joins/parts and blank text (skipped), the same line twice
    in a day (two lines of the log under two platform ids: two messages since the seventeenth
    session, memory.ids), unicode, a nick with a backslash, a long pasted line. Returns the
    number of distinct messages."""
    day1 = []
    for i in range(60):
        words = " ".join(WORDS[(i + j) % len(WORDS)] for j in range(6))
        day1.append(f"[{10 + i // 60:02d}:{i % 60:02d}] <user{i % 7}> how do I fix the {words} {i}")
    day1 += ["[11:01] * someone has joined #ubuntu", "[11:02] <lurk>    ",
             "[11:03] <helper> thanks", "[11:04] <helper> thanks",
             "[11:05] <foo\\2> the wireless driver crashes after upgrade — ça marche pas 🙃",
             "[11:06] <paster> " + " ".join(f"segfault at {i:x} in libc kernel module" for i in
                                              range(200))]
    day2 = [f"[09:{i:02d}] <user{i % 5}> the printer package needs a newer kernel module {i}"
            for i in range(58)]
    (folder / "2005-03-01.train-a.raw.txt").write_text("\n".join(day1) + "\n", encoding="utf-8")
    (folder / "2005-03-02.train-a.raw.txt").write_text("\n".join(day2) + "\n", encoding="utf-8")
    (folder / "2005-03-01.train-a.annotation.txt").write_text("1000 1001 -\n", encoding="utf-8")
    return 60 + 4 + 58  # "thanks" twice in one day is two messages; the join and blank skipped


def test_chat_scale_runs_every_stage_through_the_queue(es_server, redis_server, tmp_path):
    distinct = write_logs(tmp_path)
    broker = re.sub(r"/\d+$", "", redis_server.url) + f"/{BROKER_DB}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LURKER_", "ANTHROPIC_"))}
    env.update(LURKER_TEST_ES_URL=es_server.url, LURKER_TEST_ES_USER=es_server.user,
               LURKER_TEST_ES_PASSWORD=es_server.password, LURKER_TEST_REDIS_URL=broker,
               PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "bench/chat_scale.py", "--chat", str(tmp_path), "--stages", "40,500",
         "--queries", "12", "--timeout", "240"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=420)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    # (every chat line is a message of its own: the two "thanks" are two lines)
    assert f"holds {distinct} chat lines: the last stage is all of them" in out
    rows = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+x",
                      out, re.M)
    assert [int(r[0]) for r in rows] == [40, distinct], out
    assert int(rows[0][1]) == 40 and int(rows[-1][1]) == distinct  # every message, each once
    assert all(int(r[2]) > 0 for r in rows)  # memories were extracted
    assert "command: python bench/chat_scale.py --chat" in out
    assert es_server.password not in out
