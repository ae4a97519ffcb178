"""Words a team writes short (memory/text.py): the query finds both forms, and the answerer
reads both as one."""
from __future__ import annotations

import pytest

from memory.ingest_input import clean_text
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


@pytest.mark.parametrize("typed, read", [
    ("wat time is standup", "what time is standup"),
    ("whats in prod rn?", "what's in prod right now?"),
    ("where r the staging db creds", "where are the staging db creds"),
    ("do u know the rate limit pls", "do you know the rate limit"),
    ("y did we revert 512", "why did we revert 512"),
    ("wen is the offsite", "when is the offsite"),
    # names, languages and countries as written
    ("Wen said hi", "Wen said hi"),
    ("what is R used for", "what is R used for"),
    ("is it in the U.S.?", "is it in the U.S.?"),
    ("what did yuri say about the 'r' flag", "what did yuri say about the 'r' flag"),
    # nothing left but a courtesy: the question as asked, never an empty one
    ("pls", "pls"), ("plz?", "plz?"),
])
def test_chat_spellings_of_a_question_are_written_out(typed, read):
    from memory.text import spelled_out
    assert spelled_out(typed) == read


def test_a_retirement_plans_name_is_one_word_however_written():
    """6 Dec (twentieth session): "what's the 401k match next year?" shared no word with
    "401(k) match goes from 4% to 5%" ("401", "k" against "401k"), in BM25 and in answers."""
    from memory.offline_answerer import content_stems
    from memory.text import stem_tokens
    assert stem_tokens("401(k) match") == stem_tokens("401k match") == ["401k", "match"]
    assert "401k" in content_stems("The 401( K ) match is 5%")
    assert stem_tokens("f(x) and 403(b)") == ["f", "x", "403b"]


@pytest.mark.parametrize("written, read", [
    ("<!here> v3.2.0 breaks pandas 1.x", "@here v3.2.0 breaks pandas 1.x"),
    ("<!channel|channel> freeze", "@channel freeze"),
    ("the reporter is <@U07QX|mhalvorsen>", "the reporter is @mhalvorsen"),
    # (a bare mention is named when answered, from the authors known then: memory.people)
    ("ask <@W0ABC>", "ask <@W0ABC>"),
    ("in <#C1|ops> see <https://x.io/r|the notes>", "in #ops see the notes (https://x.io/r)"),
    ("<!subteam^S1|@oncall> on <!date^1765353600^{date_short}|Dec 10, 2025>",
     "@oncall on Dec 10, 2025"),
    ("a label holding markup <!date^1^x|<@U1|maya>>", "a label holding markup @maya"),
    ("List<String> and a < b > c", "List<String> and a < b > c"),
])
def test_slack_markup_reaches_the_stores_as_people_read_it(written, read):
    """A Slack export fed to `lurker ingest` quoted `<!here>` back in answers: an agent posting
    one to Slack would have pinged the channel. Cleaning it again changes nothing (the API hands
    the worker the cleaned text and its id must stay the same)."""
    assert clean_text(written) == read
    assert clean_text(read) == read
