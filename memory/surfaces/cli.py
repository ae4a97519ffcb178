"""`lurker`: the command line over the memory engine. Every subcommand takes --profile and --json;
errors print one line to stderr (no traceback) and exit 2."""
from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime

from memory.errors import LurkerError
from memory.eval import locomo
from memory.models import MEMORY_TYPES, Memory, RecallResult

from . import chat, mcp_server, migrate, worker
from .api import cli as api_cli
from .demo import ASKED_AT, DEMO_PROFILE, DEMO_QUESTION, load_sample, read_conversation
from .views import memory_json, recall_json

_INTERNAL_COUNTS = {"message_ids", "pending_vector_ids"}  # not part of ingest's stable --json keys


def _parse_now(value: str | None) -> datetime | None:
    if value is None:
        return None
    from memory.dates import parse_timestamp

    try:
        return parse_timestamp(value)
    except ValueError as exc:
        raise LurkerError(f"--now: {exc}") from None


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
            when = m.said_at.date().isoformat()
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
    p.add_argument("--asker", help="who asks, as their messages' author: a question in the first "
                                   "person (\"what did I decide?\") also searches their messages")
    p.add_argument("--addressee", help="who the question is put to, as their messages' author (an "
                                       "agent writing into the profile): \"what did you "
                                       "recommend?\" searches their messages")
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
    p.add_argument("--audit", action="store_true",
                   help="everything, what was forgotten included (suppressed messages, the "
                        "content of forgotten memories); importing it keeps them suppressed")
    p = sub.add_parser("import", parents=[common], help="load a JSONL export into the profile")
    p.add_argument("file")
    p.add_argument("--replace", action="store_true", help="delete the profile's data first")
    p = sub.add_parser("scrub", parents=[common],
                       help="redact what was stored under older redaction rules (after an "
                            "upgrade)")
    p.add_argument("--all", action="store_true", help="every profile in the store")
    p = sub.add_parser("demo", parents=[common],
                       help="ingest a sample team conversation and answer a question")
    p.add_argument("--question", default=DEMO_QUESTION)
    for name, (helptext, add_arguments, _run) in _COMMANDS.items():
        add_arguments(sub.add_parser(name, help=helptext))
    return parser


def _add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    locomo.add_parser(parser.add_subparsers(dest="benchmark", required=True))


# The commands each entry point brings: name -> (help, add its arguments, run it).
_COMMANDS = {
    "worker": ("run a queue worker that batch-ingests chat events",
               worker.add_arguments, worker.run_worker),
    "api": ("serve the REST API (or `api key create` to make a key)",
            api_cli.add_arguments, api_cli.run_api),
    "mcp": ("serve recall/remember/forget/list to MCP clients (stdio or HTTP), or `mcp install` "
            "a client config", mcp_server.add_arguments, mcp_server.run_mcp),
    "migrate": ("create or upgrade the store's indices (reindexing behind an alias when a "
                "mapping change needs it)", migrate.add_arguments, migrate.run_command),
    "discord": ("run the Discord lurker (DISCORD_BOT_TOKEN), or `discord backfill` channels' "
                "history", chat.add_discord_arguments, chat.run_discord),
    "chat": ("the terminal as a chat channel: lines are messages, `@lurker ...` asks (no "
             "tokens; --demo loads a sample)", chat.add_chat_arguments, chat.run_chat),
    "slack": ("run the Slack lurker (SLACK_BOT_TOKEN; Socket Mode with SLACK_APP_TOKEN, or "
              "--http with SLACK_SIGNING_SECRET)", chat.add_slack_arguments, chat.run_slack),
    "backfill": ("page channels' history into their profiles (slack or discord), without "
                 "duplicates", chat.add_backfill_arguments, chat.run_backfill),
    "eval": ("measure recall and answer quality on a benchmark", _add_eval_arguments,
             locomo.run_command),
}


def run(args: argparse.Namespace) -> int:
    from memory.config import Settings
    from memory.service import MemoryService

    if args.command in _COMMANDS:
        return _COMMANDS[args.command][2](args)
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
            return memory_json(memory)
        print(f"remembered {memory.id} ({memory.type})")
    elif cmd == "recall":
        result = profile.recall(args.query, now=_parse_now(args.now), asker=args.asker,
                                addressee=args.addressee)
        if as_json:
            return recall_json(result)
        _print_recall(result)
    elif cmd == "forget":
        memory = profile.forget(args.memory_id, args.reason)
        if as_json:
            return memory_json(memory)
        print(f"forgot {memory.id}: {memory.forgotten_reason}")
    elif cmd == "list":
        memories = profile.list(args.types, args.all, args.limit, args.offset)
        if as_json:
            return {"memories": [memory_json(m) for m in memories]}
        _print_memories(memories)
    elif cmd == "export":
        lines = profile.export(audit=args.audit)
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
        print(f"imported {counts['messages']} new messages and {counts['memories']} memories"
              + (f"; redacted {counts['redacted']} that held secrets" if counts["redacted"] else ""))
    elif cmd == "scrub":
        service = profile.service
        names = service.store.profiles() if args.all else [profile.name]
        results = {name: service.profile(name).scrub() for name in names}
        if as_json:
            return {name: r.model_dump() for name, r in results.items()}
        for name, r in results.items():
            print(f"{name + ': ' if args.all else ''}messages redacted: {r.messages_redacted}, "
                  f"memories erased: {r.memories_erased}, memories redacted: "
                  f"{r.memories_redacted}")
    elif cmd == "demo":
        return _demo(args, profile)
    return None


def _demo(args, profile):
    ingested = load_sample(profile)
    result = profile.recall(args.question, now=ASKED_AT)
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
    except BrokenPipeError:
        # `lurker export | head`: the reader has what it wanted. Said nothing ("lurker: error:
        # Broken pipe" was printed), and Python's flush at exit must not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        print(f"lurker: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
