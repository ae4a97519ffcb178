"""The chat commands: `lurker chat`, `lurker slack`, `lurker discord` and `lurker backfill`.

    lurker chat [--profile NAME | --demo]            the terminal channel (bot/terminal.py)
    SLACK_BOT_TOKEN=… SLACK_APP_TOKEN=… lurker slack            Socket Mode
    SLACK_BOT_TOKEN=… SLACK_SIGNING_SECRET=… lurker slack --http --port 3000
    DISCORD_BOT_TOKEN=… lurker discord [--config lurker-bot.toml]
    lurker backfill [slack|discord] [--channel ID …] [--guild ID …] [--oldest 2026-01-01]
    DISCORD_BOT_TOKEN=… lurker discord backfill [--guild ID …] [--channel ID …]

Each starts its lurker with bot.wiring.running_bot: the store is LURKER_STORE (or --store), events
go to the sink the bot config names (`auto`: the workers' queue for Elasticsearch, in-process for
the embedded SQLite store); `lurker chat` always writes in-process, so what is typed is recalled
on the next line. Backfills page history in through bot/backfill.py (stored messages are skipped,
so running one twice adds nothing); Discord's uses the REST API only (no gateway connection), so
it can run beside a running lurker. Kept free of platform imports until a command runs.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
from datetime import timezone

from .demo import DEMO_PROFILE, DEMO_QUESTION, load_sample


def _config(parser: argparse.ArgumentParser) -> None:
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
    _config(parser)


def add_slack_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--http", action="store_true",
                        help="serve the Events API over HTTP (needs SLACK_SIGNING_SECRET) "
                             "instead of Socket Mode (SLACK_APP_TOKEN)")
    parser.add_argument("--host", default="0.0.0.0", help="--http: address (default 0.0.0.0)")
    parser.add_argument("--port", type=int, default=3000, help="--http: port (default 3000)")
    parser.add_argument("--no-backfill-on-join", action="store_true",
                        help="do not page in a channel's history when the bot joins it")
    _config(parser)


def add_discord_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=("run", "backfill"), default="run",
                        help="run the lurker (default), or backfill history and exit")
    parser.add_argument("--config", help="the bot config (TOML; default: $LURKER_BOT_CONFIG)")
    parser.add_argument("--guild", action="append", default=[], metavar="ID",
                        help="backfill: every readable text channel of this guild (repeatable; "
                             "default: every guild the bot is in)")
    parser.add_argument("--channel", action="append", default=[], metavar="ID",
                        help="backfill: this channel (repeatable)")
    parser.add_argument("--no-sync-commands", action="store_true",
                        help="run: do not register the /lurker slash command at start")
    parser.add_argument("--no-backfill-on-join", action="store_true",
                        help="run: do not page in history when joining a guild or channel")


def add_backfill_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("platform", nargs="?", choices=("slack", "discord"), default="slack",
                        help="slack (default; SLACK_BOT_TOKEN) or discord (DISCORD_BOT_TOKEN)")
    parser.add_argument("--channel", action="append", default=[], metavar="ID",
                        help="this channel only (repeatable; default: every channel the bot "
                             "is in)")
    parser.add_argument("--guild", action="append", default=[], metavar="ID",
                        help="discord: every readable channel of this guild (repeatable)")
    parser.add_argument("--oldest", help="slack: only messages after this date/time (ISO 8601)")
    _config(parser)


def _store(args: argparse.Namespace) -> str | None:
    return getattr(args, "store", None)


# --- the terminal -------------------------------------------------------------------------------
def run_chat(args: argparse.Namespace) -> int:
    from bot.terminal import TerminalChat
    from bot.wiring import running_bot

    profile = args.profile or (DEMO_PROFILE if args.demo else "default")
    with running_bot(args.config, store=_store(args), sink="inprocess") as bot:
        chat = TerminalChat(bot, profile, user=args.user)
        print(f"Lurker is listening in profile {profile!r}. Type messages; ask with "
              f"`@lurker <question>`; /quit to leave.", flush=True)
        if args.demo:
            result = load_sample(bot.service.profile(profile))
            print(f"Loaded the sample team conversation ({result.messages_new} new messages, "
                  f"{result.memories_created} memories) from 16 November 2026.", flush=True)
            chat.run([f"@lurker {DEMO_QUESTION}"], interactive=False)
        return chat.run()


# --- Slack --------------------------------------------------------------------------------------
def run_slack(args: argparse.Namespace) -> int:
    from bot.config import ConfigError
    from bot.slack_app import APP_TOKEN_ENV, from_env
    from bot.wiring import running_bot

    app_token = os.environ.get(APP_TOKEN_ENV)
    if not args.http and not app_token:
        raise ConfigError(f"{APP_TOKEN_ENV} is not set: Socket Mode needs the app-level token "
                          "(xapp-…, scope connections:write); or run `lurker slack --http` "
                          "with SLACK_SIGNING_SECRET")
    with running_bot(args.config, store=_store(args)) as bot:
        lurker = from_env(bot, http=args.http, backfill_on_join=not args.no_backfill_on_join)
        if args.http:
            lurker.serve_http(args.host, args.port)
        else:
            lurker.serve_socket_mode(app_token)
        return 0


# --- Discord ------------------------------------------------------------------------------------
def run_discord(args: argparse.Namespace) -> int:
    from bot.discord_app import DiscordLurker, token_from_env
    from bot.wiring import running_bot

    token = token_from_env()
    with running_bot(args.config, store=_store(args)) as bot:
        client = DiscordLurker(bot, sync_commands=not args.no_sync_commands,
                               backfill_on_join=not args.no_backfill_on_join)
        if args.action == "backfill":
            return asyncio.run(_discord_backfill(client, token, args.guild, args.channel))
        client.run(token)
        return 0


async def _discord_backfill(client, token: str, guild_ids: list[str],
                            channel_ids: list[str]) -> int:
    """Log in over REST, find the channels and page each one's history in."""
    import discord

    from bot.backfill import Progress
    from memory.errors import LurkerError

    async with client:
        await client.login(token)
        channels = []
        for channel_id in channel_ids:
            try:
                channels.append(await client.fetch_channel(int(channel_id)))
            except (ValueError, discord.NotFound, discord.Forbidden) as exc:
                raise LurkerError(f"--channel {channel_id}: cannot read it ({exc})") from None
        if not channel_ids or guild_ids:
            guilds = [int(g) for g in guild_ids] if guild_ids else \
                [g.id async for g in client.fetch_guilds(limit=None)]
            for guild_id in guilds:
                try:
                    found = await client.http.get_all_guild_channels(guild_id)
                except discord.HTTPException as exc:
                    raise LurkerError(f"guild {guild_id}: cannot list its channels ({exc})") \
                        from None
                for data in found:
                    if data.get("type") == discord.ChannelType.text.value:
                        channels.append(await client.fetch_channel(int(data["id"])))
        reports = await client.backfill_all(channels, progress=Progress())
    return _summarise(reports)


