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
