"""A thread's asker on what a reply suggested: it worked ("that was it, thanks!") or it did not
("nope, still hangs").

A help thread holds suggestions that did not work beside the one that did, and only the asker's
short word after each tells them apart. Without it, "how do I fix the docker compose hang?" was
answered with the refuted "try `docker compose down -v`", and the fix that worked came third.
memory.offline_extractor reads such a word beside the reply before it in the thread (by someone
else) and keeps what was tried with how it went; memory.said_before brings that reply when the
word arrives alone (over Slack each message is its own batch); memory.offline_answerer shows a
refuted suggestion as refuted, and the confirmed fix first.
"""
from __future__ import annotations

import re

# The asker's word on what a reply in their thread suggested: it worked, or it did not ("that
# was it, thanks!", "nope, still hangs"). Without it the refuted suggestion answered "how do I
# fix the docker compose hang?", and the fix that worked came third.
TRIED_WORKED = re.compile(
    r"(?i)^\W*(?:(?:yes|yep|yup|yeah|ah+|oh+|omg|ok|okay)\b[\s,!.]*)?"
    r"(?:that(?:['’]s|\s+was|\s+is)\s+it|that\s+(?:did|does)\s+(?:it|the\s+trick)|"
    r"that\s+(?:worked|works|fixed\s+it|solved\s+it)|(?:it\s+)?works\s+now|"
    r"(?:it\s+)?worked|fixed\s+it|solved\s+it|problem\s+solved|bingo|nailed\s+it)\b")
TRIED_FAILED = re.compile(
    r"(?i)^\W*(?:(?:nope|no|nah|hmm+|sadly|unfortunately|tried\s+(?:it|that))\b[\s,!.]*)*"
    r"(?:still\s+(?:hangs|hanging|fails|failing|broken|happening|crashes|crashing|the\s+same|"
    r"same|errors?|getting\s+it)|didn['’]?t\s+(?:work|help|fix\s+it|do\s+it)|"
    r"doesn['’]?t\s+(?:work|help|fix\s+it)|no\s+luck|same\s+(?:error|issue|thing|problem)|"
    r"not\s+(?:it|that)|nope)\b")
TRIED_WORDS = 12  # a longer reply says more than how the suggestion went
FIX_CONFIRMED, DID_NOT_WORK = "Fix confirmed by ", "Did not work for "  # (their memories' openings)


def says_how_tried(text: str) -> bool:
    """Whether a short reply says a suggestion worked or did not."""
    return len(text.split()) <= TRIED_WORDS and bool(TRIED_WORKED.match(text)
                                                      or TRIED_FAILED.match(text))
