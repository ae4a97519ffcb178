"""The Discord lurker (discord.py 2.x): gateway events in, LurkerBot calls out.

- Every message in a channel or thread the bot can see becomes a `message.created` event for the
  channel's profile (`discord:<guild>:<channel>`, a thread follows its parent channel), edits
  (`on_raw_message_edit`) and deletes (`on_raw_message_delete`, bulk too) follow. The bot's own
  messages are never ingested; other bots' only when the config's `allowed_bots` lists them.
- A mention of the bot, a DM, or `/lurker ask|forget|memories|export|purge` runs
  `LurkerBot.on_request`; the answer is a reply to the message (in its thread), sources as jump
  URLs.
- Guild admins are members with `administrator` or `manage_guild`, plus the config's admins.
- `forget <text>` asks for confirmation: reactions (1-5, all, cancel) on the question, or a reply
  to it.
- History: a new guild's and a new channel's history is paged in through channel.history
  (`DiscordHistory`, bot/backfill.py's async source), and `lurker discord backfill`; stored
  messages are skipped by external id.

The core is synchronous (it may run the engine in-process), so its calls run on the adapter's lanes
(bot/lanes.py) and the Conversation hops back onto the event loop to talk to Discord. Ingestion
(messages, edits, deletes, history pages) runs on one thread of its own, in the order the gateway
delivered it, so an edit or a delete never overtakes its message; requests run on a small pool,
after what was said before them.
"""
from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone

import discord
from discord import app_commands

from memory.errors import LurkerError
from memory.models import Message

from .app_content import discord_body
from .backfill import BackfillReport, Progress, backfill_all_async, backfill_async
from .contract import (Actor, ChatMessage, Conversation, Place, Reply, external_id,
                       fitting_pieces, parse_external_id)
from .core import CONFIRM_TTL_S, LurkerBot
from .lanes import Lanes

log = logging.getLogger("lurker.discord")

TOKEN_ENV = "DISCORD_BOT_TOKEN"
PLATFORM = "discord"
DM_WORKSPACE = "dm"  # a DM's place: discord:dm:<dm channel id>
MAX_CHARS = 2000  # Discord's message length limit
MAX_FILE_BYTES = 8 * 1024 * 1024  # the upload limit every guild has
LOOP_WAIT_S = 60.0  # a worker thread waits this long for Discord to take a message
CLOSE_WAIT_S = 30.0  # closing waits this long for the ingestion and requests handed in
HISTORY_PAGE = 100  # channel.history's page size (the API's maximum)
VS16 = "\N{VARIATION SELECTOR-16}"  # real clients send keycaps as 1 U+FE0F U+20E3
# The choice reactions, fully qualified (as clients send them); matched with or without U+FE0F.
KEYCAP = "\N{COMBINING ENCLOSING KEYCAP}"
EMOJI_FOR = {**{str(n): f"{n}{VS16}{KEYCAP}" for n in range(1, 6)},
             "all": "\N{WHITE HEAVY CHECK MARK}", "cancel": "\N{CROSS MARK}"}
CHOICE_EMOJI = {emoji.replace(VS16, ""): value for value, emoji in EMOJI_FOR.items()}
NAME_TTL_S = 600.0  # a member's display name fetched by id is kept this long
NAMES_KEPT = 10_000
_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ANY_MENTION = re.compile(r"<@(?P<kind>[!&]?)(?P<id>\d+)>")
_CHANNEL_MENTION = re.compile(r"<#(\d+)>")
_MASS_MENTION = re.compile(r"@(?=(?:everyone|here)\b)", re.IGNORECASE)
# `<t:1765353600:D>`: a time each reader sees in their own zone; stored as its UTC date (and time),
# so it is a date to recall and to date questions, not markup no one can search.
_TIMESTAMP = re.compile(r"<t:(-?\d{1,12})(?::([tTdDfFR]))?>")
ZWSP = "\N{ZERO WIDTH SPACE}"


