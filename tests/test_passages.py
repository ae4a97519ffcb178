"""memory.passages: how a message's raw text is cut for the passage channels."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memory.passages import PASSAGE_CHARS, is_long, passage_embedding_text, split_passages


def check(text: str, limit: int = PASSAGE_CHARS) -> list[tuple[int, int]]:
    spans = split_passages(text, limit)
    assert all(0 <= a < b <= len(text) and b - a <= limit for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))  # in order, no overlap
    kept = "".join(text[a:b] for a, b in spans)
    assert "".join(kept.split()) == "".join(text.split())  # every non-space character, once
    return spans


def test_short_text_is_one_passage_and_not_long():
    assert check("Use pnpm for the dashboard.") == [(0, 27)]
    assert not is_long("Use pnpm for the dashboard.")
    assert check("") == [] and check(" \n\n \t") == []


def test_paragraphs_then_sentences_then_words():
    para = "This sentence is about the deploy. " * 10  # 350 chars
    text = "\n\n".join([para] * 6)
    spans = check(text)
    assert len(spans) == 3 and is_long(text)
    assert all(text[a:b].startswith("This sentence") for a, b in spans)  # cut at paragraphs
    one_paragraph = "A sentence that goes on. " * 100  # no blank lines: cut at sentences
    assert all(one_paragraph[a:b].endswith(".") for a, b in check(one_paragraph))


def test_hostile_text_is_cut_anyway():
    check("x" * 5000)  # one 5,000-character "word": hard cuts
    check("🙂" * 3000 + " tail")
    check("line\n" * 2000)
    check("a\u00a0b " * 900)
    stack = "\n".join(f'  File "/srv/app/module_{i}.py", line {i}, in handler' for i in range(300))
    assert len(check(stack)) > 5


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab .\n!?é🙂\t")), max_size=3000),
       st.integers(min_value=5, max_value=900))
def test_any_text_any_limit(text, limit):
    check(text, limit)


def test_embedding_text_names_the_speaker():
    assert passage_embedding_text("maya", "use pnpm") == "maya: use pnpm"
    assert passage_embedding_text(None, "use pnpm") == "use pnpm"
