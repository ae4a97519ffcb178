"""`lurker chat`, `lurker slack` and `lurker backfill` (memory/cli.py wires them in).

    lurker chat [--profile NAME | --demo]            the terminal channel (bot/terminal.py)
    SLACK_BOT_TOKEN=… SLACK_APP_TOKEN=… lurker slack            Socket Mode
    SLACK_BOT_TOKEN=… SLACK_SIGNING_SECRET=… lurker slack --http --port 3000
    lurker backfill [slack|discord] [--channel ID …] [--oldest 2026-01-01]

The store is LURKER_STORE (or --store); the Slack lurker's events go to the sink the bot config
names (`auto`: the workers' queue for Elasticsearch, in-process for the embedded SQLite store).
`lurker chat` always writes in-process, so what is typed is recalled on the next line.
"""
from __future__ import annotations

import argparse
import os
import sys
from datetime import timezone

DEMO_PROFILE = "demo"
DEMO_QUESTION = "What is the rate limit we decided on?"


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="the bot config, TOML or YAML (default: "
                                         "$LURKER_BOT_CONFIG)")


def add_chat_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", default=None,
                        help="the profile the channel reads and writes (default: default; "
                             "with --demo: demo)")
    parser.add_argument("--demo", action="store_true",
                        help="load the sample team conversation first and ask it a question")
    parser.add_argument("--as", dest="user", default=os.environ.get("USER") or "you",
                        help="who is typing (default: $USER)")
    _common(parser)


def add_slack_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--http", action="store_true",
                        help="serve the Events API over HTTP (needs SLACK_SIGNING_SECRET) "
                             "instead of Socket Mode (SLACK_APP_TOKEN)")
    parser.add_argument("--host", default="0.0.0.0", help="--http: address (default 0.0.0.0)")
    parser.add_argument("--port", type=int, default=3000, help="--http: port (default 3000)")
    parser.add_argument("--no-backfill-on-join", action="store_true",
                        help="do not page in a channel's history when the bot joins it")
    _common(parser)


def add_backfill_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("platform", nargs="?", choices=("slack", "discord"), default="slack",
                        help="slack (default; SLACK_BOT_TOKEN) or discord (DISCORD_BOT_TOKEN)")
    parser.add_argument("--channel", action="append", default=[], metavar="ID",
                        help="this channel only (repeatable; default: every channel the bot "
                             "is in)")
    parser.add_argument("--guild", action="append", default=[], metavar="ID",
                        help="discord: every readable channel of this guild (repeatable)")
    parser.add_argument("--oldest", help="slack: only messages after this date/time (ISO 8601)")
    _common(parser)


def _service_and_config(args):
    from memory.config import Settings
    from memory.service import MemoryService

    from .config import BotConfig

    config = BotConfig.load(args.config)  # a bad config fails before anything opens
    settings = Settings(**({"store": args.store} if getattr(args, "store", None) else {}))
    return settings, MemoryService.from_settings(settings), config


def run_chat(args: argparse.Namespace) -> int:
    from importlib import resources

    from memory.cli import read_conversation

    from .core import LurkerBot
    from workers.sinks import InProcessSink
    from .terminal import TerminalChat

    settings, service, config = _service_and_config(args)
    profile = args.profile or (DEMO_PROFILE if args.demo else "default")
    try:
        bot = LurkerBot(service, InProcessSink(service), config)
        chat = TerminalChat(bot, profile, user=args.user)
        print(f"Lurker is listening in profile {profile!r}. Type messages; ask with "
              f"`@lurker <question>`; /quit to leave.", flush=True)
        if args.demo:
            sample = resources.files("memory") / "data" / "sample_conversation.jsonl"
            with resources.as_file(sample) as path:
                result = service.profile(profile).ingest(read_conversation(str(path)),
                                                         session_id="demo-2026-11-16")
            print(f"Loaded the sample team conversation ({result.messages_new} new messages, "
                  f"{result.memories_created} memories) from 16 November 2026.", flush=True)
            chat.run([f"@lurker {DEMO_QUESTION}"], interactive=False)
        return chat.run()
    finally:
        service.close()


def run_slack(args: argparse.Namespace) -> int:
    from .config import ConfigError
    from .core import LurkerBot
    from workers.sinks import make_sink
    from .slack_app import APP_TOKEN_ENV, from_env

    app_token = os.environ.get(APP_TOKEN_ENV)
    if not args.http and not app_token:
        raise ConfigError(f"{APP_TOKEN_ENV} is not set: Socket Mode needs the app-level token "
                          "(xapp-…, scope connections:write); or run `lurker slack --http` "
                          "with SLACK_SIGNING_SECRET")
    settings, service, config = _service_and_config(args)
    sink = make_sink(config.sink, service, settings)
    try:
        lurker = from_env(LurkerBot(service, sink, config), http=args.http,
                          backfill_on_join=not args.no_backfill_on_join)
        if args.http:
            lurker.serve_http(args.host, args.port)
        else:
            lurker.serve_socket_mode(app_token)
        return 0
    finally:
        sink.close()
        service.close()


def run_backfill(args: argparse.Namespace) -> int:
    if args.platform == "discord":
        from .discord_cli import run_command

        return run_command(argparse.Namespace(
            action="backfill", config=args.config, guild=args.guild, channel=args.channel,
            no_sync_commands=True, no_backfill_on_join=True, store=getattr(args, "store", None)))
    from memory.errors import LurkerError

    from .backfill import Progress, backfill_all
    from .core import LurkerBot
    from workers.sinks import make_sink
    from .slack_app import SlackHistory, from_env

    oldest = None
    if args.oldest:
        from memory.dates import parse_timestamp

        try:
            oldest = parse_timestamp(args.oldest).astimezone(timezone.utc)
        except ValueError as exc:
            raise LurkerError(f"--oldest: {exc}") from None
    settings, service, config = _service_and_config(args)
    sink = make_sink(config.sink, service, settings)
    try:
        lurker = from_env(LurkerBot(service, sink, config), backfill_on_join=False)
        reports = backfill_all(lurker.bot, SlackHistory(lurker),
                               lurker.places(args.channel) if args.channel else None,
                               oldest=oldest, progress=Progress())
        for report in reports:
            print(report.line() + "".join(f"; error: {e}" for e in report.errors),
                  file=sys.stderr)
        handed = sum(r.handed_on for r in reports)
        print(f"backfilled {len(reports)} channels: {handed} messages handed on",
              file=sys.stderr)
        return 1 if any(r.errors for r in reports) else 0
    finally:
        sink.close()
        service.close()


