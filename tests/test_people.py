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
