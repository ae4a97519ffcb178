"""`lurker`: the command line over the memory engine. Every subcommand takes --profile and --json;
errors print one line to stderr (no traceback) and exit 2."""
from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path

from .errors import InputFormatError, LurkerError
from .models import MEMORY_TYPES, Memory, RecallResult

DEMO_PROFILE = "demo"
DEMO_QUESTION = "What is the rate limit we decided on?"
_INTERNAL_COUNTS = {"message_ids", "pending_vector_ids"}  # not part of ingest's stable --json keys


def read_conversation(path: str) -> list[dict]:
    """A JSON array or JSONL of {"role","content","author"?,"ts"?}; bad lines are reported by
    number and nothing is ingested."""
    text = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise InputFormatError(path, [(exc.lineno, f"invalid JSON ({exc.msg})")]) from None
        return data
    messages, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append((number, f"invalid JSON ({exc.msg})"))
            continue
        if not isinstance(record, dict):
            problems.append((number, "expected an object with role and content"))
            continue
        messages.append(record)
    if problems:
        raise InputFormatError(path, problems)
    return messages


def _parse_now(value: str | None) -> datetime | None:
    if value is None:
        return None
    from .dates import parse_timestamp

    try:
        return parse_timestamp(value)
    except ValueError as exc:
        raise LurkerError(f"--now: {exc}") from None


def _memory_json(m: Memory) -> dict:
    return {"id": m.id, "type": m.type, "content": m.content, "topic_key": m.topic_key,
            "source_message_ids": m.source_message_ids, "status": m.status,
            "created_at": m.created_at.isoformat(),
            "event_time": m.event_time.isoformat() if m.event_time else None,
            "supersedes": m.supersedes, "superseded_by": m.superseded_by,
            "forgotten_reason": m.forgotten_reason}


def recall_json(result: RecallResult) -> dict:
    return {
        "answer": result.answer,
        "memories": [{**_memory_json(s.memory), "score": s.score, "channels": s.channels}
                     for s in result.memories],
        "messages": [{"id": s.message.id, "author": s.message.author, "role": s.message.role,
                      "content": s.message.content, "ts": s.message.ts.isoformat(),
                      "session_id": s.message.session_id, "score": s.score,
                      "channels": s.channels} for s in result.messages],
        "computed": [c.model_dump() for c in result.computed],
    }


def _print_recall(result: RecallResult) -> None:
    print(result.answer)
    if result.computed:
        print("\ncomputed:")
        for c in result.computed:
            print(f"  {c.expression} = {c.value}  {c.detail}")
    if result.memories:
        print("\nsources:")
        for s in result.memories:
            m = s.memory
            when = (m.event_time or m.created_at).date().isoformat()
            print(f"  [{m.id[:12]}] {m.type:<11} {when}  {m.content}")


def _print_memories(memories: list[Memory]) -> None:
    for m in memories:
        status = "" if m.status == "active" else f" ({m.status})"
        key = f" <{m.topic_key}>" if m.topic_key else ""
        print(f"{m.id}  {m.type:<11}{key}{status}  {m.content}")
    print(f"{len(memories)} memories")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lurker", description=__doc__)
    parser.add_argument("--store", help="override LURKER_STORE (sqlite:///PATH or http://host:9200)")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--profile", default="default", help="profile name (default: default)")
    common.add_argument("--json", action="store_true", help="machine-readable output")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ingest", parents=[common], help="ingest a conversation file (JSON or JSONL)")
    p.add_argument("file")
    p.add_argument("--session", required=True, help="session (conversation) id")
    p = sub.add_parser("remember", parents=[common], help="store one memory now")
    p.add_argument("content")
    p.add_argument("--session")
    p.add_argument("--type", choices=MEMORY_TYPES)
    p = sub.add_parser("recall", parents=[common], help="answer a question from memory")
    p.add_argument("query")
    p.add_argument("--now", help="answer as of this time (ISO 8601); default: now")
    p = sub.add_parser("forget", parents=[common], help="mark a memory as no longer true")
    p.add_argument("memory_id")
    p.add_argument("--reason", required=True)
    p = sub.add_parser("list", parents=[common], help="list memories")
    p.add_argument("--type", action="append", choices=MEMORY_TYPES, dest="types")
    p.add_argument("--all", action="store_true", help="include superseded and forgotten ones")
    p.add_argument("--limit", type=int)
    p.add_argument("--offset", type=int, default=0)
    p = sub.add_parser("export", parents=[common], help="write the profile as JSONL")
    p.add_argument("--out", help="file to write (default: stdout)")
    p = sub.add_parser("import", parents=[common], help="load a JSONL export into the profile")
    p.add_argument("file")
    p.add_argument("--replace", action="store_true", help="delete the profile's data first")
    p = sub.add_parser("demo", parents=[common],
                       help="ingest a sample team conversation and answer a question")
    p.add_argument("--question", default=DEMO_QUESTION)
    p = sub.add_parser("worker", help="run a queue worker that batch-ingests chat events")
    from workers.cli import add_arguments as add_worker_arguments

    add_worker_arguments(p)
    p = sub.add_parser("api", help="serve the REST API (or `api key create` to make a key)")
    from .api.cli import add_arguments as add_api_arguments

    add_api_arguments(p)
    p = sub.add_parser("mcp", help="serve recall/remember/forget/list to MCP clients (stdio or "
                                   "HTTP), or `mcp install` a client config")
    from .mcp_server import add_arguments as add_mcp_arguments

    add_mcp_arguments(p)
    p = sub.add_parser("migrate", help="create or upgrade the store's indices (reindexing "
                                       "behind an alias when a mapping change needs it)")
    from .migrate import add_arguments as add_migrate_arguments

    add_migrate_arguments(p)
    p = sub.add_parser("discord", help="run the Discord lurker (DISCORD_BOT_TOKEN), or "
                                       "`discord backfill` channels' history")
    from bot.discord_cli import add_arguments as add_discord_arguments

    add_discord_arguments(p)
    from bot.cli import add_backfill_arguments, add_chat_arguments, add_slack_arguments

    p = sub.add_parser("chat", help="the terminal as a chat channel: lines are messages, "
                                    "`@lurker ...` asks (no tokens; --demo loads a sample)")
    add_chat_arguments(p)
    p = sub.add_parser("slack", help="run the Slack lurker (SLACK_BOT_TOKEN; Socket Mode with "
                                     "SLACK_APP_TOKEN, or --http with SLACK_SIGNING_SECRET)")
    add_slack_arguments(p)
    p = sub.add_parser("backfill", help="page channels' history into their profiles (slack or "
                                        "discord), without duplicates")
    add_backfill_arguments(p)
    p = sub.add_parser("eval", help="measure recall and answer quality on a benchmark")
    from .eval import locomo

    locomo.add_parser(p.add_subparsers(dest="benchmark", required=True))
    return parser


