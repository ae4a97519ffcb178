"""Extraction with an Anthropic model (steps 2-4 of the ingest pipeline).

1. Full pass: the transcript in ~10K-character chunks with a two-message overlap, up to four chunks
   in flight at once.
2. Detail pass, run at the same time for conversations of 9+ messages: the same chunks, asking only
   for concrete values (names, prices, versions, ids, quantities) a summary would lose.
3. The proposals are merged and de-duplicated, then verified by the model against the lines they
   cite (kept, corrected or dropped). Code-level verification (memory.verification) runs after this
   for every extractor, so the model's verdict is never the only defence.
Classification (type, topic key, 3-5 questions) is part of the extraction reply.

If the API fails for a chunk even after the client's retries, that chunk falls back to the offline
extractor (logged and counted): the messages are already stored, so extraction must not lose them.
"""
from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

from ..errors import LLMError
from ..extraction import (CHUNK_CHARS, CHUNK_OVERLAP, DETAIL_PASS_MIN_MESSAGES, Candidate,
                          Extractor, TranscriptLine, chunk_transcript, merge_candidates)
from .client import LLMClient
from .prompts import (DETAIL_SYSTEM, EXTRACT_SYSTEM, VERIFY_SYSTEM, ExtractionReply,
                      VerificationReply)

log = logging.getLogger(__name__)

VERIFY_BATCH = 40  # candidates per verification call


def render(lines: list[TranscriptLine]) -> str:
    return "\n".join(line.render() for line in lines)


class AnthropicExtractor(Extractor):
    name = "anthropic"

    def __init__(self, client: LLMClient, model: str, fallback: Extractor | None = None,
                 concurrency: int = 4, chunk_chars: int = CHUNK_CHARS,
                 overlap: int = CHUNK_OVERLAP, verify: bool = True):
        if fallback is None:
            from ..offline_extractor import OfflineExtractor

            fallback = OfflineExtractor()
        self.client, self.model, self.fallback = client, model, fallback
        self.concurrency, self.chunk_chars, self.overlap = concurrency, chunk_chars, overlap
        self.verify_with_model = verify
        self.fallbacks = 0  # chunks extracted offline because the API failed

    def extract(self, lines: list[TranscriptLine]) -> list[Candidate]:
        if not lines:
            return []
        chunks = chunk_transcript(lines, self.chunk_chars, self.overlap)
        detail = len(lines) >= DETAIL_PASS_MIN_MESSAGES
        workers = max(1, self.concurrency)
        with ThreadPoolExecutor(workers, thread_name_prefix="extract-full") as full_pool, \
                ThreadPoolExecutor(workers, thread_name_prefix="extract-detail") as detail_pool:
            full = [full_pool.submit(self._pass, EXTRACT_SYSTEM, chunk) for chunk in chunks]
            details = [detail_pool.submit(self._pass, DETAIL_SYSTEM, chunk, False)
                       for chunk in chunks] if detail else []
            batches = [f.result() for f in full] + [f.result() for f in details]
        candidates = merge_candidates(batches)
        return self._verify(candidates, lines) if self.verify_with_model else candidates

    def _pass(self, system: str, chunk: list[TranscriptLine],
              fall_back: bool = True) -> list[Candidate]:
        user = f"Transcript:\n{render(chunk)}"
        try:
            reply = self.client.json(self.model, system, user, ExtractionReply)
        except LLMError as exc:
            if not fall_back:  # the detail pass only adds to the full pass: skip it
                log.warning("detail pass skipped for lines %d-%d: %s", chunk[0].index,
                            chunk[-1].index, exc)
                return []
            self.fallbacks += 1
            log.warning("extraction fell back to %s for lines %d-%d: %s", self.fallback.name,
                        chunk[0].index, chunk[-1].index, exc)
            return self.fallback.extract(chunk)
        indices = {line.index for line in chunk}
        out = []
        for proposed in reply.memories:
            sources = [i for i in proposed.source_lines if i in indices]
            if sources:  # a proposal citing no line of this chunk is not grounded here
                out.append(Candidate(**proposed.model_dump(exclude={"source_lines"}),
                                     source_lines=sources))
        return out

    def _verify(self, candidates: list[Candidate], lines: list[TranscriptLine]
                ) -> list[Candidate]:
        groups = [candidates[i:i + VERIFY_BATCH] for i in range(0, len(candidates), VERIFY_BATCH)]
        with ThreadPoolExecutor(max(1, self.concurrency), thread_name_prefix="verify") as pool:
            return [c for kept in pool.map(lambda g: self._verify_group(g, lines), groups)
                    for c in kept]

    def _verify_group(self, group: list[Candidate], lines: list[TranscriptLine]
                      ) -> list[Candidate]:
        by_index = {line.index: line for line in lines}
        cited = sorted({i for c in group for i in c.source_lines if i in by_index})
        context = sorted({j for i in cited for j in (i - 1, i, i + 1) if j in by_index})
        numbered = "\n".join(f"{n}. [{c.type}] {c.content} (lines {c.source_lines})"
                             for n, c in enumerate(group))
        user = (f"Transcript:\n{render([by_index[i] for i in context])}\n\n"
                f"Candidates:\n{numbered}")
        try:
            reply = self.client.json(self.model, VERIFY_SYSTEM, user, VerificationReply)
        except LLMError as exc:
            log.warning("model verification skipped for %d candidates: %s", len(group), exc)
            return group  # code-level verification still runs
        verdicts = {v.index: v for v in reply.verdicts}
        kept = []
        for n, candidate in enumerate(group):
            verdict = verdicts.get(n)
            if verdict is None or verdict.verdict == "keep":
                kept.append(candidate)
            elif verdict.verdict == "correct" and verdict.content and verdict.content.strip():
                kept.append(candidate.model_copy(update={"content": verdict.content.strip()}))
            elif verdict.verdict == "drop":
                log.info("verification dropped %r: %s", candidate.content, verdict.reason)
        return kept