# --- backfill -----------------------------------------------------------------------------------
def run_backfill(args: argparse.Namespace) -> int:
    if args.platform == "discord":
        return run_discord(argparse.Namespace(
            action="backfill", config=args.config, guild=args.guild, channel=args.channel,
            no_sync_commands=True, no_backfill_on_join=True, store=_store(args)))
    from bot.backfill import Progress, backfill_all
    from bot.slack_app import SlackHistory, from_env
    from bot.wiring import running_bot
    from memory.errors import LurkerError

    oldest = None
    if args.oldest:
        from memory.dates import parse_timestamp

        try:
            oldest = parse_timestamp(args.oldest).astimezone(timezone.utc)
        except ValueError as exc:
            raise LurkerError(f"--oldest: {exc}") from None
    with running_bot(args.config, store=_store(args)) as bot:
        lurker = from_env(bot, backfill_on_join=False)
        reports = backfill_all(bot, SlackHistory(lurker),
                               lurker.places(args.channel) if args.channel else None,
                               oldest=oldest, progress=Progress())
    return _summarise(reports)


def _summarise(reports) -> int:
    """A line per channel and a total on stderr; 1 when a channel failed."""
    for report in reports:
        print(report.line() + "".join(f"; error: {e}" for e in report.errors), file=sys.stderr)
    handed = sum(r.handed_on for r in reports)
    print(f"backfilled {len(reports)} channels: {handed} messages handed on", file=sys.stderr)
    return 1 if any(r.errors for r in reports) else 0
