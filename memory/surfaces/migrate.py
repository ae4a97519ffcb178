"""`lurker migrate`: bring the store's indices to the mappings this release writes, with no
downtime (the store's own `migrate` hook does the work: on Elasticsearch a reindex behind the alias,
see memory/stores/elasticsearch.py; the embedded store creates its schema on open)."""
from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import asdict

from memory.stores.base import CREATE, REINDEX, MigrationStep


def add_arguments(parser) -> None:
    parser.add_argument("--dry-run", action="store_true",
                        help="print what would be done, change nothing")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run_command(args) -> int:
    from memory.config import Settings
    from memory.embeddings import default_embedder
    from memory.stores.factory import store_from_settings

    settings = Settings(**({"store": args.store} if getattr(args, "store", None) else {}))
    store = store_from_settings(settings)
    try:
        steps = store.migrate(default_embedder(), dry_run=args.dry_run, on_phase=_print_phase)
    finally:
        store.close()
    note = None if steps else (f"{store.location}: embedded store, schema created on open; "
                               f"nothing to migrate")
    _report(steps, args.json, note, dry_run=args.dry_run and bool(steps))
    return 0


def _print_phase(alias: str, phase: str) -> None:
    print(f"{alias}: {phase}", file=sys.stderr, flush=True)


def _report(steps: Iterable[MigrationStep], as_json: bool, note: str | None,
            dry_run: bool = False) -> None:
    steps = list(steps)
    if as_json:
        print(json.dumps({"dry_run": dry_run, "steps": [asdict(s) for s in steps],
                          **({"note": note} if note else {})}, indent=2))
        return
    if note:
        print(note)
    for s in steps:
        if s.action == REINDEX:
            done = "" if dry_run else (f": {s.documents} documents"
                                       + (f", {s.reembedded} re-embedded" if s.reembedded else ""))
            print(f"{s.alias}: reindex {s.old_index} -> {s.new_index} ({s.reason}){done}")
        elif s.action == CREATE:
            print(f"{s.alias}: create {s.new_index}")
        else:
            print(f"{s.alias}: up to date ({s.new_index})")
