"""Words a team writes short (memory/text.py): the query finds both forms, and the answerer
reads both as one."""
from __future__ import annotations

import pytest

from memory.offline_answerer import content_stems
from memory.text import expand_query, short_phrases


@pytest.mark.parametrize("question, adds", [
    ("who was the incident commander?", "ic"), ("who is IC?", "incident commander"),
    ("which pull request broke the build?", "pr"), ("who is the point of contact?", "poc"),
    ("what is the prod database?", "production db"),
])
def test_a_query_gains_the_other_form(question, adds):
    assert expand_query(question) == f"{question} {adds}"


def test_a_phrase_and_its_letters_are_one_word_to_the_answerer():
    assert short_phrases("Incident Commander and the pull request") == "ic and the pr"
    assert content_stems("who was the incident commander?") == {"ic"}
    assert "ic" in content_stems("I'm IC, @omar is comms.")
    assert short_phrases("incidental commanders") == "incidental commanders"
