"""`lurker discord`: run the Discord lurker, or page channels' history in.

    DISCORD_BOT_TOKEN=... lurker discord [--config lurker-bot.toml]
    DISCORD_BOT_TOKEN=... lurker discord backfill [--guild ID ...] [--channel ID ...]

The store is LURKER_STORE (or --store); events go to the sink the bot config names (`auto`: the
workers' queue for Elasticsearch, in-process for the embedded SQLite store). Backfill uses the REST
API only (no gateway connection), so it can run beside a running lurker; messages already stored
are skipped, so running it twice adds nothing. Kept free of discord imports until it runs.
"""
from __future__ import annotations

import argparse
import asyncio
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
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


class _Progress:
    """One line per channel on stderr: `#general: 1200 messages`."""

    def __init__(self, label: str, stream=sys.stderr):
        self.label, self.stream, self.count = label, stream, 0
        self.tty = stream.isatty()

    def __call__(self, n: int) -> None:
        self.count += n
        if self.tty:
            print(f"\r{self.label}: {self.count} messages", end="", file=self.stream, flush=True)

    def done(self, handed: int) -> None:
        end = "\r" if self.tty else ""
        print(f"{end}{self.label}: {self.count} messages read, {handed} handed on",
              file=self.stream, flush=True)


def _build(args: argparse.Namespace):
    from memory.config import Settings
    from memory.service import MemoryService

    from .config import BotConfig
    from .core import LurkerBot
    from workers.sinks import make_sink

    settings = Settings(**({"store": args.store} if getattr(args, "store", None) else {}))
    config = BotConfig.load(args.config)
    service = MemoryService.from_settings(settings)
    sink = make_sink(config.sink, service, settings)
    return service, sink, LurkerBot(service, sink, config)


def run_command(args: argparse.Namespace) -> int:
    from .discord_app import DiscordLurker, token_from_env

    token = token_from_env()
    service, sink, bot = _build(args)
    try:
        client = DiscordLurker(bot, sync_commands=not args.no_sync_commands,
                               backfill_on_join=not args.no_backfill_on_join)
        if args.action == "backfill":
            return asyncio.run(backfill(client, token, args.guild, args.channel))
        client.run(token)
        return 0
    finally:
        sink.close()
        service.close()


async def backfill(client, token: str, guild_ids: list[str], channel_ids: list[str]) -> int:
    """Log in over REST, find the channels and page each one's history into the sink."""
    import discord

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
        total = 0
        for channel in channels:
            progress = _Progress(f"#{getattr(channel, 'name', channel.id)}")
            handed = await client.backfill(channel, progress=progress)
            progress.done(handed)
            total += handed
        print(f"backfilled {len(channels)} channels: {total} messages handed on",
              file=sys.stderr)
    return 0