def intents() -> discord.Intents:
    """Guilds (channels, roles for permission checks), guild and DM messages with their content
    (a privileged intent: enable "Message Content Intent" in the developer portal), reactions (for
    confirmations). No members or presence intents."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.guild_messages = True
    wanted.dm_messages = True
    wanted.message_content = True
    wanted.guild_reactions = True
    wanted.dm_reactions = True
    return wanted


def jump_url(guild: str, channel: str, message: str) -> str:
    return f"https://discord.com/channels/{guild}/{channel}/{message}"


def link_for(external_id: str | None) -> str | None:
    """The jump URL of a stored Discord message (`discord:<guild>:<channel>[:<thread>/]<id>`)."""
    parsed = parse_external_id(external_id or "")
    if parsed is None or parsed[0] != PLATFORM or parsed[1] == DM_WORKSPACE:
        return None
    _, guild, _, conversation, message = parsed
    return jump_url(guild, conversation, message)


# --- mentions ----------------------------------------------------------------------------------
def readable(text: str, guild=None, names: dict[int, str] | None = None, client=None) -> str:
    """Discord's markup as people read it: `<@id>` -> `@display name` (from `names`, the message's
    own mention data, then the guild's member cache, then the client's user cache), `<@&id>` ->
    `@role`, `<#id>` -> `#channel`. A user or role not known is `@someone` / `@some-role`: a raw
    id is never shown."""
    names = names or {}

    def mention(found: re.Match) -> str:
        ident = int(found.group("id"))
        if found.group("kind") == "&":
            role = guild.get_role(ident) if guild is not None else None
            return "@" + (role.name.lstrip("@") if role is not None else "some-role")
        name = names.get(ident)
        if name is None and guild is not None:
            member = guild.get_member(ident)
            name = member.display_name if member is not None else None
        if name is None and client is not None:
            user = client.get_user(ident)
            name = user.display_name if user is not None else None
        return "@" + (name or "someone")

    def channel(found: re.Match) -> str:
        ident = int(found.group(1))
        where = (guild.get_channel_or_thread(ident) if guild is not None else None) or \
            (client.get_channel(ident) if client is not None else None)
        return "#" + (getattr(where, "name", None) or "some-channel")

    return _TIMESTAMP.sub(_timestamp, _CHANNEL_MENTION.sub(channel, _ANY_MENTION.sub(mention,
                                                                                   text)))


def _timestamp(found: re.Match) -> str:
    """`<t:1765353600:D>` -> "2025-12-10"; a style with a time (t, T, f, F, R, none) adds it, in
    UTC: "2025-12-10 08:00 UTC". Out of range: left as written."""
    try:
        when = datetime.fromtimestamp(int(found.group(1)), tz=timezone.utc)
    except (OverflowError, OSError, ValueError):
        return found.group(0)
    style = found.group(2) or "f"
    if style in "dD":
        return when.strftime("%Y-%m-%d")
    return when.strftime("%H:%M UTC" if style in "tT" else "%Y-%m-%d %H:%M UTC")


def unpinging(text: str, guild=None, client=None, names: dict[int, str] | None = None) -> str:
    """Text the bot posts: mention markup as names (`readable`), and `@everyone` / `@here` broken
    with a zero-width space, so even a client that ignored allowed_mentions could not ping."""
    return _MASS_MENTION.sub("@" + ZWSP, readable(text, guild, names, client))


def message_text(message: discord.Message, text: str | None = None, client=None) -> str:
    """A message's text as people read it (mentions by name, from the message's own data), with
    what its embeds and forwards say (`app_content`) unless `text` is given."""
    names = {u.id: u.display_name for u in message.mentions}
    if text is None:
        text = discord_body(message.content, message.embeds,
                            getattr(message, "message_snapshots", None) or ())
    return readable(text, message.guild, names, client)


# --- platform objects -> core objects ----------------------------------------------------------
def place_of(channel) -> Place:
    """A guild channel, a thread (profile of its parent) or a DM."""
    guild = getattr(channel, "guild", None)
    if guild is None:
        return Place(PLATFORM, DM_WORKSPACE, str(channel.id), is_dm=True)
    if isinstance(channel, discord.Thread):
        return Place(PLATFORM, str(guild.id), str(channel.id), parent=str(channel.parent_id))
    return Place(PLATFORM, str(guild.id), str(channel.id))


def is_guild_admin(permissions: discord.Permissions | None) -> bool:
    return bool(permissions) and (permissions.administrator or permissions.manage_guild)


def actor_of(user: discord.abc.User, permissions: discord.Permissions | None = None) -> Actor:
    """`permissions`: the member's guild permissions when known (an interaction carries them);
    else they are computed from the cached roles when an admin command asks."""
    def platform_admin() -> bool:
        if permissions is not None:
            return is_guild_admin(permissions)
        return isinstance(user, discord.Member) and is_guild_admin(user.guild_permissions)

    return Actor(PLATFORM, str(user.id), name=getattr(user, "display_name", None) or user.name,
                 is_bot=user.bot, platform_admin=platform_admin)


def answered(message: discord.Message, place: Place) -> str | None:
    """The external id of the message this one answers: the message a reply points at (in the
    same channel or thread), else, in a thread, the parent channel's message the thread was started
    from (a thread started from a message has that message's id)."""
    ref = message.reference
    if ref is not None and ref.message_id and ref.channel_id == message.channel.id:
        return external_id(place, str(ref.message_id))
    if place.parent:
        return external_id(Place(PLATFORM, place.workspace, place.parent), place.channel)
    return None


def chat_message(message: discord.Message, text: str | None = None, client=None) -> ChatMessage:
    place = place_of(message.channel)
    return ChatMessage(place=place, id=str(message.id),
                       text=message_text(message, text, client),
                       ts=message.created_at.astimezone(timezone.utc),
                       author=actor_of(message.author),
                       thread=place.channel if place.parent else None,
                       reply_to=answered(message, place))


def render(reply: Reply) -> str:
    """The answer, then its sources as `• <jump url> (2026-11-16, maya) snippet`."""
    parts = [reply.text]
    if reply.sources:
        lines = []
        for source in reply.sources:
            where = f"<{source.url}>" if source.url else (source.external_id or "")
            lines.append(f"• {where} ({source.when.isoformat()}, {source.author}) "
                         f"{source.snippet}".strip())
        parts.append("Sources:\n" + "\n".join(lines))
    if reply.choices:
        emoji = " ".join(f"{EMOJI_FOR.get(c.value, '')} {c.label}" for c in reply.choices
                         if c.value in EMOJI_FOR)
        parts.append(f"React with {emoji}, or reply to this message with a number, `all` or "
                     "`cancel`.")
    return "\n\n".join(p for p in parts if p)


def chunks(text: str, limit: int = MAX_CHARS) -> list[str]:
    """Split at line ends (else hard) so each piece fits one Discord message."""
    return [piece.rstrip("\n") or "…" for piece in fitting_pieces(text, limit)]


# --- answering ---------------------------------------------------------------------------------
class DiscordConversation(Conversation):
    """Replies to a message (in its channel or thread), or follows up an interaction. Called from
    a worker thread: every call is run on the client's loop and waited for.

    Everything it posts goes out with allowed_mentions none and its text `unpinging` (mentions as
    names, `@everyone` / `@here` broken): quoting a message never pings anyone. Files (exports)
    go to the requester's DM, never into the channel."""

    def __init__(self, lurker: DiscordLurker, channel, *, message: discord.Message | None = None,
                 interaction: discord.Interaction | None = None,
                 user: discord.abc.User | None = None):
        self.lurker = lurker
        self.channel = channel
        self.message = message
        self.interaction = interaction
        self.user = user or (interaction.user if interaction is not None else
                             message.author if message is not None else None)
        self.sent: list[discord.Message] = []

    def thread_opening(self) -> str | None:
        """A mention that replies to a message asks about it; one inside a thread about the
        message the thread was started from (in the parent channel, with the thread's id)."""
        message = self.message
        if message is None or message.guild is None:
            return None
        reference = message.reference
        if reference is not None and reference.message_id is not None \
                and reference.channel_id in (None, message.channel.id):
            return external_id(place_of(message.channel), str(reference.message_id))
        channel = message.channel
        if isinstance(channel, discord.Thread) and channel.parent_id is not None:
            starter = Place(PLATFORM, str(message.guild.id), str(channel.parent_id))
            return external_id(starter, str(channel.id))
        return None

    def _run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.lurker.loop).result(LOOP_WAIT_S)

    def plain_text(self, text: str) -> str:
        if self.message is not None:  # the message's own mention data names its users
            return message_text(self.message, text, client=self.lurker)
        return readable(text, getattr(self.channel, "guild", None), client=self.lurker)

    def send(self, reply: Reply) -> None:
        self._run(self._send(reply))

    async def _send(self, reply: Reply) -> None:
        first = None
        # names and broken @everyone first, so the pieces are cut to fit what is actually sent
        for piece in chunks(await self._unpinging(render(reply))):
            posted = await self._post(piece)
            first = first or posted
            self.sent.append(posted)
        if reply.resolves:
            self.lurker.settled(reply.resolves)
        if reply.token and reply.choices and first is not None:
            await self.lurker.await_choice(first, reply)

    async def _unpinging(self, text: str) -> str:
        guild = getattr(self.channel, "guild", None)
        return unpinging(text, guild, self.lurker, await self.lurker.names_for(text, guild))

    async def _post(self, content: str, file: discord.File | None = None, *,
                    to=None) -> discord.Message:
        """Post `content` here (or in `to`, a DM channel): never a live mention."""
        none = discord.AllowedMentions.none()  # quoting a message must not ping anyone
        content = await self._unpinging(content)  # idempotent: what _send made safe stays so
        extra = {"file": file} if file else {}
        if to is not None:
            return await to.send(content, allowed_mentions=none, **extra)
        if self.interaction is not None:
            return await self.interaction.followup.send(content, wait=True, allowed_mentions=none,
                                                        **extra)
        if self.message is not None:
            return await self.message.reply(content, mention_author=False, allowed_mentions=none,
                                            **extra)
        return await self.channel.send(content, allowed_mentions=none, **extra)

    def working(self) -> None:
        if self.interaction is None:  # an interaction shows "thinking…" since it was deferred
            self._run(self._typing())

    async def _typing(self) -> None:
        await self.channel.typing()  # once: Discord shows it for up to 10 s or until we post

    def send_file(self, filename: str, data: bytes, comment: str) -> None:
        if len(data) > MAX_FILE_BYTES:
            self.send(Reply(f"{comment}\nThe file is {len(data)} bytes, over Discord's upload "
                            f"limit: use `lurker export` on the server instead.", kind="error"))
            return
        self._run(self._send_file(filename, data, comment))

    async def _send_file(self, filename: str, data: bytes, comment: str) -> None:
        """To the requester's DM (as on Slack): an export is not for everyone in the channel."""
        file = discord.File(io.BytesIO(data), filename=filename)
        if getattr(self.channel, "guild", None) is None:  # asked in a DM already
            await self._post(comment, file)
            return
        if self.user is None:
            await self._post("I cannot tell whom to send the export to; nothing was sent.")
            return
        try:
            dm = self.user.dm_channel or await self.user.create_dm()
            await self._post(comment, file, to=dm)
        except discord.HTTPException:  # DMs from server members turned off, say
            log.warning("could not DM the export to %s", self.user.id, exc_info=True)
            await self._post(f"{comment} I could not send it to you in a direct message (do you "
                             "allow DMs from server members?); it is not posted here.")
            return
        await self._post(f"{comment} I sent it to you in a direct message.")

    def link(self, message: Message) -> str | None:
        return link_for(message.external_id)

    def readable_places(self) -> list[Place] | None:
        """In a DM: the guild channels the asker may read now (their roles and the channels'
        overwrites), so the DM is answered from those channels' profiles only."""
        asker = self.message.author if self.message is not None else (
            self.interaction.user if self.interaction is not None else None)
        if asker is None:
            return None
        return self._run(self.lurker.readable_places(asker.id))

    def resolve_user(self, text: str) -> tuple[str, str] | None:
        match = _USER_MENTION.fullmatch(text.strip())
        if not match:
            return None
        user_id = int(match.group(1))
        user = self.lurker.get_user(user_id)
        guild = getattr(self.channel, "guild", None)
        member = guild.get_member(user_id) if guild else None
        name = (member or user).display_name if (member or user) else str(user_id)
        return str(user_id), name


