"""Who a question is about: the asker ("I") or the one it is put to ("you")."""
from __future__ import annotations

import pytest

from memory.people import asks_about_self, asks_what_you_said


@pytest.mark.parametrize("question", [
    "How did you recommend managing the flow of requests when my app bursts?",
    "What approach did you recommend for weaving keywords into my resume?",
    "what did you say about the rate limit last Tuesday?",
    "Have you mentioned a deadline for the migration?",
    "You told me to pin the version, which one was it?",
    "Which index you've suggested for the orders table?",
])
def test_questions_about_what_you_said(question):
    assert asks_what_you_said(question)


@pytest.mark.parametrize("question", [
    "Can you recommend a rate limiter for my app?",  # a request for something new
    "How would you suggest breaking up my work sessions?",
    "What should I do about the flaky test?",
    "Did you know the deploy moved to Tuesday?",
    "Have I used Bootstrap components in my project before?",
    "What did the youth team decide?",
])
def test_requests_and_other_questions_are_not(question):
    assert not asks_what_you_said(question)


def test_first_person():
    assert asks_about_self("Have I deployed it?") and asks_about_self("what's my quota")
    assert not asks_about_self("What did maya decide, i.e. which option?")


@pytest.mark.parametrize("question, people, names", [
    ("what did priya say about the rate limit?", {"priya", "tom"}, {"priya"}),
    ("what's tom's vote for the venue?", {"priya", "tom"}, {"tom"}),
    # a person no one in memory is, typed in lower case where a person goes
    ("what did sam say about the rate limit?", {"priya", "tom"}, {"sam"}),
    ("does sam want the Lisbon venue?", set(), {"sam", "lisbon"}),
    # a known name that is an English word too
    ("did mark approve the deploy?", {"mark"}, {"mark"}),
    ("how do we mark a ticket done?", {"mark"}, set()),
    # no person: a thing's verb, a pronoun, slang, an English word
    ("does redis support streams?", {"priya"}, set()),
    ("what did u say about the rate limit?", {"priya"}, set()),
    ("what did everyone decide about the venue?", {"priya"}, set()),
    ("what did legal say about the contract?", {"priya"}, set()),
    ("What did Priya decide?", set(), {"priya"}),
    # names as typed on any keyboard: "zoe" and "zoë" are Zoë
    ("what did zoë say?", set(), {"zoe"}),
    ("What did Zoë decide?", set(), {"zoe"}),
    ("did søren approve the deploy?", set(), {"soren"}),
    ("what's zoe's vote for the venue?", {"zoe"}, {"zoe"}),
    # where a person's presence is asked (27 Nov, ninth session: "dana" was no name)
    ("when is dana back?", {"dana", "raj"}, {"dana"}),
    ("is maya in today?", {"maya"}, {"maya"}),
    ("when does dana return?", {"dana"}, {"dana"}),
    ("is staging back up?", {"dana"}, set()),
    # where a tool or vendor goes, a capitalised word is no person ("are we using Adyen?")
    ("are we using Adyen?", set(), set()),
    ("did we go with Stripe for EU?", set(), set()),
    ("is Priya using Terraform?", set(), {"priya"}),
    # whose work is asked ("nina", an English word, was no name)
    ("what did nina do yesterday?", {"nina"}, {"nina"}),
    ("what did nina ship?", {"nina"}, {"nina"}),
    ("what did the migration do?", {"nina"}, set()),
])
def test_whom_a_lower_case_question_names(question, people, names):
    from memory.offline_answerer import asked_names

    assert asked_names(question, people) == names


@pytest.mark.parametrize("question, names, speaking", [
    ("what did sam say about the rate limit?", {"sam"}, {"sam"}),
    ("What did Priya suggest for the venue?", {"priya"}, {"priya"}),
    ("has tom mentioned the deadline?", {"tom"}, {"tom"}),
    ("what does sam like?", {"sam"}, set()),  # what he likes may be said by anyone
    ("what did we say about sam?", {"sam"}, set()),
])
def test_whose_words_a_question_asks_for(question, names, speaking):
    from memory.offline_answerer import said_by

    assert said_by(question, names) == speaking
