"""How every chat command starts its lurker: one function for the terminal, Slack and Discord, the
long-running bots and `lurker backfill` alike."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

from memory.config import Settings
from memory.service import MemoryService
from workers.sinks import make_sink

from .config import BotConfig
from .core import LurkerBot


@contextlib.contextmanager
def running_bot(config_path: str | None = None, *, store: str | None = None,
                sink: str | None = None) -> Iterator[LurkerBot]:
    """The bot config (`config_path`, else LURKER_BOT_CONFIG; a bad one fails before anything
    opens), the engine on LURKER_STORE (or `store`), the sink the config names (or `sink`: auto,
    queue, inprocess) and the LurkerBot over them; the sink and the engine are closed when the
    block ends."""
    config = BotConfig.load(config_path)
    settings = Settings(**({"store": store} if store else {}))
    service = MemoryService.from_settings(settings)
    try:
        events = make_sink(sink or config.sink, service, settings)
        try:
            yield LurkerBot(service, events, config)
        finally:
            events.close()
    finally:
        service.close()