@dataclass
class _Awaiting:
    token: str
    place: Place
    conversation: DiscordConversation
    expires: float


# --- history -----------------------------------------------------------------------------------
class DiscordHistory:
    """bot/backfill.py's (async) history source for Discord: a channel's messages oldest first, in
    pages of up to 100 (channel.history pages with `after`; discord.py waits out 429s), without
    Lurker's own. Threads of a text channel are not walked here: their messages arrive once the
    bot sees them."""

    def __init__(self, client: discord.Client, *, limit: int | None = None,
                 page_size: int = HISTORY_PAGE):
        self.client, self.limit, self.page_size = client, limit, page_size
        self._channels: dict[str, object] = {}

    def place(self, channel) -> Place:
        """The place of a channel object the caller holds (no second fetch in `pages`)."""
        place = place_of(channel)
        self._channels[place.channel] = channel
        return place

    async def _channel(self, place: Place):
        known = self._channels.get(place.channel) or self.client.get_channel(int(place.channel))
        return known or await self.client.fetch_channel(int(place.channel))

    async def pages(self, place: Place, oldest: datetime | None = None
                    ) -> AsyncIterator[list[ChatMessage]]:
        channel = await self._channel(place)
        me = self.client.user
        page: list[ChatMessage] = []
        async for message in channel.history(limit=self.limit, after=oldest, oldest_first=True):
            if me is None or message.author.id != me.id:
                page.append(chat_message(message, client=self.client))
            if len(page) >= self.page_size:
                yield page
                page = []
        if page:
            yield page


