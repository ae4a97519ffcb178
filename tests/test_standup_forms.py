"""A standup bot's post read as the person's standup (memory/standup_forms.py)."""
from __future__ import annotations

import pytest

from memory.standup_forms import standup_text

GEEKBOT = ("*maya* posted an update for *Daily Standup*\n*What did you do yesterday?*\nFixed the "
           "flaky checkout test\n*What will you do today?*\nWork on the billing export\nand the "
           "invoice PDF\n*Anything blocking your progress?*\nWaiting on legal for the DPA")


def test_a_form_post_is_each_answer_with_whose_it_is():
    assert standup_text(GEEKBOT) == (
        "Yesterday (maya's Daily Standup): Fixed the flaky checkout test.\n"
        "Today (maya's Daily Standup): Work on the billing export and the invoice PDF.\n"
        "Blockers (maya's Daily Standup): Waiting on legal for the DPA.")


def test_a_workflow_s_bold_questions_without_a_header_and_an_unanswered_question():
    assert standup_text("*What did you finish?*\nthe SSO bug\n*Any impediments?*\n"
                        "*What's next?*\nthe runbook") == ("Yesterday: the SSO bug.\n"
                                                           "Today: the runbook.")


@pytest.mark.parametrize("text", [
    "Anyone know why CI is red?\nI think it is the flaky test\nCan someone look?\nsure",
    "We shipped it.\n*What did you do yesterday?*\nbilling\n*Blockers?*\nnone",
    "*maya* posted an update for *Daily Standup*\n*What did you do yesterday?*\nbilling",
    "", "?", "*?*\n*?*",
])
def test_prose_and_half_forms_are_left_as_they_are(text):
    assert standup_text(text) is None


@pytest.mark.parametrize("text, expected", [
    ("Y: reviewed #1204, T: start on the webhook retries, B: waiting on staging creds from ops",
     "Yesterday: reviewed #1204\nToday: start on the webhook retries\nBlockers: waiting on "
     "staging creds from ops"),
    ("Y: got creds, webhook retries merged. T: payout sync flake. B: none",
     "Yesterday: got creds, webhook retries merged\nToday: payout sync flake\nBlockers: none"),
    ("Today: fix the flaky test, blockers: none", "Today: fix the flaky test\nBlockers: none"),
    # sentences already, one label, no label first, or lines of their own: as written
    ("Yesterday: finished the export. Today: pagination. Blockers: none", None),
    ("Today: deploy the api", None),
    ("Plan: T: tests, B: build", None),
    ("Y: one\nT: two", None),
])
def test_a_one_line_standup_is_put_on_lines_with_its_labels_spelled_out(text, expected):
    from memory.standup_forms import labelled_standup
    assert labelled_standup(text) == expected