def run(args: argparse.Namespace) -> int:
    from .config import Settings
    from .service import MemoryService

    if args.command == "worker":
        from workers.cli import run_worker

        return run_worker(args)
    if args.command == "api":
        from .api.cli import run_api

        return run_api(args)
    if args.command == "mcp":
        from .mcp_server import run_mcp

        return run_mcp(args)
    if args.command == "migrate":
        from .migrate import run_command

        return run_command(args)
    if args.command == "discord":
        from bot.discord_cli import run_command as run_discord

        return run_discord(args)
    if args.command in ("chat", "slack", "backfill"):
        from bot import cli as bot_cli

        return getattr(bot_cli, f"run_{args.command}")(args)
    if args.command == "eval":
        from .eval import locomo

        return locomo.run_command(args)
    settings = Settings(**({"store": args.store} if args.store else {}))
    profile_name = DEMO_PROFILE if args.command == "demo" and args.profile == "default" \
        else args.profile
    with MemoryService.from_settings(settings) as service:
        profile = service.profile(profile_name)
        out = _dispatch(args, profile, settings)
    if out is not None:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


def _dispatch(args, profile, settings):
    cmd, as_json = args.command, args.json
    if cmd == "ingest":
        result = profile.ingest(read_conversation(args.file), session_id=args.session)
        data = result.model_dump(exclude=_INTERNAL_COUNTS)
        if as_json:
            return data
        print(", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in data.items()))
    elif cmd == "remember":
        memory = profile.remember(args.content, session_id=args.session, memory_type=args.type)
        if as_json:
            return _memory_json(memory)
        print(f"remembered {memory.id} ({memory.type})")
    elif cmd == "recall":
        result = profile.recall(args.query, now=_parse_now(args.now))
        if as_json:
            return recall_json(result)
        _print_recall(result)
    elif cmd == "forget":
        memory = profile.forget(args.memory_id, args.reason)
        if as_json:
            return _memory_json(memory)
        print(f"forgot {memory.id}: {memory.forgotten_reason}")
    elif cmd == "list":
        memories = profile.list(args.types, args.all, args.limit, args.offset)
        if as_json:
            return {"memories": [_memory_json(m) for m in memories]}
        _print_memories(memories)
    elif cmd == "export":
        lines = profile.export()
        count = 0
        with (open(args.out, "w", encoding="utf-8") if args.out else _stdout()) as fh:
            for line in lines:
                fh.write(line + "\n")
                count += 1
        if args.out:
            return {"out": args.out, "records": count} if as_json else print(
                f"wrote {count} records to {args.out}")
    elif cmd == "import":
        with open(args.file, encoding="utf-8", errors="surrogateescape") as fh:
            counts = profile.import_lines(fh, source=args.file, replace=args.replace)
        if as_json:
            return counts
        print(f"imported {counts['messages']} new messages and {counts['memories']} memories")
    elif cmd == "demo":
        return _demo(args, profile)
    return None


def _demo(args, profile):
    sample = resources.files("memory") / "data" / "sample_conversation.jsonl"
    with resources.as_file(sample) as path:
        ingested = profile.ingest(read_conversation(str(path)), session_id="demo-2026-11-16")
    now = datetime(2026, 11, 18, 9, 0, tzinfo=timezone.utc)
    result = profile.recall(args.question, now=now)
    if args.json:
        return {"ingest": ingested.model_dump(exclude=_INTERNAL_COUNTS),
                "question": args.question, **recall_json(result)}
    print(f"Ingested the sample conversation into profile {profile.name!r} "
          f"({ingested.messages_new} new messages, {ingested.memories_created} memories).")
    print(f"\nQ: {args.question}\nA: ", end="")
    _print_recall(result)
    return None


class _stdout:
    def __enter__(self):
        return sys.stdout

    def __exit__(self, *exc):
        sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except LurkerError as exc:
        print(f"lurker: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"lurker: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
