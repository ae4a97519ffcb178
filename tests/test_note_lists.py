"""memory.note_lists: a note's headed lists as one statement each."""
from __future__ import annotations

from memory.note_lists import ITEMS_PER_LINE, grouped_lists


def test_a_heading_and_its_bullets_become_one_line_titled_by_the_note():
    text = ("Retro notes (sprint 47):\nWent well:\n- webhooks shipped\n* on-call was quiet.\n"
            "**Action items:**\n1. @lena: add disk alerts\n2) @raj: upgrade CI\nThanks all!")
    out, grouped = grouped_lists(text)
    assert grouped == ["Retro notes (sprint 47), Went well: webhooks shipped; on-call was quiet.",
                       "Retro notes (sprint 47), Action items: @lena: add disk alerts; "
                       "@raj: upgrade CI."]
    assert out.split("\n") == [*grouped, "Thanks all!"]


def test_text_without_headed_lists_is_left_as_it_is():
    for text in ("The rate limit is 300. We ship Friday.", "- a bullet\n- under no heading",
                 "Note: the deploy is at 5pm", "Heads up:\nthe office is closed Friday"):
        assert grouped_lists(text) == (text, [])


def test_a_long_list_is_several_lines_so_no_memory_grows_without_bound():
    items = [f"- item {i}" for i in range(ITEMS_PER_LINE + 3)]
    _, grouped = grouped_lists("Todo:\n" + "\n".join(items))
    assert len(grouped) == 2 and grouped[1] == "Todo: item 8; item 9; item 10."


def test_a_line_in_bold_heads_its_points_and_a_bold_label_is_a_field():
    """4 Dec (eleventh session): a review bot's "**Issues**" over its numbered points was glued
    to the sentence before it ("… capped at 60s. **Issues**"), and "**Verdict**: request
    changes." was no field (glued to the last point)."""
    text = ("Review of PR #2290:\n\n**Summary**: adds a retry budget.\n\n**Issues**\n"
            "1. not thread-safe\n2. wrong default\n\n**Verdict**: request changes.")
    out, grouped = grouped_lists(text)
    assert grouped == ["Issues: not thread-safe; wrong default."]
    assert "Summary: adds a retry budget." in out.split("\n")
    assert "Verdict: request changes." in out.split("\n")
    assert "**" not in out
    # a bold word inside a sentence, or a bold line that is a sentence, is left as it is
    for text in ("We **must** ship Friday.", "**Do not deploy on Fridays.**"):
        assert grouped_lists(text) == (text, [])
