"""Weighted reciprocal-rank fusion of the retrieval channels.

score(doc) = sum over channels c that returned doc of  weight[c] / (K + rank_c(doc))
Topic-key matches weigh most (an exact subject match is the strongest evidence), raw messages least
(they are the safety net, not the curated memory). Ties go to the newer record."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from .models import Memory, Message
from .stores.base import CH_HYDE, CH_MEMORY_TEXT, CH_MESSAGE_TEXT, CH_TOPIC, CH_VECTOR, Hit

RRF_K = 60
DEFAULT_WEIGHTS: dict[str, float] = {
    CH_TOPIC: 3.0,
    CH_MEMORY_TEXT: 1.0,
    CH_VECTOR: 1.0,
    CH_HYDE: 0.7,
    CH_MESSAGE_TEXT: 0.5,
}


@dataclass
class Fused:
    record: Memory | Message
    score: float = 0.0
    channels: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str]:
        return (type(self.record).__name__, self.record.id)

    @property
    def timestamp(self) -> datetime:
        r = self.record
        return r.ts if isinstance(r, Message) else (r.event_time or r.created_at)


def fuse(results: dict[str, list[Hit]], weights: dict[str, float] | None = None,
         k: int = RRF_K) -> list[Fused]:
    weights = DEFAULT_WEIGHTS if weights is None else weights
    merged: dict[tuple[str, str], Fused] = {}
    for channel, hits in results.items():
        weight = weights.get(channel, 0.0)
        if weight <= 0:
            continue
        for rank, hit in enumerate(hits, start=1):
            entry = Fused(hit.record)
            entry = merged.setdefault(entry.key, entry)
            entry.score += weight / (k + rank)
            entry.channels.append(channel)
    return sorted(merged.values(), key=lambda f: (f.score, f.timestamp), reverse=True)
