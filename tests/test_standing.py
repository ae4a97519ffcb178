"""Which instructions are standing rules (memory.standing): the ones recall's instruction channel
looks among."""
from __future__ import annotations

import pytest

from memory.standing import is_standing_rule


@pytest.mark.parametrize("text", [
    "Always include version numbers when I ask about software dependencies.",
    "always format code snippets with syntax highlighting",
    "Please always tag the release manager on deploy PRs.",
    "Never deploy on Fridays.",
    "From now on we squash-merge every pull request.",
    "Going forward, staging gets the nightly build.",
    "We squash-merge every pull request from now on.",
    "Whenever someone asks about the API, link the OpenAPI spec.",
    "When Jordan asks about resume formatting, use bullet points with numbers.",
    "Every time a migration lands, post it in #db.",
    "We should never store secrets in the repo.",
    "The rule is: two approvals before merge.",
    "- Always answer in British English.",  # a list item
    "maya asked everyone to always run the linter before pushing.",  # as a model may write it
    "Team rule: never deploy on Fridays.",
    # posted under a label (27 Nov, ninth session: "PSA: never deploy …" was no rule)
    "PSA: never deploy on Fridays after 3pm",
    "@here reminder: always tag the on-call in release threads",
    "Heads up - never merge to main without a review.",
    "<!channel> Friendly reminder: always rotate keys after an offboarding.",
])
def test_standing_rules(text):
    assert is_standing_rule(text)


@pytest.mark.parametrize("text", [
    "Ensure the SQLite database file exists in the expected location.",
    "Use caching to reduce the load on the database.",
    "Make sure to disable debug mode in production.",
    "Switch to the v2 client for this call.",
    "Maya has never deployed the refund service.",  # a fact about someone, not a rule
    "I always go hiking in the summer",  # a habit, not a rule: not at the start
    "Always here to help!",
    "Never mind, legal says ledger is trademarked, it's books-api now.",  # a retraction  # chat's elliptical sentences: no verb of a rule after "Always"
    "Never had a chance to visit it.",
    "Always been interested in different cultures.",
    "Always staying filled with self-belief.",
    "Never saw this coming.",
    "We always look forward to our family camping trip.",  # a habit
    "Nate will start writing down his favourite memories from now on.",  # a plan, not a rule
    "Take breaks and dance it out when you need to destress!",
    "Always up for something sweet.",
    "Reminder: standup is at 10 tomorrow.",  # a label, then no rule
    "FYI always been into jazz.",
    "",
])
def test_one_off_advice_and_facts_are_not(text):
    assert not is_standing_rule(text)


def _rule(text):
    from datetime import datetime, timezone

    from memory.models import Memory

    return Memory(id="r", type="instruction", content=text,
                  created_at=datetime(2026, 11, 2, tzinfo=timezone.utc))


@pytest.mark.parametrize("rule, question, said", [
    # a rule for a kind of request: what the instruction channel found nearest, whatever words
    ("Always include version numbers when I ask about software dependencies.",
     "what packages does the login service need?", True),
    # a rule for an action: a request, or a question sharing its words
    ("Never deploy on Fridays after 3pm.", "can I ship the release tomorrow?", True),
    ("Never deploy on Fridays after 3pm.", "Is a deploy on Friday fine?", True),
    ("Never deploy on Fridays after 3pm.", "how do I roll back the search service?", True),
    # ... not a question for an unrelated fact
    ("Never deploy on Fridays after 3pm.", "what is the payments API rate limit?", False),
    ("Standing rule: never deploy on Fridays after 3pm.", "when is the customer offsite?", False),
    # a fact asked with "should" (27 Nov, ninth session)
    ("PSA: never deploy on Fridays after 3pm", "who should I ask about GDPR?", False),
    ("PSA: never deploy on Fridays after 3pm", "when should we deploy the fix?", True),
])
def test_a_rule_is_said_beside_the_answers_it_governs(rule, question, said):
    from memory.standing import governs

    assert governs(_rule(rule), question) is said
