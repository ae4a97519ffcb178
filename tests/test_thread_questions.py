"""A question asked in a thread, about the thread (memory.thread_questions)."""
from __future__ import annotations

import pytest

from memory.thread_questions import in_thread, thread_subject


@pytest.mark.parametrize("opening, subject", [
    ("Postgres 16 upgrade: we need a maintenance window.", "Postgres 16 upgrade"),
    ("The billing export is broken again for EU customers", "The billing export"),
    ("Heads up: the SSO migration starts Monday", "the SSO migration"),
    ("Should we use Kafka or SQS for the event bus?",
     "Should we use Kafka or SQS for the event bus"),
    ("<@U123> the nightly backup failed again", "the nightly backup"),
    ("Offsite planning - Lisbon in March", "Offsite planning"),
    ("hey", None), ("", None), ("*Retro (sprint 47):*", "Retro (sprint 47)"),
])
def test_a_thread_s_subject_is_what_its_opening_names(opening, subject):
    assert thread_subject(opening) == subject


def test_the_pronoun_for_the_thread_takes_its_subject_and_nothing_else_changes():
    opening = "Postgres 16 upgrade: we need a maintenance window."
    assert in_thread("when is it?", opening) == "when is Postgres 16 upgrade?"
    assert in_thread("when's it happening?", "Offsite planning - Lisbon") \
        == "when's Offsite planning happening?"
    assert in_thread("what's its status?", "ZD-4411 from Umbrella: export times out") \
        == "what's ZD-4411 from Umbrella’s status?"
    # a question that names its subject, one with no pronoun, a thread with no subject
    assert in_thread("when is the postgres 16 upgrade?", opening) \
        == "when is the postgres 16 upgrade?"
    assert in_thread("who is on call?", opening) == "who is on call?"
    assert in_thread("when is it?", "hey") == "when is it?"
    assert in_thread("when is it?", None) == "when is it?"


def test_a_question_of_nothing_named_asks_of_the_thread():
    """"what did we decide?" inside the thread of "Should we use Kafka or SQS for the event
    bus?" names nothing and has no pronoun to take the thread's subject: it asks of it."""
    opening = "Should we use Kafka or SQS for the event bus?"
    assert in_thread("what did we decide?", opening) \
        == "what did we decide about Should we use Kafka or SQS for the event bus?"
    assert in_thread("any updates?", "Postgres 16 upgrade: we need a window") \
        == "any updates about Postgres 16 upgrade?"
    assert in_thread("what did we decide about kafka?", opening) \
        == "what did we decide about kafka?"
    assert in_thread("what do you think?", opening) == "what do you think?"
