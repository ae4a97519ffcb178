"""The JSON shape of memories and recall results that the command line's --json and the REST API
share (stable keys, documented in the README)."""
from __future__ import annotations

from memory.models import Memory, RecallResult


def memory_json(m: Memory) -> dict:
    return {"id": m.id, "type": m.type, "content": m.content, "topic_key": m.topic_key,
            "source_message_ids": m.source_message_ids, "status": m.status,
            "created_at": m.created_at.isoformat(),
            "event_time": m.event_time.isoformat() if m.event_time else None,
            "supersedes": m.supersedes, "superseded_by": m.superseded_by,
            "forgotten_reason": m.forgotten_reason}


def recall_json(result: RecallResult) -> dict:
    return {
        "answer": result.answer,
        "memories": [{**memory_json(s.memory), "score": s.score, "channels": s.channels}
                     for s in result.memories],
        "messages": [{"id": s.message.id, "author": s.message.author, "role": s.message.role,
                      "content": s.message.content, "ts": s.message.ts.isoformat(),
                      "session_id": s.message.session_id, "score": s.score,
                      "channels": s.channels} for s in result.messages],
        "computed": [c.model_dump() for c in result.computed],
    }