def readable_channels(guild: discord.Guild) -> list:
    me = guild.me
    return [c for c in guild.text_channels
            if me is None or c.permissions_for(me).read_message_history]


# --- the client --------------------------------------------------------------------------------
READABLE_CACHE_S = 60.0  # which channels a DM's asker may read


class DiscordLurker(discord.Client):
    def __init__(self, bot: LurkerBot, *, sync_commands: bool = True,
                 backfill_on_join: bool = True, **options):
        options.setdefault("intents", intents())
        # the default for every send, edit and follow-up; each call also passes it explicitly
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(**options)
        self.bot = bot
        self.sync_commands = sync_commands
        self.backfill_on_join = backfill_on_join
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(lurker_commands(self))
        self._awaiting: dict[int, _Awaiting] = {}  # confirmation message id -> its question
        self._names: dict[tuple[int | None, int], tuple[str, float]] = {}  # -> (name, expiry)
        self._readable: dict[int, tuple[float, list[Place]]] = {}  # user id -> channels, when
        self._tasks: set[asyncio.Task] = set()
        self.lanes = Lanes(PLATFORM)

    async def readable_places(self, user_id: int) -> list[Place]:
        """Every text channel, in every guild the bot shares with `user_id`, that the member
        can view now (`permissions_for`: roles and overwrites; members fetched over REST, as
        the bot asks for no members intent), cached READABLE_CACHE_S. Errors: none."""
        now = time.monotonic()
        cached = self._readable.get(user_id)
        if cached and now - cached[0] < READABLE_CACHE_S:
            return cached[1]
        places: list[Place] = []
        for guild in self.guilds:
            member = guild.get_member(user_id)
            if member is None:
                try:
                    member = await guild.fetch_member(user_id)
                except discord.HTTPException:
                    continue  # not a member there (404), or the bot may not look (403)
            places += [place_of(c) for c in guild.text_channels
                       if c.permissions_for(member).read_messages]
        self._readable[user_id] = (now, places)
        return places

    async def setup_hook(self) -> None:
        if self.sync_commands:
            await self.tree.sync()

    async def close(self) -> None:
        # what was handed in finishes first (no seen message is lost, answers still go out)
        with contextlib.suppress(TimeoutError):
            await asyncio.to_thread(self.lanes.drain, CLOSE_WAIT_S)
        await super().close()
        self.lanes.close(wait=False)

    async def _in_order(self, fn, *args, **kwargs):
        """Run an ingestion call on the ingestion lane, after those handed in before it."""
        return await asyncio.wrap_future(self.lanes.ingest(fn, *args, **kwargs))

    async def _in_turn(self, place: Place, fn, *args, **kwargs):
        """Run a request on the request lane, after the ingestion handed in before it and the
        requests of the same channel (`place`) before it."""
        return await asyncio.wrap_future(
            self.lanes.request(fn, *args, conversation=place.channel, **kwargs))

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self) -> None:
        """Wait for the ingestion, request and backfill tasks started so far (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # --- names -------------------------------------------------------------------------
    async def names_for(self, text: str, guild) -> dict[int, str]:
        """Display names of the users `text` mentions by id: the member cache, else fetched
        (there is no members intent, so the cache is thin) and kept NAME_TTL_S. Only touched on
        the event loop."""
        out: dict[int, str] = {}
        now = time.monotonic()
        for found in _ANY_MENTION.finditer(text):
            ident = int(found.group("id"))
            if found.group("kind") == "&" or ident in out:
                continue
            key = (guild.id if guild is not None else None, ident)
            cached = self._names.get(key)
            if cached is not None and cached[1] > now:
                out[ident] = cached[0]
                continue
            member = guild.get_member(ident) if guild is not None else None
            if member is not None:
                out[ident] = member.display_name
                continue
            try:
                found_user = await (guild.fetch_member(ident) if guild is not None
                                    else self.fetch_user(ident))
            except discord.HTTPException:  # left the guild, or unknown: the user cache, if any
                found_user = self.get_user(ident)
                if found_user is None:
                    continue
            out[ident] = found_user.display_name
            self._names[key] = (found_user.display_name, now + NAME_TTL_S)
            while len(self._names) > NAMES_KEPT:
                self._names.pop(next(iter(self._names)))
        return out

    # --- messages ------------------------------------------------------------------------
    def _mentions_me(self, message: discord.Message) -> bool:
        return self.user is not None and any(u.id == self.user.id for u in message.mentions)

    def _strip_mentions(self, text: str) -> str:
        return re.sub(rf"<@!?{self.user.id}>", " ", text).strip()

    async def on_message(self, message: discord.Message) -> None:
        if self.user is None or message.author.id == self.user.id:
            return  # Lurker's own answers are not knowledge
        if message.type not in (discord.MessageType.default, discord.MessageType.reply):
            return  # joins, pins, thread notices (a thread's starter is its parent's message)
        if not self.bot.first_time("discord", str(message.id)):
            return  # a replay (gateway resume, restart): answered or ingested already
        if not message.author.bot:
            awaiting = self._awaiting_for(message)
            if awaiting is not None:
                self._spawn(self._choice_by_reply(message, awaiting))
                return
            if message.guild is None or self._mentions_me(message):
                self._ask(message)
                return
        self._spawn(self._in_order(self.bot.on_message, chat_message(message, client=self)))

    def _ask(self, message: discord.Message) -> None:
        """A DM or a mention of the bot: a request, answered once per message (an edit of a
        message already answered is not asked again)."""
        if not self.bot.first_time("discord-ask", str(message.id)):
            return  # asked already (by this process or before a restart)
        text = message.content if message.guild is None else self._strip_mentions(message.content)
        conv = DiscordConversation(self, message.channel, message=message)
        self._spawn(self._request(text, place_of(message.channel), actor_of(message.author),
                                  conv))

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        data = payload.data
        message = payload.message  # discord.py 2.5 (the floor in pyproject.toml)
        if not ("content" in data or "embeds" in data) or not data.get("edited_timestamp"):
            return  # a link's preview unfurled, a pin: no edit (an app's edited embed is one)
        if self.user is None or message.author.id == self.user.id:
            return
        if self._mentions_me(message):
            if not message.author.bot and message.guild is not None:
                self._ask(message)  # the edit added the mention: a question now (answered once)
            return
        place = place_of(message.channel)
        self._spawn(self._in_order(
            self.bot.on_edit, place, str(message.id), message_text(message, client=self),
            edited_at=message.edited_at, author=actor_of(message.author),
            posted_at=message.created_at, thread=place.channel if place.parent else None))

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        await self._deleted(payload.guild_id, payload.channel_id, [payload.message_id],
                            payload.cached_message)

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        await self._deleted(payload.guild_id, payload.channel_id, sorted(payload.message_ids))

    async def _deleted(self, guild_id, channel_id, message_ids: Iterable[int],
                       cached: discord.Message | None = None) -> None:
        if guild_id is None:
            return  # DMs are never ingested
        if cached is not None and self.user is not None and cached.author.id == self.user.id:
            return
        place = await self._place(guild_id, channel_id)
        deleted_at = datetime.now(timezone.utc)
        for message_id in message_ids:
            self._spawn(self._in_order(self.bot.on_delete, place, str(message_id), deleted_at))

    async def _place(self, guild_id: int, channel_id: int) -> Place:
        channel = self.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s of a delete is unknown; taking it as a channel", channel_id)
                return Place(PLATFORM, str(guild_id), str(channel_id))
        return place_of(channel)

    # --- confirmations ---------------------------------------------------------------------
    async def await_choice(self, message: discord.Message, reply: Reply) -> None:
        conv = DiscordConversation(self, message.channel)
        now = time.monotonic()
        for stale in [m for m, a in self._awaiting.items() if a.expires < now]:
            del self._awaiting[stale]  # the core forgot the question too
        self._awaiting[message.id] = _Awaiting(reply.token, place_of(message.channel), conv,
                                               now + CONFIRM_TTL_S)
        channel = self.get_channel(message.channel.id) or message.channel
        target = channel.get_partial_message(message.id) if hasattr(
            channel, "get_partial_message") else message
        for choice in reply.choices:
            emoji = EMOJI_FOR.get(choice.value)
            if emoji:
                try:
                    await target.add_reaction(emoji)
                except discord.HTTPException:  # no Add Reactions permission: replies still work
                    log.warning("could not add the %s reaction", emoji, exc_info=True)
                    break

    def settled(self, token: str) -> None:
        for message_id in [m for m, a in self._awaiting.items() if a.token == token]:
            del self._awaiting[message_id]

    def _awaiting_for(self, message: discord.Message) -> _Awaiting | None:
        ref = message.reference
        return self._awaiting.get(ref.message_id) if ref and ref.message_id else None

    async def _choice_by_reply(self, message: discord.Message, awaiting: _Awaiting) -> None:
        words = self._strip_mentions(message.content).lower().split()
        choice = words[0] if words else ""
        choice = CHOICE_EMOJI.get(choice.replace(VS16, ""), choice)  # a reply of just "1️⃣"
        conv = DiscordConversation(self, message.channel, message=message)
        place = place_of(message.channel)
        await self._in_turn(place, self.bot.on_choice, awaiting.token, choice, place,
                            actor_of(message.author), conv)

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        awaiting = self._awaiting.get(payload.message_id)
        if awaiting is None or self.user is None or payload.user_id == self.user.id:
            return
        choice = CHOICE_EMOJI.get(str(payload.emoji).replace(VS16, ""))  # with or without FE0F
        if choice is None:
            return
        user = payload.member or self.get_user(payload.user_id) or \
            await self.fetch_user(payload.user_id)
        if user.bot:
            return
        self._spawn(self._in_turn(awaiting.place, self.bot.on_choice, awaiting.token, choice,
                                  awaiting.place, actor_of(user), awaiting.conversation))

    # --- slash commands --------------------------------------------------------------------
    async def run_interaction(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(thinking=True)
        conv = DiscordConversation(self, interaction.channel, interaction=interaction)
        await self._request(text, place_of(interaction.channel),
                            actor_of(interaction.user, interaction.permissions), conv)

    async def _request(self, text: str, place: Place, actor: Actor,
                       conv: DiscordConversation) -> None:
        await self._in_turn(place, self.bot.on_request, text, place, actor, conv)

    # --- history ---------------------------------------------------------------------------
    async def on_guild_join(self, guild: discord.Guild) -> None:
        if self.backfill_on_join:
            for channel in readable_channels(guild):
                self._spawn(self.backfill(channel))

    async def on_guild_channel_create(self, channel) -> None:
        if self.backfill_on_join and isinstance(channel, discord.TextChannel):
            self._spawn(self.backfill(channel))

    async def backfill(self, channel, *, after: datetime | None = None,
                       limit: int | None = None, progress: Progress | None = None) -> int:
        """Page a channel's history into the sink (bot/backfill.py: oldest first, stored messages
        skipped); returns how many of its messages are stored now or handed on to be, so running
        it twice returns the same and adds nothing."""
        try:
            report = await self.backfill_report(channel, after=after, limit=limit,
                                                progress=progress)
        except discord.Forbidden:
            log.warning("no permission to read the history of #%s", getattr(channel, "name", "?"))
            return 0
        return report.covered

    async def backfill_report(self, channel, *, after: datetime | None = None,
                              limit: int | None = None,
                              progress: Progress | None = None) -> BackfillReport:
        history = DiscordHistory(self, limit=limit)
        return await backfill_async(self.bot, history, history.place(channel), oldest=after,
                                    progress=progress, run_sync=self._in_order)

    async def backfill_all(self, channels: Iterable, *,
                           progress: Progress | None = None) -> list[BackfillReport]:
        """Each channel's history in turn; one channel's failure is reported, the rest go on."""
        history = DiscordHistory(self)
        return await backfill_all_async(self.bot, history, [history.place(c) for c in channels],
                                        progress=progress, run_sync=self._in_order)


def lurker_commands(client: DiscordLurker) -> app_commands.Group:
    group = app_commands.Group(name="lurker", description="Ask Lurker, or manage what it remembers")

    @group.command(name="ask", description="Answer from what this channel has discussed")
    @app_commands.describe(question="What to ask")
    async def ask(interaction: discord.Interaction, question: str) -> None:
        await client.run_interaction(interaction, f"ask {question}")

    @group.command(name="forget", description="Admins: forget a memory (by id, or by words)")
    @app_commands.describe(what="A memory id, or words that match the memory")
    async def forget(interaction: discord.Interaction, what: str) -> None:
        await client.run_interaction(interaction, f"forget {what}")

    @group.command(name="memories", description="Admins: list what this channel's profile holds")
    async def memories(interaction: discord.Interaction, page: app_commands.Range[int, 1] = 1
                       ) -> None:
        await client.run_interaction(interaction, f"memories {page}")

    @group.command(name="export", description="Admins: the profile as a JSONL file")
    async def export(interaction: discord.Interaction) -> None:
        await client.run_interaction(interaction, "export")

    @group.command(name="purge", description="Admins: delete a user's messages and the memories "
                                              "drawn only from them")
    async def purge(interaction: discord.Interaction, user: discord.User) -> None:
        await client.run_interaction(interaction, f"purge {user.mention}")

    return group


def token_from_env() -> str:
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise LurkerError(f"set {TOKEN_ENV} to the bot token (Discord developer portal → your "
                          "application → Bot → Reset Token)")
    return token
