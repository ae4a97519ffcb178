"""The fake chat side shared by the bot tests: a conversation that keeps what the bot says, and the
real in-process sink keeping what it was handed."""
from __future__ import annotations

from bot.contract import Conversation, Reply
from memory.models import Message
from workers.sinks import InProcessSink


class RecordedConversation(Conversation):
    """A conversation that keeps what the bot says (the adapters' contract, with no platform)."""

    def __init__(self, platform: str = "slack"):
        self.platform = platform
        self.sent: list[Reply] = []
        self.files: list[tuple[str, bytes, str]] = []
        self.working_calls = 0

    def send(self, reply: Reply) -> None:
        self.sent.append(reply)

    def working(self) -> None:
        self.working_calls += 1

    def send_file(self, filename: str, data: bytes, comment: str) -> None:
        self.files.append((filename, data, comment))

    def link(self, message: Message) -> str | None:
        return f"https://example.test/{message.external_id}"

    def resolve_user(self, text: str):
        if text.startswith("<@") and text.endswith(">"):
            return text[2:-1], text[2:-1].lower()
        return None


class RecordingSink(InProcessSink):
    """The real in-process sink, keeping the events it took (in the order they were applied)."""

    def __init__(self, service):
        super().__init__(service)
        self.events: list = []

    def publish(self, events):
        report = super().publish(events)
        self.events.extend(events)
        return report
