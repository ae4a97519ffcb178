"""Errors a user can act on. Each message names what was wrong and what to do; the CLI prints it
without a traceback."""


class LurkerError(Exception):
    """Base class for every error Lurker raises on purpose."""


class InvalidProfileName(LurkerError, ValueError):
    pass


class InvalidMessage(LurkerError, ValueError):
    pass


class InputFormatError(LurkerError, ValueError):
    """A file given to ingest/import is malformed; `problems` lists (line number, reason)."""

    def __init__(self, path: str, problems: list[tuple[int, str]]):
        self.path = path
        self.problems = problems
        shown = "; ".join(f"line {n}: {why}" for n, why in problems[:10])
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        super().__init__(f"{path}: nothing was imported, fix these first: {shown}{more}")


class UnknownMemory(LurkerError, KeyError):
    def __init__(self, profile: str, memory_id: str):
        self.profile = profile
        self.memory_id = memory_id
        super().__init__(f"profile {profile!r} has no memory with id {memory_id!r}")

    def __str__(self) -> str:  # KeyError would quote the whole message
        return self.args[0]


class StoreUnavailable(LurkerError, ConnectionError):
    """The storage backend cannot be reached; the message names the URL. Transient: writers retry."""


class StoreBusy(StoreUnavailable):
    """The embedded store's file stayed locked by another writer (another process) for longer
    than its busy timeout. Transient like StoreUnavailable: the write is retried."""


class EmbeddingMismatch(LurkerError):
    """The store was built with another embedding model or dimension: reindex instead of mixing."""


class LLMError(LurkerError):
    """The language model could not be reached or kept answering with something unusable."""
