"""Standing instructions: the rules a team or a person set for every later request ("Always
include version numbers when I ask about dependencies", "From now on we squash-merge", "Never
deploy on Fridays"), as opposed to one-off advice ("Ensure the file exists") that is also
phrased as an instruction.

A request that a standing rule governs rarely shares its words ("show me how to implement a
login" under "always format code snippets with syntax highlighting when I ask about
implementation details"), so recall looks for the rules in force in a channel of their own
(CH_INSTRUCTION): the few standing rules nearest the question, among the profile's active
instruction memories. The test is on the memory's text, so memories from any extractor qualify.
"""
from __future__ import annotations

import re

from .models import Memory
from .text import stem_tokens

# What follows a rule's "Always" / "Never" is a verb in its base form ("Always include …"); chat
# also says "Always here to help!", "Never had a chance", "Always been into jazz".
_NOT_A_RULE_VERB = (r"(?!\s+(?:mind|here|there|up|down|good|great|happy|glad|nice|fun|ready|so|such|a|an|"
                    r"the|been|had|was|were|is|are|did|got|went|saw|thought|felt|knew|made|took|"
                    r"came|said|heard|\w+ed|\w+ing)\b)")
# a label a rule is posted under: "PSA: never deploy on Fridays after 3pm", "@here reminder:
# always tag the on-call in release threads" (the rule was no rule, and "can I deploy today at
# 4pm?", asked on a Friday, was not told it)
_LABEL = (r"(?:(?:@here|@channel|@everyone|<!here>|<!channel>|<!everyone>|friendly|quick|"
          r"psa|reminder|fyi|heads[- ]up|note|nb|important|policy|team rule|new rule|"
          r"rule)\W*\s*)*")
_STANDING = re.compile(
    r"^\W*" + _LABEL + r"(?:please\s+)?(?:(?:always|never)" + _NOT_A_RULE_VERB + r"|whenever|from now on|"
    r"going forward|every time|each time|don't ever|do not ever)\b"
    # mid-sentence, a rule has the team as its subject ("we squash-merge from now on"), not one
    # person's plan ("Nate will start a diary from now on")
    r"|\b(?:we|everyone|everybody|the team|all of us)\b[^.!?]*"
    r"\b(?:from now on|going forward|every time|each time|whenever)\b"
    r"|\bwhen(?:ever)? (?:i|we|you|they|someone|anyone|somebody|[A-Z][\w'-]*) "
    r"(?:asks?|requests?|mentions?)\b"
    r"|\b(?:everyone|everybody|to) (?:should |must )?(?:always|never)\b"
    # "we always …" is as often a habit ("We always look forward to our camping trip") as a rule
    r"|\b(?:we|you|i) (?:should|must) (?:always|never)\b"
    r"|\brule:\s*(?:always|never)\b"
    r"|\bthe rule is\b",
    re.IGNORECASE,
)


def is_standing_rule(text: str) -> bool:
    """Whether an instruction's text is a rule for every later request (see the module)."""
    return bool(_STANDING.search(text))


def is_standing_instruction(memory: Memory) -> bool:
    """Whether a memory is an instruction whose text is a standing rule (what the answerers say
    or name as a rule in force)."""
    return memory.type == "instruction" and is_standing_rule(memory.content)


# When a rule is worth saying beside an answer. A rule for a kind of request ("always include
# version numbers when I ask about dependencies") governs what the instruction channel found
# nearest to it, though the words differ ("what packages does it need?"). A rule for an action
# ("never deploy on Fridays") governs a request for something to be done or advised, or a
# question that shares its words; a question for a fact ("what is the rate limit?", "when is the
# offsite?") it does not: said beside every answer, it was noise.
_CONDITIONAL = re.compile(r"\bwhen(?:ever)?\b[^.!?]*\b(?:asks?|asked|requests?|mentions?|talks?|"
                          r"discuss(?:es)?)\b", re.IGNORECASE)
_REQUEST = re.compile(
    r"\b(?:should|shall|could|would|can|may|recommend|suggest|advise|advice|help|show|write|"
    r"implement|make|create|build|draft|explain|fix|set up|configure|deploy|tips?|best way|"
    r"how to|how (?:do|can|should|would) (?:i|we|you|one|they|someone|anyone))\b|^(?!\W*(?:what|when|where|who|whom|whose|which|why|how|"
    r"is|are|was|were|did|does|do|has|have|had)\b)", re.IGNORECASE)


def governs(rule: Memory, question: str) -> bool:
    """Whether a standing rule is worth saying beside the answer to `question` (see above)."""
    # (who, where, when or which one asks for a fact, "should" or not: "who should I ask about
    # GDPR?" was told "never deploy on Fridays")
    asks_fact = bool(_ASKS_FACT.match(question))
    return bool(_CONDITIONAL.search(rule.content) or not asks_fact and _REQUEST.search(question)
                or set(stem_tokens(rule.content)) & set(stem_tokens(question)) - _ANY_VERB)


_ASKS_FACT = re.compile(r"(?i)^\W*(?:who|whom|whose|where|when|which)\b")


# shared alone, a verb any sentence has says nothing of what the rule is about: "what logging
# library do we use?" and "Never commit .env files; use the vault CLI instead"
_ANY_VERB = frozenset(stem_tokens("use used get got make made do work need want go have take "
                                  "put see say keep give"))
