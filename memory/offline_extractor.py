"""The deterministic offline extractor: rules, not a model, so ingestion runs and is tested without
network. It splits each message into sentences, drops chit-chat and questions, rewrites first person
to the speaker's name (memories must stand alone), classifies, derives topic keys and writes the
search questions each memory answers.

A reply is read with the question it answers: when the message it replies to (its thread's
parent, however many messages came between; TranscriptLine.reply_to), else the previous message,
by someone else, asked something, that question (rewritten from the asker's to a neutral point
of view: "did you sign?" to "did John sign?") becomes a search question of each memory drawn from
the reply, the question's line is cited as a source too, and a short answer ("The Minnesota
Wolves!") is kept, with the question in its content, instead of being dropped as too short to
stand alone. A context line (a parent stored before this batch) gives no memory of its own.
Search questions are only ever real questions (a topic's, or the one that was asked): keyword
templates would drown the memory's own words in its embedding.

A message gives at most MAX_MEMORIES_PER_MESSAGE memories, and a long one (several passages: a
design write-up, a pasted log, an assistant's long answer) at most MAX_MEMORIES_PER_LONG_MESSAGE:
the most durable of its sentences (instructions and decisions, then dated ones, then those with
concrete values, then the rest, earlier first). Code blocks give none. A long message's memories
each compete for a place in recall beside its passages, so more of them let it crowd out short
messages (BEAM dev, chats 1-3, T@10 0.507 with six, 0.542 with three; README: Evaluation). The
rest of it stays searchable as passages of its raw text (memory.passages), so bounding memories
loses no evidence and keeps ingest time proportional to the message's length."""
from __future__ import annotations

import re
from collections.abc import Collection
from datetime import timedelta

from .alerts import (CAUSE_WORDS, DECLARED, GUESSED_CAUSE, INCIDENT_WINDOW, MITIGATION,
                     declares_incident, ends_declared, resolution_said,
                     says_resolved, states_alert)
from .dates import ANNOTATED, SAYS_MOVED, parse_date_text
from .extraction import (DETAIL_PASS_MIN_MESSAGES, Candidate, Extractor, TranscriptLine,
                         merge_candidates)
from .note_lists import grouped_lists
from .passages import is_long
from .standup_forms import standup_text
from .text import ASKED_OF_ANYONE, NOT_AN_END, STOP_WORDS, english_word, stem_tokens
from .topics import chosen_tool_category, normalize_topic_key
from .tried import DID_NOT_WORK, FIX_CONFIRMED, TRIED_WORKED, says_how_tried
from .updates import PR_NUMBER, VERDICT, named_values

# (not before a correction of the words before it: "lost to Tigers 2-2... I mean tied 2-2" was
# two memories, the score taken back one of them)
_SENTENCE_END = re.compile(rf"(?<=[.!?]){NOT_AN_END}\s+(?!I\s+meant?\b)(?=[\"'(\[]?[A-Z0-9@])|\n+"
                           r"|(?<=[。！？])\s*(?=\S)")  # (Chinese and Japanese full stops)
_CHITCHAT = re.compile(
    r"^(hi|hey|hello|yo|thanks|thank you|thx|ty|ok|okay|k|cool|nice|great|awesome|sure|yes|yeah|yep|"
    r"no|nope|lol|haha+|congrats|congratulations|good morning|good night|bye|see you|sounds good|"
    r"got it|will do|np|no problem|wow|omg|same|agreed|\+1|lgtm|"
    # a hedge on the sentence before, nothing of its own: "What if we moved to Cloud Run? Just
    # thinking out loud."
    r"just (?:thinking out loud|a thought|curious|brainstorming|an idea)|food for thought|"
    # an acknowledgement of a correction: "oh right, my bad", "you're right, 15."
    r"(?:oh |ah )?(?:right,? )?my bad|(?:oh |ah )right|you'?re right|good catch|(?:wh)?oops)"
    r"\b[\s!.,:)]*\w{0,12}[\s!.)]*$",
    re.IGNORECASE,
)
_ANNOTATED = ANNOTATED  # a date resolved at ingest (memory.dates)

_TASK = re.compile(
    r"\b(todo|to-do|action item|follow[- ]up|i'll|i will|we need to|need to|needs to|have to|"
    r"has to|don't forget to|remember to|assigned to|can you|could you|please)\b",
    re.IGNORECASE,
)
_INSTRUCTION_START = re.compile(
    r"^(please\s+)?(always|never|don't|do not|use|prefer|avoid|make sure|ensure|stop using|"
    r"switch to|let's use|let's switch to|let's go with|let's stick with|from now on)\b",
    re.IGNORECASE,
)
_INSTRUCTION_ANY = re.compile(
    r"\b(we decided|decided to|decision is|we (?:have |'ve )?agreed|(?:we have|we've) decided|"
    r"the rule is|we should always|we should never|"
    r"we must|we always|we never|going forward|from now on|switch(?:ed|ing)? to|mov(?:e|ed|ing) to|"
    r"migrat(?:e|ed|ing) to|going with|we use|we're using|we are using|standardi[sz]e on)\b",
    re.IGNORECASE,
)
_PAST_EVENT = re.compile(
    r"\b(went|visited|attended|launched|shipped|released|deployed|happened|met|started|finished|"
    r"completed|joined|left|moved|bought|sold|won|lost|got|had|took|made|saw|gave|ran|painted|"
    r"signed up|broke|fixed|merged|rolled back|was born|graduated|married|adopted|celebrated|"
    r"\w+ed)\b",
    re.IGNORECASE,
)
# The owner is a whole word: "there are a few areas" once read as "the" + "re".
_KEY_VALUE = re.compile(
    r"^(?:(?P<owner>the|our|my|your|their|team's)\s+)?(?P<subject>[a-z][\w\s/-]{1,40}?)\s+"
    r"(?:is|are|will be|should be|must be|has been|have been|is now|are now|=)\s+(?P<value>.+)$",
)
# "the staging database is slow for now" says how the thing is, not what it is: keyed, it
# superseded "the staging database is db-stg-2.internal" (answered "slow — changed from
# db-stg-2.internal"). A value that starts with a state word keys the subject's status.
_STATE = re.compile(
    r"^(?:(?:still|really|very|super|so|too|pretty|quite|a bit|kind of|kinda|currently|now|"
    r"totally|completely|mostly|partly|back|not)\s+)*(?:slow|down|up|broken|flaky|failing|"
    r"red|green|degraded|(?:un)?healthy|fine|ok|okay|stuck|blocked|busy|full|empty|offline|"
    r"online|unreachable|(?:un)?available|late|behind|noisy|quiet|laggy|overloaded|(?:un)?stable|"
    r"dead|ready|done|finished|complete|wrong|weird|fixed|gone|great|good|bad|awful|"
    r"fast|faster|slower|better|worse|happy|sad|annoying|painful|expensive|cheap)\b",
    re.IGNORECASE)
_COLON_VALUE = re.compile(r"^(?P<subject>[A-Za-z][\w\s/-]{1,40}?)\s*:\s+(?P<value>\S.+)$")
# (not the phrasal "set up to": "is set up to use HTTPS" once keyed "up")
_SET_TO = re.compile(r"\bset (?!up\b|out\b|off\b|aside\b|back\b)(?:the |our )?"
                     r"(?P<subject>[a-z][\w\s/-]{1,40}?) to\b", re.IGNORECASE)
_FOR_SUBJECT = re.compile(r"\bfor (?:the |our |all )?(?P<subject>[a-z][\w\s/-]{1,30}?)(?:[.,;!]|$)")
_CLAUSES = re.compile(r"\s*[:;]\s+|,\s+(?:and\s+|so\s+)?|\s+(?:that|because|and|but|so)\s+"
                      r"|\s+(?:decided|agreed|confirmed)\s+")  # "we decided the limit is 600"
# "FYI: …", "Quick one: …": how a message opens, not what it is about. Without this a later "FYI:
# we decided the billing service owns invoices" took the key "fyi" and superseded "FYI: we
# decided the rate limit is 600".
_OPENER = re.compile(r"(?i)^(?:fyi|heads[ -]up|quick (?:one|q|question|note)|psa|update|reminder|"
                     r"note|btw|ps|re|question|q|tl;?dr|summary|context|edit|also|ok(?:ay)?|so|"
                     r"hey(?: \w+)?|hi(?: \w+)?|hello(?: \w+)?|all|team|folks|everyone|"
                     r"good news|bad news|decision|update \d+|correction|clarification|"
                     r"announcement|(?:standing |new |house |team )?rules?|policy|guideline|"
                     r"action items?|to-?dos?|follow[- ]?ups?|status(?: update)?|recap|outcome|"
                     r"proposal|warning|important|urgent|nb|til|change of plans?|revised|"
                     r"actually|scratch that|agenda|notes?|changes?|"
                     # a note's fields, which every RFC, ticket and postmortem has: "Owner: ben."
                     # in the billing RFC superseded "Owner: ana." in the session-storage RFC
                     # ("who owns the session storage RFC?" was answered "ben — changed from ana")
                     r"owners?|targets?|target date|etas?|risks?|rfc|background|motivation|"
                     r"goals?|non-goals?|scope|problem|solution|alternatives?|timeline|impact|"
                     r"(?:root )?causes?|fix(?:es)?|mitigation|workaround|blockers?|results?|"
                     r"dependencies|pros|cons|assignees?|reviewers?|deadline|due|priority|"
                     r"severity|sev\d?|incident|postmortem|post-mortem|retro|idea|request|bug|"
                     r"issue|ask|plan|why|what|who|when|where|how|attendees|lessons learned|"
                     r"next steps?|open questions?|details?|description|rationale|tradeoffs?|"
                     r"trade-offs?|cost|estimate|effort|links?|docs?|"
                     # a review's: "Verdict: request changes." of PR #2290's review would be
                     # replaced by the next review's
                     r"verdict|issues|findings|concerns|suggestions|nits?|"
                     # a release post's link: each release's "Full Changelog: …" replaced the one
                     # before, and "what changed in v2.3.0?" was led by v2.3.1's
                     r"(?:full )?change ?log|release notes|what's changed|"
                     # what a reply is on: "on the design: websocket messages should count"
                     # (keyed "on design", the next reply on it would replace it)
                     r"(?:on|re|about|regarding|for|as for|wrt)\s+.+)$")
# Who said what, before its colon, is no subject: "reviewbot says: PR #77 review: …" keyed
# "reviewbot say", and the bot's next review of another PR superseded it
_REPORTED = re.compile(r"(?i)\b(?:says?|said|asks?|asked|writes?|wrote|reports?|reported|"
                       r"posted|replied|mentioned|notes?|noted|confirms?|confirmed)$")
# The value after "subject:" reads as a sentence of its own: not a key's value.
_SENTENCE_VALUE = re.compile(r"(?i)^(?:we|i|i'm|i've|you|they|he|she|it|there|this|that|let's|"
                             r"please|can|could|should|would|will|just|so)\b")
# Concrete values the detail pass looks for: prices, quantities with a unit, versions, ticket ids.
_CONCRETE = re.compile(
    r"[$€£]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:%|ms|s|sec|secs|seconds|minutes|mins|hours|hrs|days|weeks|"
    r"months|kb|mb|gb|tb|k|m|usd|eur|gbp|dollars|euros|bucks|requests|req|rps|qps|users|nodes|"
    r"pods|replicas|cores|cpus|instances|items|units|tickets|points|people|km|miles|kg|lbs)\b"
    r"|\bv\d+(?:\.\d+)+\b|\b\d+\.\d+\.\d+\b|\b[A-Z][A-Z0-9]+-\d+\b|#\d+\b",
    re.IGNORECASE)
_SECRET_HINT = re.compile(r"\b(password|passwd|api[_ -]?key|secret|token)\b\s*(is|:|=)", re.IGNORECASE)
# what a secret is said to be that is no secret: the marker redaction left, or where it is kept
# or what became of it ("twilio auth token is in 1password", "… is [REDACTED:credential]": with
# neither kept, "what's the twilio token?" was answered with the npm token's sentence); a marker
# may end a clause ("… password is [REDACTED:password] and the link is figma.com/…" was dropped)
# (or a word of chat after it: "the redis password is [REDACTED:password] btw, rotate it later")
_NO_SECRET_SAID = re.compile(r"\s*(?:\[REDACTED:[a-z0-9-]+\](?:\W*$|\s*[,;]|\s+(?:and|but|so|"
                             r"btw|fyi|though|tho|for\s+now|until|till)\b)|"
                             r"(?:in|on|at|under|inside|"
                             r"stored|kept|saved|pinned|shared|rotated|revoked|expired|expiring|"
                             r"invalid|wrong|missing|broken|the\s+same|now\s+in)\b)",
                             re.IGNORECASE)


def _hints_secret(text: str) -> bool:
    """A sentence that may say a secret redaction did not recognise ("the wifi password is
    hunter2"): never kept."""
    return any(not _NO_SECRET_SAID.match(text, hint.end())
               for hint in _SECRET_HINT.finditer(text))

_FIRST_PERSON = [
    (re.compile(r"\bI'm\b"), "{a} is"), (re.compile(r"\bI am\b"), "{a} is"),
    (re.compile(r"\bI've\b"), "{a} has"), (re.compile(r"\bI'd\b"), "{a} would"),
    (re.compile(r"\bI'll\b"), "{a} will"),
    # the verb agrees with the name: "I think it's Tom" -> "priya thinks it's Tom"
    (re.compile(r"\bI have\b"), "{a} has"), (re.compile(r"\bI do\b"), "{a} does"),
    *[(re.compile(rf"\bI {verb}\b"), f"{{a}} {verb}s") for verb in (
        "think", "want", "need", "like", "know", "feel", "hope", "love", "hate", "prefer",
        "believe", "guess", "mean", "remember", "agree", "wonder", "plan", "work", "live", "use",
        "own", "see", "say", "suggest", "expect", "get", "run", "take",
        # ("Always confirm time zones when I ask about …" was "… when Jordan ask about …")
        "ask", "check", "start", "send", "write", "call", "book",
        # ("I land on the 23rd at 4pm" was "bro land on the 23rd")
        "land", "arrive", "leave", "return", "travel", "drive")],
    # (not a Roman numeral after what it numbers: "we're only SOC 2 Type I" was "Type mk_bo")
    (re.compile(r"(?P<numbered>\b(?:[Tt]ype|[Tt]ier|[Pp]hase|[Ss]tage|[Ll]evel|[Cc]lass|[Pp]art|"
                r"Act|Book|Chapter|Volume|Season|Series|War|Gen|Mark|Mk|Schedule|Title|Henry|"
                r"Louis|Elizabeth|Charles|George|James|Edward|William) )?\bI\b"),
     lambda m, name: m.group(0) if m["numbered"] else name),
    (re.compile(r"\b[Mm]y\b"), "{a}'s"), (re.compile(r"\b[Mm]ine\b"), "{a}'s"),
    (re.compile(r"\b[Mm]yself\b"), "{a}"), (re.compile(r"\bme\b"), "{a}"),
    # chat's lowercase "i" ("i dont like grub": 25,642 of the 196,125 Ubuntu IRC lines hold an
    # "i", "i'm", "i've", "i'll" or "i'd"), only contracted or as a subject before a verb, so
    # pasted code ("for i in range(3)", "x[i] = i + 1") stays as it is
    (re.compile(r"\bi'm\b|\bim(?= (?:going|gonna|not|trying|using|on|at|in|looking|sure)\b)"),
     "{a} is"), (re.compile(r"\bi've\b|\bive(?= (?:got|been|tried|seen|had)\b)"), "{a} has"),
    (re.compile(r"\bi'll\b"), "{a} will"), (re.compile(r"\bi'd\b"), "{a} would"),
    (re.compile(r"\bi(?= (?:am|was|will|would|have|had|do|did|dont|don't|didnt|didn't|can|cant|"
                r"can't|could|should|think|thought|need|needed|want|wanted|use|used|like|just|"
                r"also|tried|try|got|get|see|saw|know|knew|guess|installed|fixed|found|made|"
                r"moved|upgraded|run|ran|still|never|always|really)\b)"), "{a}"),
]
_STOP = {"the", "a", "an", "and", "or", "but", "to", "of", "in", "on", "at", "for", "with", "is",
         "are", "was", "were", "be", "been", "it", "this", "that", "so", "just", "really", "very",
         "i", "you", "we", "they", "he", "she", "my", "your", "our", "me", "us", "them", "do", "did",
         "have", "has", "had", "will", "would", "can", "could", "should", "not", "too", "also"}
_MIN_WORDS = 4
# Chinese and Japanese are written without spaces, Korean with a space between phrases of several
# words: counted so, "数据库迁移定在12月1日，请大家提前备份。" is a sentence to keep (it was one word,
# too short: a team writing Chinese, Japanese or Korean got no memory at all)
_CJK_TEXT = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_HANGUL = re.compile(r"[\uac00-\ud7af]")


def word_count(text: str) -> int:
    """Words, as a sentence's length is judged: a space-parted token each; in Chinese and
    Japanese a word every one and a half characters ("预算是五万元" four, "ありがとう" three); a
    Korean phrase (a space-parted token) two."""
    tokens = text.split()
    if text.isascii():
        return len(tokens)
    cjk = sum(len(run) for run in _CJK_TEXT.findall(text))
    plain = [t for t in tokens if not _CJK_TEXT.search(t)]
    return len(plain) + sum(1 for t in plain if _HANGUL.search(t)) + cjk * 2 // 3
# A sentence that leans on the one a message starts with: a label and its value ("Owner:
# tomas.", "Target: end of Q1."), a numbered point ("(2) The Redis key has no TTL …").
_FRAGMENT = re.compile(r"^\W{0,3}(?:\(?\d{1,2}[.)]\s|[A-Za-z][\w /-]{0,30}:\s)")
# A note's field with a short value: who or when it is of ("Owner: ana.", "ETA: Friday"),
# which says nothing without the note's first sentence
_FIELD = re.compile(r"(?i)^\W{0,3}(?:owners?|dri|lead|pm|assignees?|reviewers?|targets?|"
                    r"target date|etas?|due|deadline|priority|severity|sev|verdict)\s*:\s*"
                    r"\S+(?:\s+\S+){0,5}\s*$")
_TITLE_CHARS = 160
# A short sentence without a subject after a statement in the same message says more of it:
# "Need a decision by Dec 15.", "Due Friday.", "Waiting on legal."
_SUBJECTLESS = re.compile(r"(?i)^\W*(?:need|needs|have to|has to|must|should|due|expected|"
                          r"waiting|blocked|pending|planned|scheduled)\b")
_SUBJECTLESS_WORDS = 8
# A short report of what was done about the statement before it in the same message: "… the
# pool limit (20) was too low under peak. Raised to 80.", "Offline tomorrow morning. Back by
# 1pm." Alone it is too short to keep, and without it the memory states the old value.
_SHORT_UPDATE = re.compile(r"(?i)^\W*(?:(?:and|so|then)\s+)?(?:raised|lowered|increased|"
                           r"decreased|bumped|upped|reduced|cut|capped|set|changed|moved|"
                           r"reverted|rolled back|rolling back|reverting|extended|doubled|halved|"
                           r"pushed|fixed|approved|signed off|rejected|denied|confirmed|"
                           r"back|returning)\b")
_SHORT_UPDATE_WORDS = 6
# a short note of what the one just named did: "He accepted!", "She signed.", "They declined."
# (or what the speaker did with what they named: "Datadog came back at $131k. I said no" kept
# the offer alone, and "what did we end up paying for Datadog?" led with it)
_PRONOUN_DID = re.compile(r"(?i)^\W*(?:he|she|they|i|we)\s+(?:(?:just|finally|also)\s+)?"
                          r"(?:accepted|"
                          r"declined|signed|agreed|refused|withdrew|quit|resigned|said\s+yes|"
                          r"said\s+no|approved|rejected|confirmed|churned|renewed|upgraded|"
                          r"downgraded|cancell?ed|passed|failed)\b[^.?]{0,30}[.!]*$")
# The figures of a short done-note before them, with no subject of their own: "Backfill done.
# 1.2B rows, took 3 days." (alone, "how many rows did the backfill have?" found the note, not
# the rows; "Acme signed! 3-year deal, $120k ARR, kicks off Jan 5." lost whose deal it was)
_SO_FAR = re.compile(r"(?i)\b(?:so\s+far|to\s+date|in\s+total|and\s+counting|already)\W*$")
_FIGURES = re.compile(r"^\W*~?\d[\d.,]*(?:-[a-z]+|\s?[a-zA-Z%$]{0,3})\s+[a-z]")
# A short note of when, with its noun and no more: "Postmortem owner: lena. Draft due Friday."
# Alone it was dropped (three words), so "when is the postmortem draft due?" had no date.
_NOUN_DUE = re.compile(r"(?i)^\W*(?:the\s+)?[a-z][\w-]*\s+(?:is\s+)?(?:due|expected|planned|"
                       r"scheduled)\b")
# A thread reply that adds to what it replies to: "Affected customers: Acme, Globex and
# Initech." "Umbrella Corp also reported failed checkouts in that window." The reply names
# none of the parent's words, so the parent's text is what it is found by ("which customers
# were affected?").
_ADDS_TO_PARENT = re.compile(r"(?i)\b(?:also|too|as well|in addition)\b")
# A reply that points back at its thread ("👍 shipping that tomorrow", "I'll fix it tonight") and
# names none of its words: the thread's text is what it is found by, as an addition's is ("when
# does the rate limit change ship?" had nothing to find it with).
# A short first line that heads the lines after it: "Build failed:", "Errors:" (a pasted log or
# stack trace under it named no build).
_HEADING = re.compile(r"^\W*(?!here\b)(?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*:\s*$", re.I)
_REFERS_BACK = re.compile(r"(?i)\b(?:that|it|this|those|these|them|they|their)\b")
_PARENT_QUESTION_CHARS = 300
# A quoted line ("> we should enable the flag for everyone", as Slack, Discord and Markdown write a
# quote) is someone else's words that the reply answers, often to disagree ("No, we agreed to keep
# it at 10%"): it was a memory of its own, stated as the reply's author's. It is what the reply's
# memories are found by instead, as a parent message is. (">=" starts no quote.)
# A reply that corrects the message it answers ("FYI the max upload size is 25 MB." → "actually
# it's 50 MB since the 4.1 release"; "Support hours are 9-17 CET." → "wrong, 8-18 since
# November"): alone it did not say what it corrects, so the old value answered and the reply was
# found by nothing. It becomes one memory that says it is a correction, with what it corrects
# (memory.updates then leads with it). Only with a value the parent lacks: "actually that's a
# great idea" corrects nothing.
_CORRECTS = re.compile(r"(?i)^\W*(?:actually\b|wrong\b|nope\b|no[,.!]\s|not quite\b|"
                       r"not anymore\b|not true\b|incorrect\b|outdated\b|"
                       r"that['’]s (?:wrong|outdated|old|not right)\b|"
                       r"(?:i think|pretty sure|afaik|iirc),? (?:it['’]s|it is|its|that['’]s|"
                       r"we['’]re|we are|they['’]re|it was|"
                       r"we (?:moved|changed|upgraded|switched|bumped))\b|"
                       # "it's db-staging-3.internal now", "they're on 8-18 since November"
                       r"(?:it['’]s|it is|its|they['’]re|they are|we['’]re|we are)\s"
                       r"(?:[^.?!]|\.(?=\S)){1,60}?\b(?:now|since|these days|nowadays)\b)")
_CORRECTION_CHARS = 300  # a longer reply says more than a correction: read sentence by sentence
# A reply that settles what its thread discusses ("Should we use Kafka or SQS for the event
# bus?" → "OK let's go with SQS for now, revisit in Q2."; "Rate limit discussion: we're at
# 300/min …" → "Agreed, bump to 500/min for paid plans, keep free at 300."): alone it named
# neither the event bus nor the rate limit, so "what did we decide about the event bus?" was
# answered with the debate. It becomes one memory that says it is the decision, with the
# thread's opening sentence (as a correction carries what it corrects).
_DECIDES = re.compile(r"(?i)^\W*(?:(?:ok(?:ay)?|alright|right|cool|great|fine|so|then|yes|yep|"
                      r"sounds good|makes sense)\b[,.!]*\s*)*(?:"
                      r"let['’]s (?:go with|do|use|stick with|keep|ship|take|pick|choose|move)\b|"
                      r"we['’]ll (?:go with|do|use|stick with|keep|ship|take|pick)\b|"
                      r"(?:we(?:['’]re| are) )?going with\b|agreed\b|decided\b|decision\b|"
                      r"(?:we )?settled on\b|final(?: call| answer| decision)?:|consensus\b)")


def corrects(reply: str, parent: str) -> bool:
    """Whether `reply` corrects the statement `parent` (both as annotated at ingest): a
    correction's opening words, a value the parent does not have, and one the parent has
    ("actually I'll also need the migration at 4pm" after "Deploy is at 5pm." adds to it: also,
    too). A date is a value: "no, it's Thursday" after "The retro is on Wednesday at 3pm." (a
    weekday is an English word, no name)."""
    said, corrected = _ANNOTATED.sub("", reply).strip(), _ANNOTATED.sub("", parent)
    dates = {m.group(1) for m in _ANNOTATED.finditer(reply)}
    parent_dates = {m.group(1) for m in _ANNOTATED.finditer(parent)}
    stated = named_values(corrected)
    # a value of the kind the parent states: "no, that is the old one" after "The staging DB
    # host is db-staging-2.internal." names none (a number's place holds no word)
    kinds = {_value_kind(v) for v in stated}
    return bool(len(said) <= _CORRECTION_CHARS and _CORRECTS.match(said)
                and not _ADDS_TO_PARENT.search(said)
                and (stated or parent_dates)
                and ({_value_kind(v) for v in named_values(said) - stated} & kinds
                     or dates - parent_dates))


def _corrected_own(line: TranscriptLine, own: list[TranscriptLine]) -> TranscriptLine | None:
    """Which of a person's own earlier messages their correction is of: the latest, unless it
    shares no word with the correction and an earlier one in the window does (jay's "actually the
    lift tech moved to Monday" was made a correction of his "F-150 done, test drove it, ready for
    pickup", said between, and "is the F-150 ready?" was answered with the lift tech)."""
    if not own:
        return None
    said = set(stem_tokens(_ANNOTATED.sub("", line.content))) - _CORRECTION_STEMS
    if not said or said & set(stem_tokens(_ANNOTATED.sub("", own[-1].content))):
        return own[-1]
    return next((o for o in reversed(own[:-1]) if line.ts - o.ts <= _SELF_CORRECTION
                 and said & set(stem_tokens(_ANNOTATED.sub("", o.content)))), own[-1])


def _value_kind(value: str) -> bool:
    return any(c.isdigit() for c in value)


def _points_back(sentence: str, parent: str) -> bool:
    # (the pronoun and words like it are no word shared: "Their contract renews …" under
    # "Globex renewal: … @carla is their AM" names none of the thread's words)
    words = {w for w in re.findall(r"[a-z]{4,}", sentence.lower())} - STOP_WORDS
    return bool(_REFERS_BACK.search(sentence)) and not words & set(
        re.findall(r"[a-z]{4,}", _ANNOTATED.sub("", parent).lower()))


# A later sentence of a short message that leans on its first: "Acme churned. They're moving to
# a competitor at the end of the month", "Update: Initech accepted 12%. Contract goes out
# Monday.", "Ticket ZD-4411 from Umbrella: export times out. Eng says fix lands in 4.3." It
# names none of the first one's words, so "why did Acme churn?" and "when does the Initech
# contract go out?" had nothing to find it by: the first sentence is its search question.
_LEANS_SENTENCES = 4
_LEANS = re.compile(r"(?i)\b(?:they|they['’](?:re|ve|ll|d)|their|them|it|it['’]s|its)\b"
                    # or a bare noun of the deal or the work, whose it is left to the first
                    # sentence: "Contract goes out Monday.", "Eng says fix lands in 4.3."
                    r"|^\W*(?:contract|deal|fix|patch|release|launch|rollout|migration|renewal|"
                    r"invoice|payment|kickoff|demo|call|meeting|review|eng|engineering|legal|"
                    r"finance|support|security|ops|procurement|"
                    # or of what the first one opens, its figures and dates: "Opening a req
                    # for a senior backend engineer, REQ-114. Budget is up to $185k base."
                    r"budget|timeline|deadline|scope|cost|price|pricing|headcount|salary|comp|"
                    r"eta|target|start date|end date|owner|dri)\b")


# "I get ImportError: …", "we keep getting 502s from the gateway": someone's problem, which the
# next message from someone else may answer
_REPORTS_PROBLEM = re.compile(
    r"(?:\b(?:I|we)\s+(?:get|got|keep getting|am getting|'m getting|['’]m getting|see|am seeing|"
    r"['’]m seeing|hit|ran into)|"
    # (said without who: "getting `ModuleNotFoundError: …` when I run the cli")
    r"^\W*(?:(?:keep\s+)?getting|seeing|hitting|still\s+getting))\b"
    r".*(?:\b[A-Z]\w*(?:Error|Exception)\b|\berror\b|\b[45]\d\ds?\b|\btraceback\b)")
_HIS = re.compile(r"(?i)\b(?:his|her|him|hers)\b")
# a reply that says or guesses a cause is about its thread's problem, which it seldom names:
# "looks like the new connection pool size (20 → 5) …" under "🚨 payments-api error rate at 12%"
_SAYS_OR_GUESSES_CAUSE = re.compile(r"(?i)" + GUESSED_CAUSE + "|" + CAUSE_WORDS)


def _leans_on(sentence: str, first: str, people: Collection[str]) -> bool:
    """Whether `sentence` has a pronoun for the thing the message's `first` sentence names
    ("Acme churned.", "Globex renewal: …" before "@carla is their AM"): a customer, a product, a ticket (a capitalised word no dictionary holds and no one
    who speaks here; in personal chat "It was great" after "Thanks, Joanna." leant on nothing
    a question asks by, and LoCoMo dev's adversarial questions were answered from it)."""
    if _CHITCHAT.match(first):
        return False
    if _HIS.search(sentence):
        # "Tom is out on paternity leave from Dec 1. Priya takes over his on-call shifts.":
        # whose shifts is the first sentence's subject, someone who does not speak here
        subject = re.match(r"\W*([A-Z][a-z]{2,})\s+(?:is|was|has|had|will|['’]s)\b", first)
        if subject and subject[1].lower() not in people and not english_word(subject[1]) \
                and subject[1].lower() not in STOP_WORDS:
            return True
    if not _LEANS.search(sentence):
        return False
    return bool(_DONE_NOTE.match(first)) or any(w.lower() not in people and (
        len(w) >= 4 and not english_word(w.lower()) or re.fullmatch(r"[A-Z]+-\d+", w))
        for w in re.findall(r"\b[A-Z][A-Za-z0-9]+(?:-[A-Za-z0-9]+)*", first))


# A short sentence that says how the one before it turned out, by a pronoun for it: "Deployed
# 4.2 to prod. It broke checkout.", "Tried restarting the pods. It didn't help.", "… notice,
# which is Dec 2. We missed it." Alone it was too short to keep, and the memory said the deed
# without its outcome (a fix that did not help, read as the fix).
_OUTCOME = re.compile(r"(?i)^\W*(?:(?:it|that|this)\s+(?:(?:did|does|was|is)n['’]?t\b|did\s+not\b|"
                      r"was\s+not\b|(?:broke|fixed|worked|failed|helped|solved|caused|crashed|"
                      r"backfired|timed\s+out|made\s+it\s+worse)\b)|"
                      r"(?:we|i|they)\s+(?:missed|broke|forgot|reverted|undid|rolled\s+back)\s+"
                      r"(?:it|that|this)\b)")
_OUTCOME_WORDS = 10


def _with_outcomes(sentences: list[str]) -> list[str]:
    """The sentences, each short outcome joined to the sentence before it."""
    out: list[str] = []
    for sentence in sentences:
        if out and _OUTCOME.match(_ANNOTATED.sub("", sentence)) \
                and len(sentence.split()) <= _OUTCOME_WORDS:
            out[-1] = f"{out[-1].rstrip()} {sentence.strip()}"
        else:
            out.append(sentence)
    return out


def decides(reply: str) -> bool:
    """Whether a thread reply settles its thread: a short reply opening with a decision's words
    ("OK let's go with SQS for now", "Agreed, bump to 500/min for paid plans"), not agreeing
    with an opinion ("agreed, this is a mess")."""
    said = _ANNOTATED.sub("", reply).strip()
    return len(said) <= _CORRECTION_CHARS and bool(_DECIDES.match(said)) \
        and not _AGREES_WITH_OPINION.match(said)


# "agreed, this is a mess", "Agreed — that was painful", "agreed, it's way too slow": how it
# is, not what was decided
_AGREES_WITH_OPINION = re.compile(
    r"(?i)^\W*(?:(?:ok(?:ay)?|yes|yep|yeah|totally|100%|fully|strongly)\b[,.!\s]*)*agreed\b"
    r"[\s,.!:;\u2013\u2014-]*(?:(?:this|that|it|they|these|those)(?:['’]s|['’]re|\s+(?:is|was|are|"
    r"were|has been|have been|looks?|seems?|feels?))|(?:so|very|super|way too|too)\s)")


_STATES_CAUSE = re.compile(rf"(?i){CAUSE_WORDS}")
# what was done about an incident, said while it was open
_MITIGATES = re.compile(rf"(?i)\b(?:{MITIGATION})\b")
def resolves_incident(reply: str, parent: str) -> bool:
    """Whether a thread reply ends the incident its parent declared: "Resolved. Error rate back
    to baseline." under "Declaring SEV2: checkout is returning 502s". Alone "Resolved." was
    dropped as too short, so nothing said when (or that) the incident ended."""
    said = _ANNOTATED.sub("", reply).strip()
    # (or closes with it: "Cert renewed, error rate back to 0.1%. Resolved.")
    return len(said) <= _CORRECTION_CHARS and says_resolved(said) \
        and bool(DECLARED.search(_ANNOTATED.sub("", parent)))


_QUOTE_LINE = re.compile(r"^[ \t]*>(?!=)>*[ \t]?(.*)$", re.MULTILINE)
# (Discord's ">>> " quotes the rest of the message, but a pasted Python session's ">>> " lines are
# as common in a team's chat, and the explanation after them is the writer's own: read line by
# line, as a quote.)


_NUMBERED_POINT = re.compile(r"(?m)^[ \t]*(?:[-*][ \t]+)?(\d{1,2})[.)][ \t]+(\S.*)$")
_POINT_STATUS = re.compile(r"(?i)\b(?:fix(?:ed|es)?|address(?:ed)?|resolv(?:ed|es)|done|handled|"
                           r"pushed|follow[- ]?ups?|won['’]?t|wontfix|later|skip\w*|ignor\w*|"
                           r"reverted|removed|added|changed|updated|live|blocked|shipped|sent|"
                           r"merged|published|approved|signed\s+off|complete[d]?|finished|ready|"
                           r"waiting|pending)\b")
# a checklist's or a list's item: "- [ ] docs updated", "* [x] pricing page live", "- status page"
_LIST_ITEM = re.compile(r"(?m)^[ \t]*(?:[-*•][ \t]+)?\[[ xX]?\][ \t]*(\S.*?)[ \t]*$|"
                        r"^[ \t]*[-*•][ \t]+(\S.*?)[ \t]*$")
_STATUS_WORDS = frozenset({"done", "live", "blocked", "shipped", "sent", "merged", "published",
                           "approved", "signed", "off", "complete", "completed", "finished",
                           "ready", "waiting", "pending", "fixed", "till", "until", "now"})
_POINT_NAMED = re.compile(r"(?<![\w#.$/-])(\d{1,2})(?![\w.%:/-])")


def _points_named(reply: str, parent: str) -> str:
    """The parent's numbered points that a reply says how they stand by number ("fixed 1 with
    a lock, 3 is a follow-up"), joined; "" when it names none."""
    if not _POINT_STATUS.search(reply):
        return ""
    points = {int(n): text.strip() for n, text in _NUMBERED_POINT.findall(parent)}
    if len(points) >= 2:
        named = [points[n] for n in dict.fromkeys(int(x) for x in _POINT_NAMED.findall(reply))
                 if n in points]
        return "; ".join(named)
    # a checklist's items by their words: "docs done" of "- [ ] docs updated", "ToS review
    # blocked till Monday" of "- [ ] legal review of ToS changes"
    items = [a or b for a, b in _LIST_ITEM.findall(parent)]
    if len(items) < 2:
        return ""
    said = set(keywords(reply, limit=12)) - _STATUS_WORDS
    named = [item for item in items if said & set(keywords(item, limit=12))]
    return "; ".join(named) if 0 < len(named) <= 2 else ""


def without_quotes(text: str) -> tuple[str, str]:
    """The message without its quoted lines, and those lines' text."""
    if ">" not in text:
        return text, ""
    quoted = " ".join(m.group(1).strip() for m in _QUOTE_LINE.finditer(text)).strip()
    return _QUOTE_LINE.sub("", text), quoted
# A short imperative after a statement in the same message: "Use `Decimal`.", "Remove it."
_SHORT_ADVICE = re.compile(r"(?i)^\W*(?:please\s+)?(?:use|prefer|avoid|remove|drop|add|switch to|"
                           r"rename|revert|pin|bump|don't|do not|never|always)\b\S*(?:\s+\S+){0,2}"
                           r"\s*[.!]?$")
# Work asked of anyone, as a question: "Can someone check before EOD?", "Who can take the
# on-call swap?". A question is no memory, but this one is open work: it is kept as a task,
# joined to the statement before it in its message when it is short ("check" what?).
_REQUEST = re.compile(r"(?i)^\W*(?:@[\w.-]+[\s,:]+)*(?:(?:so|ok(?:ay)?|also),?\s+)?"
                      rf"(?:{ASKED_OF_ANYONE})")
_REQUEST_ALONE_WORDS = 6  # shorter, it needs the statement before it
# a short note with a thing's word first, no pronoun or name of its own ("RSVP by Dec 10.",
# "Plus-ones welcome."), and no question
_JOINS = re.compile(r"^\W*(?!(?:i|you|he|she|it|we|they|this|that|me|my|your|our|their|yes|no|"
                    r"ok|okay|lol|wow|omg|thanks|thank|sure|nice|cool|great|same|yeah|yep|nope|"
                    r"haha|hah|aw|aww|oh|ah|hmm|love|miss)\b)[A-Za-z][\w+-]*[^?]*$", re.I)
# A short note of when something is ("Postmortem on Friday.", "Launch moved to the 3rd."): kept
# though under _MIN_WORDS when a date in it was resolved; not a goodbye ("See you on Monday").
_DATED_NOTE = re.compile(r"(?i)^\W*(?!(?:see|talk|speak|chat|catch|bye|it|that|this|you|i|we|they|"
                         r"he|she)\b)[a-z][\w-]*(?:\s+[\w-]+)?\s+(?:on|by|at|until|from|is|was|"
                         r"moved to|moves to)\s+\S")
# A short setting: a named thing put to a figure ("new_checkout to 25%", "pool_size at 40",
# "timeout to 30s"): under _MIN_WORDS, and a rollout's step was lost ("when did new_checkout go to
# 25%?" was answered with the 50% after it). A plain word needs its unit ("back to 2" is none).
_SHORT_SETTING = re.compile(r"(?i)^\W*(?:[a-z][\w-]*[_.\d][\w.-]*\s+(?:to|at|=|->|→)\s+\d[\d.,]*\s*"
                     r"(?:%|percent|ms|s|m|h|k|x|gb|mb)?|(?!(?:back|up|down|it|that|this|go|went|"
                     r"me|us|them|lol|ok)\b)[a-z][\w-]{2,}\s+(?:to|at)\s+\d[\d.,]*\s*"
                     r"(?:%|percent|ms|s|gb|mb))\W*$")
# A short word of being away: "out sick today", "OOO tomorrow", "wfh today" (a standup's "out
# sick today" was lost, and "who was out on Thursday?" answered with the others' items)
_AWAY_NOTE = re.compile(r"(?i)^\W*(?:(?:i['’]?m|i\s+am|im)\s+)?(?:out(?:\s+sick)?|ooo|off|away|"
                        r"sick|wfh|home\s+sick|on\s+(?:pto|leave|vacation|holiday))\b"
                        r"(?:\s+[\w'’-]+){0,3}\W*$")
# A short report that a named thing is done ("Globex fixed too.", "INC-231 resolved.", "Billing
# export shipped!"): under _MIN_WORDS, but who did what to which is in it. Case-sensitive: the
# thing is capitalised or an id ("it's fixed" and "all done" say nothing on their own).
_DONE_NOTE = re.compile(r"^\W*(?!(?:It|That|This|All|Everything|Nothing|Mine|Yours)\b)"
                        # (a release by its number: "4.12.1 approved!" was lost, and "when was
                        # 4.12.1 approved?" answered with its crash rate)
                        r"(?:[A-Z][\w.-]*|[a-z]+-\d+|#\d+|v\d[\w.]*|\d+(?:\.\d+)+)"
                        r"(?:\s+[#\w.-]+)?\s+(?:is\s+)?"
                        r"(?:fixed|resolved|deployed|merged|shipped|released|restored|migrated|"
                        r"rolled back|reverted|done|live|churned|signed|renewed|cancell?ed|"
                        r"upgraded|downgraded|launched|paid|patched|remediated|unblocked|"
                        # ("PO-5521 signed off." was lost, and "is the Datadog PO signed off?"
                        # answered with the invoice's address beside it)
                        r"completed|finished|approved|signed\s+off|countersigned|closed)\b"
                        r"(?:\s+(?:too|as well|now|again))?\W*$"
                        # (a ticket's or proposal's verdict: "RFC-31 accepted." was lost, and
                        # "was RFC-31 accepted?" answered with a +1; not a person's, "Priya
                        # accepted! Start date is January 11" is one memory)
                        r"|^\W*(?:[A-Za-z]+-\d+|#\d+|v?\d+(?:\.\d+)+)\s+(?:is\s+|was\s+)?"
                        r"(?:accepted|rejected|adopted|withdrawn)\b\W*$"
                        # (its verb first, of a PR, ticket or release: "merged #2231" was lost,
                        # and "was #2231 merged?" answered with its bump alone)
                        r"|(?i:^\W*(?:merged|deployed|shipped|released|reverted|closed|"
                        r"approved|landed|rolled\s+back|closing|merging|reverting)\s+"
                        r"(?:pr\s*)?(?:#\d+|[a-z]+-\d+|v?\d+(?:\.\d+)+)"
                        r"(?:\s+(?:too|as well|now|again|today|to\s+\w+))?\W*$)"
                        # who took a ticket: "Looking at ESC-311." (lost; "who is on ESC-311?")
                        r"|(?i:^\W*(?:looking\s+(?:at|into)|investigating|picking\s+up|"
                        r"taking|working\s+on)\s+(?:pr\s*)?(?:#\d+|[a-z]+-\d+)(?:\s+now)?\W*$)")
_IT_MEASURES = re.compile(r"(?i)^\W*(?:it|they|this|that)\b(?=[^.!?]*\d)")
# A short measure of something ("It grows 10GB/day.", "CPU at 95%", "p99 is 210ms"): under
# _MIN_WORDS, and "how fast is audit_log growing?" had nothing ("Should we move audit_log to cold
# storage? It grows 10GB/day." kept no sentence)
_SHORT_MEASURE = re.compile(r"(?i)^\W*(?!(?:lol|thanks|thx|ty|haha|me|same|wow|omg|ok|okay|yes|no|"
                            r"nah|like|maybe|about|around|only|just)\b)(?:[\w.-]+\s+){1,2}"
                            r"(?:[\w.-]+\s+)?~?\d[\d.,]*\s*(?:%|ms|s|sec|secs|min|mins|h|hrs?|"
                            r"hours?|days?|[kmgt]i?b|rps|qps|rpm)"
                            r"(?:\s*/\s*(?:s|sec|min|h|hr|hour|day|week|month))?\W*$")
# A short report of what was done to a named thing ("excluded audit_log, rerunning", "restarted
# redis-3"): the thing's name holds a mark or a digit, so the deed is of it ("who fixed the
# backup?" had only the cause and the result); a message of its own ("… polyfill missing. Filed
# DOCS-88." stays one memory)
_DID_NOTE = re.compile(r"(?i)^\W*(?:re-?)?[a-z]{3,}ed\s+[a-z][\w.-]*[_\d.-][\w.-]*\b"
                       r"(?:[,;]?\s+[\w-]+)?\W*$")
# A short word of a thing's state ("Phones back up.", "VPN down again", "staging green"): under
# _MIN_WORDS, and "are the phones working?" was answered "Phones down since 9:15", the newer
# "Phones back up." lost. Not a figure of speech ("Heads up", "thumbs up", "need to back up").
_NOT_A_THING = (r"(?!(?:heads|thumbs|what['’]?s|shut|sign(?:ed)?|follow|catch|set|back|me|us|you|"
                r"it|that|this|all|everything|nothing|we|i|so|ok|okay|lol|haha|yeah|cheers|"
                r"bottoms|hang|hold|speak|step|wrap(?:ped)?|listen|look(?:s|ing)?|seems?|"
                r"feels?|level|go|goes|going|come|comes|coming|get|got|went|came|turn|calm|"
                r"slow|scale|sit|stand|log|write|give|call|pick|settle|cool|grow|never|"
                r"always|keep|don['’]?t|please|let['’]?s)\b)")
# A short word of a choice made: "Going with Intercom.", "Sticking with Postgres", "Picked
# Vercel." (under _MIN_WORDS, "Going with Intercom. Migration starts in January." kept the
# migration's day alone, and "are we switching to Intercom?" was answered with the evaluation).
# Case-sensitive: the choice is a name ("going with it" chooses nothing of its own).
_CHOICE_NOTE = re.compile(r"^\W*(?i:(?:(?:we['’]re|we\s+are|i['’]m)\s+)?(?:going|sticking|"
                          r"staying)\s+with|(?:we\s+)?(?:picked|chose|went\s+with|settled\s+on|"
                          r"decided\s+on))\s+(?!(?:it|that|this|them|one)\b)[A-Z0-9][\w.+-]*"
                          r"(?:\s+[A-Z0-9][\w.+-]*)?\W*$")
_SHORT_ANSWER_WORDS = 12
# A secret named by what it is, its value redacted: "openai key [REDACTED:openai-key]" (under
# _MIN_WORDS it made no memory, and "what's the openai key?" was answered with the Stripe key's
# sentence); what is kept is that it was shared, never the value.
# (or as a shell sets it: 'export OPENAI_API_KEY="[REDACTED:openai-key]"')
_SECRET_SHARED = re.compile(r"(?i)^\W*(?:(?:[\w.'’-]+\s+){1,3}?|(?:export\s+|set\s+)?[\w.-]+_)"
                            r"(?:key|token|password|passwd|secret|pat|pin|credentials?)"
                            r"\s*[:=]?\s*[\"'`]?\[REDACTED:[a-z0-9-]+\]\W*$")
_STATE_NOTE = re.compile(r"^\W*(?i:" + _NOT_A_THING + r"[a-z][\w.-]*(?:\s+(?!to\b|will\b|"
                         r"can\b|should\b|must\b)[\w.-]+)?\s+(?:is\s+|are\s+)?"
                         r"(?:back\s+(?:up|online|to\s+normal)|(?:up|down|back)\s+again|online|"
                         r"offline|working(?:\s+again)?|broken|green|healthy)(?:\s+(?:now|too))?)"
                         r"\W*$"
                         # (bare "up", "down", "back" after a capitalised thing: "Phones down")
                         # (one word before it: "Never give up!" is a motto)
                         r"|^\W*(?i:" + _NOT_A_THING + r")[A-Z][\w.-]*(?i:\s+(?:is\s+|are\s+)?"
                         r"(?:up|down|back)(?:\s+(?:now|too))?)\W*$")
# A reply naming its own author as the answer to a "who" question: "yes, me", "I am", "mine".
_WHO = re.compile(r"(?i)^\W*who(?:'s|’s|se)?\b")
_ME = re.compile(r"(?i)^\W*(?:(?:yes|yep|yeah|yup|sure|ok)\b[\s,!.]*)?(?:me|i am|i'm|i will|"
                 r"i'll|mine|myself|that's me|that would be me|that'd be me)\b[\s!.]*$")
# A number answering "how many …?" / "how much …?": tom's "250" under "how many seats does
# Globex have?" had no word to keep it
_ASKS_COUNT = re.compile(r"(?i)^\W*(?:how\s+(?:many|much|long|big|old)|what(?:['’]s|\s+is)\s+"
                         r"the\s+(?:number|count|total|size))\b")
_COUNT_ANSWER = re.compile(r"(?i)^\W*(?:about|around|roughly|~|approx\.?)?\s*[$€£]?\d[\d,.]*"
                           r"\s*[%kmb]?\s*[a-z]{0,8}\W*$")
# A short reply that takes on work asked of anyone: "on it", "mine", "will do" ("I'll take it"
# has a word of its own, and is kept as said)
_PUT_TO_ANYONE = re.compile(rf"(?i)\b(?:{ASKED_OF_ANYONE})")
_CLAIMS = re.compile(r"(?i)^\W*(?:@[\w.-]+[\s,:]+)?(?:(?:ok(?:ay)?|sure|yes|yep|yeah|yup)\b[\s,!.]*)?"
                     r"(?:(?:i'?m |i am )?on it|i(?:'ve| have)? got (?:this|you)|mine|"
                     r"taking (?:it|this)|will do|me|i can)\b[\s!.]*$")
_SECOND_PERSON = [
    (re.compile(r"\b[Yy]ou're\b"), "{a} is"), (re.compile(r"\b[Yy]ou've\b"), "{a} has"),
    (re.compile(r"\b[Yy]ou'd\b"), "{a} would"), (re.compile(r"\b[Yy]ou'll\b"), "{a} will"),
    (re.compile(r"\b[Yy]ou (?:guys|all|two)\b"), "{a}"), (re.compile(r"\b[Yy]our\b"), "{a}'s"),
    (re.compile(r"\b[Yy]ours\b"), "{a}'s"), (re.compile(r"\b[Yy]ourself\b"), "{a}"),
    (re.compile(r"\b[Yy]ou\b"), "{a}"),
]
_QUESTION_SENTENCE = re.compile(r"[^.!?\n]*\?")
_QUESTION_CONTEXT_CHARS = 200  # longer "questions" are monologues, not a question being answered
MAX_MEMORIES_PER_MESSAGE = 6
MAX_MEMORIES_PER_LONG_MESSAGE = 3  # a message of several passages (memory.passages.is_long)
# a short write-up of labelled sections ("**Problem**: …", "**Rollout**: …", "**Risks**: …"):
# each section says what it is about; six kept its title and fields and lost its risks
MAX_MEMORIES_PER_WRITE_UP = 8
_SECTION = re.compile(r"(?m)^[ \t]*[*_]{0,2}[A-Z][\w /-]{1,30}[*_]{0,2}[ \t]*:[*_]{0,2}[ \t]+\S")
SECTIONS_OF_A_WRITE_UP = 3
MAX_SECTIONS_KEPT = 12  # a write-up of more sections keeps this many memories at most
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
# A KEY=value line of a pasted config (dotenv, shell exports); a value that is only a redaction
# marker says nothing, and a name that says secret is never kept, whatever redaction made of its
# value (memory.redaction catches what it recognises; this is the line it might not).
_SETTING_LINE = re.compile(r"^[ \t]*(?:export[ \t]+)?(?![A-Z0-9_]*(?:SECRET|TOKEN|PASS|PWD|KEY|"
                           r"CRED|AUTH|PRIVATE|SALT|SIGNATURE|COOKIE|SESSION))[A-Z][A-Z0-9_]*="
                           r"[^\s\[]\S*.*$", re.MULTILINE)
# (a dot inside a word ends nothing: "deploy of billing-api 3.2.0 failed:" was "0 failed")
_LEAD_IN = re.compile(r"((?:[^\n.!?]|[.!?](?=\S))+):\s*$")
_KIND_RANK = {"instruction": 3, "event": 1, "fact": 1, "task": 0}


def durability(c: Candidate) -> int:
    """How much a memory is worth keeping when a message gives too many: decisions and
    instructions, then dated statements, then concrete values."""
    return (2 * _KIND_RANK.get(c.type, 0) + 3 * bool(c.dates) + 2 * bool(_CONCRETE.search(c.content))
            + bool(c.topic_key) + 2 * bool(_NAMES_WHOSE.search(c.content)))


# a write-up's field of whose it is: "Owner: nina. Reviewers: omar, kai." (it was cut as the
# seventh of a design's sentences, and "who reviews the rate limiting design?" had no answer)
_NAMES_WHOSE = re.compile(r"(?i)(?:^|[\s*_])(?:owners?|dri|reviewers?|assignees?|approvers?)"
                          r"\s*:\s*\w")


def bounded(candidates: list[Candidate], limit: int = MAX_MEMORIES_PER_MESSAGE,
            long_lines: Collection[int] = (),
            long_limit: int = MAX_MEMORIES_PER_LONG_MESSAGE,
            write_ups: Collection[int] = ()) -> list[Candidate]:
    """At most `limit` candidates per message (by their first source line), `long_limit` for the
    lines in `long_lines`, MAX_MEMORIES_PER_WRITE_UP for those in `write_ups`: the most durable,
    earlier first on ties, kept in their original order."""
    by_line: dict[int, list[int]] = {}
    for i, c in enumerate(candidates):
        by_line.setdefault(c.source_lines[0] if c.source_lines else -1, []).append(i)
    keep: set[int] = set()
    for line, indices in by_line.items():
        most = long_limit if line in long_lines else \
            MAX_MEMORIES_PER_WRITE_UP if line in write_ups else limit
        if line in write_ups:
            # (a section a place: an RFC of eight labelled lines lost "Risks: write load on the
            # primary goes up ~8%; …" to its status and a sentence split off its proposal)
            sections = sum(bool(_SECTION.match(candidates[i].content)) for i in indices)
            most = max(most, min(MAX_SECTIONS_KEPT, sections + 1))
        if len(indices) > most:
            # (where there is no room, one that another says whole and more takes no place of
            # its own: a write-up's title alone beside its title and owner left "Risks: …" out
            # of a design's eight)
            bare = {i: candidates[i].content.rstrip(". ") for i in indices}
            indices = [i for i in indices if not any(
                j != i and len(bare[j]) > len(bare[i]) and bare[j].startswith(bare[i])
                for j in indices)]
        ranked = sorted(indices, key=lambda i: (-durability(candidates[i]), i))
        keep.update(ranked[:most])
    return [c for i, c in enumerate(candidates) if i in keep]


def without_code(text: str) -> str:
    """The message without its code blocks (pasted code states nothing), except a block's
    KEY=value lines, each on a line of its own after the words that brought the block in: "here's
    the staging env: DATABASE_URL=postgres://…" is what people later ask for."""
    def settings(m: re.Match) -> str:
        lead = _LEAD_IN.search(text, 0, m.start())
        prefix = f"{lead.group(1).strip()}: " if lead else ""
        raised = _raised(m.group(0))
        if raised:
            # a pasted traceback says what failed: "payments worker keeps crashing:" was the
            # memory, without "RateLimitError" ("is the RateLimitError fixed?" was declined)
            return f"\x00{raised}\n"  # (said on with the words before it: _JOINED)
        return "\n" + "".join(f"\n{prefix}{setting.strip()}\n"
                               for setting in _SETTING_LINE.findall(m.group(0))) + "\n"
    return _JOINED.sub(" ", _CODE_BLOCK.sub(settings, text))


_JOINED = re.compile(r"[ \t]*\n?[ \t]*\x00")
# a traceback's last words: "stripe.error.RateLimitError: Request rate limit exceeded" (Python),
# "java.lang.NullPointerException: …", "panic: runtime error: …" (Go), "Error: ENOENT …"
_RAISED = re.compile(r"(?m)^[ \t]*(?:Exception in thread \"[^\"\n]*\"[ \t]+|Caused by:[ \t]+)?"
                     r"(?:(?:[\w.$]+\.)?(?P<name>[A-Z]\w*(?:Error|Exception|Fault|"
                     r"Exit|Timeout|Interrupt))|panic|Error|FATAL|fatal error)\b(?::[ \t]*"
                     r"(?P<said>[^\n]{0,160}))?[ \t]*$")
# where it was raised, in the code pasted from: the innermost frame not in a library
_FRAME = re.compile(r'(?m)^[ \t]*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<fn>\w+))?|'
                    r"^[ \t]*at [\w.$<>]+\((?P<jfile>[\w.-]+):(?P<jline>\d+)\)|"
                    # Node's: "at TCPConnectWrap.afterConnect [as oncomplete] (net.js:1141:16)",
                    # "at /app/src/db.js:42:11"
                    r"^[ \t]*at (?:[\w.$<>]+ (?:\[as [\w$]+\] )?\()?"
                    r"(?P<nfile>[^\s():]+(?::[^\s():]+)?):(?P<nline>\d+):\d+\)?[ \t]*$")
# (and Node's own modules: "net.js", "node:internal/…", "internal/process/…")
_LIBRARY = re.compile(r"site-packages|dist-packages|/lib/python|node_modules|<frozen|^node:|"
                      r"^internal/|^(?:net|tls|dns|fs|events|http|https|stream|timers)\.js$")


def _raised(block: str) -> str | None:
    """What a pasted traceback says failed, with where in the team's code ("stripe.error.
    RateLimitError: Request rate limit exceeded (worker.py line 88, in handle)"), or None for
    code that raised nothing."""
    found = list(_RAISED.finditer(block))
    if not found and "\n" not in block.strip("`\n"):
        # pasted on one line, its frames after it: "Error: connect ECONNREFUSED 10.0.3.12:5432
        # at TCPConnectWrap.afterConnect …" (the memory was "deploy … failed:")
        one = _RAISED_INLINE.search(block)
        return " ".join(one.group(0).split()) if one else None
    if not found or not _FRAME.search(block) and len(block.splitlines()) > 3:
        return None
    raised = _INLINE_FRAMES.sub("", found[-1].group(0).strip())
    frames = [f for f in _FRAME.finditer(block)
              if not _LIBRARY.search(f["file"] or f["nfile"] or "")]
    if not frames:
        return raised
    last = frames[-1]
    where = (f"{last['file'].rsplit('/', 1)[-1]} line {last['line']}"
             + (f", in {last['fn']}" if last["fn"] else "")) if last["file"] \
        else f"{last['jfile']} line {last['jline']}" if last["jfile"] \
        else f"{last['nfile'].rsplit('/', 1)[-1]} line {last['nline']}"
    return f"{raised} ({where})"


# frames said on the error's own line: "Error: … at TCPConnectWrap.afterConnect [as oncomplete]
# (net.js:1141:16)"
_INLINE_FRAMES = re.compile(r"\s+at\s+(?:[\w.$<>]+\s+(?:\[as [\w$]+\]\s+)?)?\(?[^\s()]+:\d+"
                            r"(?::\d+)?\)?.*$")
_RAISED_INLINE = re.compile(r"(?:\b(?:[\w.$]+\.)?[A-Z]\w*(?:Error|Exception)|\bError|\bpanic)"
                            r":[ \t]*[^\n`]{1,160}?(?=\s+at\s|\s*```|\s*$)")


_DAY_SETTLED = re.compile(r"(?i)^\W*(?:[\w/-]+\s+){1,3}?(?:it\s+is|it['’]s|then|works|confirmed|"
                          r"locked(?:\s+in)?)\W*$")


def _lead_in(sentence: str) -> str | None:
    """A sentence too short to keep whose subject is a name, which the next one is about: "Priya
    accepted!", "Alex withdrew." (a name: a capitalised word no dictionary holds)."""
    bare = _ANNOTATED.sub("", sentence).strip()
    if _APPROVES.match(bare):  # "LGTM, approved. Ship it after the freeze lifts on Monday."
        return bare
    if _ANNOTATED.search(sentence) and _DAY_SETTLED.match(bare):
        # "Friday it is! Dinner at Nopa, 7pm": the day the next sentence is on (it was dropped,
        # and "when is the team dinner?" had no date)
        return sentence.strip()
    if word_count(bare) >= _MIN_WORDS or bare.endswith("?") or _CHITCHAT.match(bare) \
            or _hints_secret(bare):
        return None
    # a name, first (the sentence's subject; the word list holds no word under four letters,
    # so "Use …" and "Add …" would be names), then what they did ("Woohoo Melanie!" is none)
    subject = _NAME_DID.match(bare)
    return bare if subject and not english_word(subject.group(1).lower()) else None


# a review's verdict, too short alone: what the next sentence is said under
_APPROVES = re.compile(r"(?i)^\W*(?:lgtm|approved|approving|rejected|request(?:ing)? changes|"
                       r"ship\s?it|\+1)\b(?:[\s,!.]+(?:approved|lgtm|ship\s?it|"
                       r"with (?:one|a few) nits?))*[\s!.]*$")
_NAME_DID = re.compile(r"([A-Z][a-z]{3,})\s+(?:[a-z]+ed|withdrew|left|quit|won|lost|said|agreed|"
                       r"signed|paid|came|went|got|took|sent|wrote|is|was|has|will)\b")


def _with_labels(text: str, labelled: str) -> str:
    """`text` with the date labels `labelled` (the message it was taken from) puts after the same
    words: each label goes after the words before it, where `text` has them without one."""
    for m in _ANNOTATED.finditer(labelled):
        before = _ANNOTATED.sub("", labelled[:m.start()]).rstrip()[-_LABEL_KEY_CHARS:]
        at = text.find(before) if len(before) >= 4 else -1
        if at >= 0 and not text[at + len(before):].lstrip().startswith("["):
            text = f"{text[:at + len(before)]} {m.group(0).strip()}{text[at + len(before):]}"
    return text


_LABEL_KEY_CHARS = 16  # the words before a label that find its place again


# "I land Monday 9am, can someone grab the booth badges?": a statement, then a request of anyone;
# read as one question, when dev lands was in no memory ("…, can you help?" is put to whom it
# addresses, an assistant: the asker's own words answer "have I ever …?")
_ASK_AFTER = re.compile(r"^(?P<said>[^?]+?),\s*(?:so\s+|but\s+|and\s+)?(?P<ask>"
                        # (to someone by name too: "I'm out sick till Monday, @kim can you take
                        # the billing v2 doc?" was one question, and lee's time away was lost)
                        # (not "…, can you help?" to no one by name: what an asker says of
                        # themselves before asking is read as they said it)
                        r"(?:(?!(?:so|but|and|then|now|please|pls|plz|or)\b)@?[a-z][\w.-]*,?\s+"
                        r"(?:can|could|would|will)\s+you|"
                        r"(?:can|could|would|will)\s+(?:someone|somebody|anyone|anybody|"
                        r"one of you)|"
                        # (or a choice put to all, or their say: "the Beta Corp NDA expires on
                        # the 31st, renew or let it lapse?" was no memory, and "when does the
                        # NDA expire?" was answered from the reply, "let it lapse, the project
                        # was cancelled in October")
                        r"(?:[a-z][\w'-]*\s+){1,4}or(?=\s+[a-z])|"
                        r"thoughts|(?:any\s+)?objections|ok|okay|agreed|sounds?\s+good|"
                        r"makes?\s+sense)\b[^?]*\?)\s*$", re.IGNORECASE)
_QUESTION_OPENER = re.compile(r"(?i)^\W*(?:who|what|when|where|why|how|which|is|are|do|does|did|"
                              r"can|could|would|will|should|have|has)\b")


VOTE_OPENING = re.compile(r"(?i)^\s*(?:[+-]1\b|:\+1:|:-1:|:thumbsup:|:thumbsdown:|👍|👎|lgtm\b|"
                         r"strong\s+(?:\+1|-1|yes|no)\b)")


# a message that goes on from the same person's one before ("Biggest jump is …", "Most of it is
# …", "Mainly the …"), said within minutes
_FOLLOWS_UP = re.compile(r"(?i)^\W*(?:(?:the\s+)?(?:biggest|largest|main|primary|single\s+"
                         r"biggest)\s+(?:jump|driver|chunk|part|piece|reason|cause|contributor|"
                         r"increase|"
                         r"drop|change)|most\s+of\s+(?:it|that|this|the\s+\w+)|mainly|mostly|"
                         r"largely)\b")
_FOLLOW_UP = timedelta(minutes=10)
_TRUNCATED = re.compile(r"\s*\[truncated by Lurker: \d+ bytes omitted\]\s*$")  # (ingest_input's)
_OF_THEM = re.compile(r"(?i)^\W*(?:their|they|they['’](?:re|ve|ll|d))\b")
# "Embargo moves with it", "the webinar slips too", "same for the press release"
_MOVES_ALONG = re.compile(r"(?i)^\W*(?:(?:and|so)\s+)?(?:(?:the|our)\s+)?[\w/-]+"
                          r"(?:\s+[\w/-]+){0,3}?\s+(?:moves?|slips?|shifts?|follows?|goes|go|"
                          r"gets?\s+pushed|is\s+pushed)\s+(?:with\s+it|along|too|as\s+well|"
                          r"accordingly)\b|^\W*same\s+(?:for|goes\s+for)\s+(?:the\s+)?[\w/-]+")
# a message hours after a question, sharing none of its words, answers something else: dana's
# "Initech verbal yes, paper by Friday" six hours after rita's "offsite planning call wed 12/9?"
# was its answer ("when is the offsite planning call?": "Friday")
_ANSWER_WITHIN = timedelta(hours=2)
_SELF_CORRECTION = timedelta(days=2)  # a person correcting their own statement in the channel
# the words of correcting, no subject shared with what is corrected
_CORRECTION_STEMS = frozenset(stem_tokens("actually correction sorry no wait scratch that make "
                                          "moved move moves changed change now instead"))
_TRIED_GAP = timedelta(hours=2)  # "nope, still hangs" in the channel after a suggestion
_VOTE_GAP = timedelta(hours=4)  # "+1, …" in the channel after a proposal: a vote on it
_DISCUSSION_GAP = timedelta(minutes=30)  # "agreed, …" after a proposal in the channel
# what a decision in the channel settles: a proposal or a choice asked ("Agreed, Mel! Art can be
# a real mood-booster" after "That's so nice" settles nothing)
_PROPOSES = re.compile(r"(?i)\b(?:propos\w*|suggest\w*|how\s+about|what\s+about|(?:should|shall|"
                       r"could|can)\s+we|options?|vs\.?|versus|either)\b|\bor\b[^?]*\?")
# "she signed!! 🎉 starting Jan 11, Omar will be her onboarding buddy", the evening after the
# same person's "offer going out to Priya today": she is the one person their last message named
# ("who's Priya's onboarding buddy?" was declined, "did Priya accept the offer?" showed the offer)
def _voted_on(flow: list[TranscriptLine], line: TranscriptLine) -> TranscriptLine | None:
    """The proposal a vote said in the channel is on: the message before it, or the one before
    the votes said since it (ben's "+1", then cy's "+1": both on ana's proposal; cy's was on
    nothing), by someone else, within _VOTE_GAP."""
    for before in reversed(flow[:-1]):
        if line.ts - before.ts > _VOTE_GAP:
            return None
        said = _ANNOTATED.sub("", before.content)
        if _PROPOSES.search(said):
            return before if before.speaker != line.speaker else None
        if not VOTE_OPENING.match(said):
            return None
    return None


OPENING_PRONOUN = re.compile(r"^(\W*)(?:she|he)\b(?=\s+(?:just\s+|finally\s+|also\s+)?[a-z]+"
                             r"(?:ed|s)\b|['’]s\s|\s+(?:will|is|was|has|had|got|took)\b)",
                             re.IGNORECASE)
# a name within a sentence, with its surname or initial if written
_NAMED_WITHIN = re.compile(r"(?<=[a-z0-9,;:)]\s)([A-Z][a-z]+)(?:\s+[A-Z](?:[a-z]+|\.|\b))?")
_CALENDAR_WORD = re.compile(r"(?i)^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|"
                            r"june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|"
                            r"nov(?:ember)?|dec(?:ember)?|(?:mon|tue|tues|wed|wednes|thu|thur|"
                            r"thurs|fri|sat|satur|sun)(?:day)?)$")


def _the_one_named(text: str, author: str) -> str | None:
    """The one person `text` names within its sentences (its author aside), or None when it
    names none or several ("offer going out to Priya today: L5, start date Jan 11" -> "Priya")."""
    plain = _ANNOTATED.sub("", text)
    named = {m[0] for m in _NAMED_WITHIN.finditer(plain)
             if not _CALENDAR_WORD.match(m[1]) and m[1].lower() != author.lower()
             and m[1] not in _NOT_NAMED}
    # (or opening a sentence, a word no English one: "Aiko asked for a week to think it over.
    # She has until Dec 9 to decide." was no one's, and "when does Aiko need to decide?" was
    # declined)
    named |= {m[1] for m in _NAMED_FIRST.finditer(plain)
              if not _CALENDAR_WORD.match(m[1]) and m[1].lower() != author.lower()
              and m[1] not in _NOT_NAMED and not english_word(m[1].lower())
              and not any(n.split()[0] == m[1] for n in named)}
    return named.pop() if len(named) == 1 else None


# (of four letters or more: shorter words are never English ones to `english_word`, and "Her
# name is Shadow! She's …" named "Her")
_NAMED_FIRST = re.compile(r"(?:^|[.!?]\s+)([A-Z][a-z]{3,})\b(?!['’]?[\w-]*[A-Z0-9.])")


_NOT_NAMED = frozenset({"I", "The", "We", "Slack", "Discord", "Zoom", "Jira", "GitHub", "Q1",
                        "UTC", "PST", "EST", "PT", "ET", "CET"})


# someone doing "it": "Dara is writing it.", "I'll handle it", "Sam will own it"
_DOING_IT = re.compile(r"^\W*(?:[A-Z][a-z]+|I|we)"
                       r"(?:\s+(?:is|are|am|will(?:\s+be)?)|['’](?:s|ll|m|re))\s+"
                       r"(?:writ|draft|do|handl|own|lead|run|cover|review|fix|tak|driv)\w*\s+"
                       r"(?P<it>it)\b(?!\s+(?:up|over|on|off|out|back)\b)")
# what a sentence is about: the words before its first verb ("Grant report for the county" of
# "Grant report for the county is due Dec 18.")
_SUBJECT = re.compile(r"^\W*(?P<np>[A-Za-z][\w-]*(?:\s+[a-z][\w-]*){1,5}?)\s+(?:is|are|was|were|"
                      r"will|needs?|has|have|goes|ships|starts|lands|due)\b")
_NOT_A_SUBJECT = frozenset({"it", "this", "that", "there", "he", "she", "they", "we", "i", "you"})


def _subject_of(sentence: str) -> str | None:
    """The thing a sentence is about, as "the …" ("the grant report for the county"), or None
    (a person, a pronoun, or no verb found)."""
    found = _SUBJECT.match(_ANNOTATED.sub("", sentence))
    if found is None:
        return None
    words = found["np"].split()
    if words[0].lower() in ("the", "our", "their"):
        words = words[1:]
    if words[0].lower() in _NOT_A_SUBJECT or not english_word(words[0].lower()) \
            and words[0][0].isupper():
        return None
    first = words[0].lower() if english_word(words[0].lower()) else words[0]
    return " ".join(["the", first, *words[1:]])


def _statement_then_ask(sentence: str) -> list[str]:
    found = _ASK_AFTER.match(sentence)
    if found is None or _QUESTION_OPENER.match(found["said"]) \
            or word_count(_ANNOTATED.sub("", found["said"])) < _MIN_WORDS:
        return [sentence]
    ask = found["ask"]
    return [found["said"].rstrip() + ".", ask[0].upper() + ask[1:]]


# emoji and Slack's :shortcodes: after a question's mark: "who's in for tacos friday? 🌮" is a
# question still (it was kept as a memory, and answered "who's coming to tacos?")
_TRAILING_MARKS = re.compile(r"(?:\s*(?::[\w+-]+:|[^\w\s?.!,;:'\"()\[\]]))+\s*$")


def _opening(parent: TranscriptLine) -> str:
    """What a reply's memory quotes of the message it answers: its first sentence, of its first
    line (a write-up's title, not "Design: notifications v2 **Problem**: … **Proposal**: …",
    every section joined, which a +1 under it quoted whole)."""
    bare = _ANNOTATED.sub("", parent.content)
    first = next((line for line in bare.splitlines() if line.strip()), "")
    opened = split_sentences(" ".join(first.split()))
    return (opened[0] if opened else "")[:_PARENT_QUESTION_CHARS]


def _is_question(sentence: str) -> bool:
    return _TRAILING_MARKS.sub("", sentence.rstrip()).endswith("?")


def split_sentences(text: str) -> list[str]:
    parts = (p.strip() for p in _SENTENCE_END.split(text.strip()))
    return [p for p in parts if p]


def third_person(sentence: str, speaker: str) -> str:
    if not _ANY_FIRST_PERSON.search(sentence):  # most sentences: ~45 substitutions saved
        return sentence
    return _named(sentence, _FIRST_PERSON, speaker)


def addressed_to(sentence: str, listener: str) -> str:
    """Second person to the listener's name: "Which team did you sign with?" -> "... did John ..."."""
    if not _ANY_SECOND_PERSON.search(sentence):
        return sentence
    # (the listener named after "you" is no second name: "I'll take tomorrow for you raj, feel
    # better" was "… for raj raj, …")
    sentence = re.sub(rf"(?i)\b(you)[ \t]*,?[ \t]+{re.escape(listener)}\b(?!['’])",
                      lambda m: m.group(1), sentence)
    return _named(sentence, _SECOND_PERSON, listener)


# Whether a sentence holds a word any of the rules rewrites (a superset of them all): the rules,
# tried one after another, were a tenth of an ingest's time on sentences that hold none.
_ANY_FIRST_PERSON = re.compile(r"\b(?:[Ii]|[Ii]m|[Ii]ve|[Mm]y|[Mm]ine|[Mm]yself|me)\b")
_ANY_SECOND_PERSON = re.compile(r"\b[Yy]ou")


# What is typed to be read by a machine keeps its letters: "curl … https://api.internal/v1/me"
# was "…/v1/dev", and a path, an address or a `code span` holds no one's pronoun.
# (nor "I mean" correcting what was just said: "… 2-2... I mean tied 2-2" is no one's meaning)
_VERBATIM = re.compile(r"(`[^`\n]*`|\b[a-z][a-z0-9+.-]*://\S+|(?<![\w/])/[\w.~-]+(?:/[\w.~-]*)+"
                       r"|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<=[.…,;—–-] )I meant?\b)")


def _named(sentence: str, rules: list, name: str) -> str:
    if ("/" in sentence or "`" in sentence or "@" in sentence or "I mean" in sentence) \
            and len(parts := _VERBATIM.split(sentence)) > 1:
        return "".join(part if i % 2 else _named(part, rules, name)
                       for i, part in enumerate(parts))
    # A function, not a template: a name is text, and an IRC nick such as `foo\2` read as a
    # template is a group reference (re.error: the whole conversation failed to ingest).
    for pattern, repl in rules:
        if callable(repl):  # (a rule that reads what it matched)
            sentence = pattern.sub(lambda m, rule=repl: rule(m, name), sentence)
            continue
        sentence = pattern.sub(lambda _m, said=repl.format(a=name): said, sentence)
    return sentence


def _with_thread_subjects(found: list[Candidate], by_index: dict[int, TranscriptLine]) -> None:
    """A thread's reply is about its thread's subject: the first sentence of the message it
    replies to goes with the questions it answers (search and the answerer read them), unless
    it cites that message already. "ok, 3.9 dropped in 6.0 (March)", answering ana's "can we
    wait until March?" under "RFC-32: drop Python 3.9 support.", named no Python ("when are we
    dropping Python 3.9?" was answered "No date was given")."""
    for candidate in found:
        line = by_index.get(candidate.source_lines[0]) if candidate.source_lines else None
        parent = by_index.get(line.reply_to) if line is not None and line.reply_to is not None \
            else None
        if parent is None or parent.index in candidate.source_lines:
            continue
        title = split_sentences(_ANNOTATED.sub("", parent.content))[:1]
        subject = third_person(title[0], parent.speaker)[:_QUESTION_CONTEXT_CHARS] \
            if title and parent.author else (title[0][:_QUESTION_CONTEXT_CHARS] if title else "")
        if subject and subject not in candidate.questions:
            candidate.questions = [*candidate.questions, subject][-5:]


def asked_questions(text: str) -> list[str]:
    """The question sentences of a message ("Wow! Is that your third one?" -> the second)."""
    found = [q.strip() for q in _QUESTION_SENTENCE.findall(text)]
    return [q for q in found if len(q.split()) >= 2 and len(q) <= _QUESTION_CONTEXT_CHARS]


def keywords(text: str, limit: int = 6) -> list[str]:
    """Content words in order of appearance, for search questions."""
    seen: list[str] = []
    for word in re.findall(r"[A-Za-z][A-Za-z0-9'+#.-]*", text):
        w = word.strip(".'").lower()
        if len(w) > 2 and w not in _STOP and w not in seen:
            seen.append(w)
    return seen[:limit]


def classify(sentence: str, has_date: bool) -> str:
    if _INSTRUCTION_START.search(sentence) or _INSTRUCTION_ANY.search(sentence):
        return "instruction"
    if _TASK.search(sentence):
        return "task"
    if has_date or _PAST_EVENT.search(sentence):
        return "event"
    return "fact"


def topic_for(sentence: str, memory_type: str, speaker: str,
              people: Collection[str] = ()) -> str | None:
    """The subject a fact/instruction is about, or None when it has no stable one. `people`:
    the conversation's speakers (lower case), whom "nick: …" addresses rather than keys."""
    if memory_type not in ("fact", "instruction"):
        return None
    text = sentence.strip().rstrip(".!")
    if memory_type == "instruction":
        # Tool choices key on the tool's category, so "use pnpm" and "switch to yarn" collide.
        category = chosen_tool_category(text)
        if category:
            return category
        m = _FOR_SUBJECT.search(text)  # "Always use UTC for timestamps" -> "timestamp"
        if m:
            return normalize_topic_key(m.group("subject"))
    m = _SET_TO.search(text)
    if m:
        return normalize_topic_key(m.group("subject"))
    # A decision often comes as a preamble then the statement: "after the test we decided: the
    # rate limit is 300", so each clause gets a try.
    for n, clause in enumerate(_CLAUSES.split(text)):
        key = _key_value_topic(clause.strip(), speaker, owned=n > 0)
        if key:
            return key
    m = _COLON_VALUE.match(text)
    if m and len(m.group("subject").split()) <= 4 and not _OPENER.match(m.group("subject")) \
            and not _REPORTED.search(m.group("subject")) \
            and not _SENTENCE_VALUE.match(m.group("value")) \
            and not _addressed(m.group("subject").strip(), people):
        # a vote is its voter's: "Jonas: no hire from me" (ana's) does not change dev's "Jonas:
        # hire" (it was answered "no hire — changed from hire")
        owner = f"{speaker} " if _VOTE.match(m.group("value")) else ""
        return normalize_topic_key(owner + m.group("subject"))
    return None


_VOTE = re.compile(r"(?i)^\W*(?:(?:strong|weak|lean|leaning)\s+)?(?:no[- ]?hire|hire|yes|no|"
                   r"\+1|-1|lgtm|approved?|reject(?:ed)?|agree|disagree|no[- ]?go|go|veto)\b")


def _addressed(subject: str, people: Collection[str]) -> bool:
    """"quitte: try unstable" addresses someone (chat's, IRC's above all, way of replying); it
    is no subject. Every reply to quitte took the key "quitte" and superseded the one before: 41
    of a 900-line Ubuntu IRC day's 574 memories. One word before the colon is a key only when it
    is an English word ("Owner:", "Status:") or an acronym ("ETA:", "SLA:"), and not a name of
    the conversation's speakers."""
    if " " in subject:
        return False
    if subject.lower() in people:
        return True
    return not ((subject.isupper() and subject.isalpha()) or english_word(subject))


def _key_value_topic(clause: str, speaker: str, owned: bool = False) -> str | None:
    """"The rate limit is 100/s", "our staging URL is ...": lower-case subjects only, so person
    attributes ("Caroline is a counselor") do not collapse into one key per person. `owned`: a
    clause split from within a sentence must name its subject with "the"/"our"/… ("we decided:
    the rate limit is 300"), since after "and" a bare noun is the end of a coordination ("stretching
    and breathing is having an effect" keyed "breathing", and superseded the next such memory)."""
    first, _, rest = clause.partition(" ")
    if first in ("The", "Our", "My", "Your", "Their"):
        clause = first.lower() + " " + rest
    m = _KEY_VALUE.match(clause)
    if not m or re.search(r"\b(i|it|he|she|they|we|you|this|that|there|what|which|who)\b",
                          m.group("subject")) or (owned and not m.group("owner")):
        return None
    key = m.group("subject")
    if _STATE.match(re.sub(r"[*_~`]+", "", m.group("value"))) \
            and not re.search(r"\b(?:status|state|health)$", key):
        key += " status"  # "the dashboard is down", then "... is up again": its status changed
    if m.group("owner") == "my":
        key = f"{speaker} {key}"
    return normalize_topic_key(key)


def search_questions(topic_key: str | None, asked: list[str]) -> list[str]:
    """Real questions only: the topic's, then the ones the memory's message was an answer to."""
    questions = [f"What is the {topic_key}?", f"What did we decide about the {topic_key}?"] \
        if topic_key else []
    return [*questions, *asked][:5]


class OfflineExtractor(Extractor):
    name = "offline-rules-v2"

    def extract(self, lines: list[TranscriptLine]) -> list[Candidate]:
        """The full pass over every sentence, then (for conversations of 9+ messages, as the
        model extractor does) the detail pass for concrete values the full pass let go."""
        out: list[Candidate] = []
        seen: set[tuple[str, str]] = set()
        let_go: list[tuple[str, TranscriptLine]] = []
        previous: TranscriptLine | None = None
        by_index = {line.index: line for line in lines}
        people = {line.speaker.lower() for line in lines if line.author}
        declared: TranscriptLine | None = None  # an incident declared in the channel, open
        last_said: dict[str, list[TranscriptLine]] = {}  # each person's top-level messages
        flow: list[TranscriptLine] = []  # the channel's top-level messages so far, this one last
        pointed: dict[str, TranscriptLine] = {}  # a PR's or ticket's latest numbered points
        introduced: dict[str, TranscriptLine] = {}  # the message that first named a PR
        replies: dict[int, list[TranscriptLine]] = {}  # each thread's replies so far
        for line in lines:
            if line.reply_to is not None:
                replies.setdefault(line.reply_to, []).append(line)
            if line.reply_to is None and len(_NUMBERED_POINT.findall(line.content)) >= 2:
                for ident in PR_NUMBER.findall(line.content):
                    pointed[ident] = line
            for ident in PR_NUMBER.findall(line.content):
                introduced.setdefault(ident, line)
            if line.context:  # an earlier message a reply answers: read with that reply only
                if line.before:  # (or the channel's last before this batch: read as previous)
                    previous = line
                    if line.reply_to is None:  # (a thread's reply is no part of the channel's)
                        flow.append(line)
                    if line.author and line.reply_to is None:  # (and its author's last word)
                        last_said.setdefault(line.speaker, []).append(line)
                    declared = line if declares_incident(line.content) else declared
                continue
            parent = by_index.get(line.reply_to) if line.reply_to is not None else None
            if line.reply_to is None:
                flow.append(line)
            asked, context = self._question_context(parent, line)
            # (a thread's reply answers its thread, not the channel's message before it: omar's
            # "Fix is in PR #812" under the ticket is no answer to tom's "anyone else seeing the
            # Safari bug?", said in the channel between)
            if not asked and (parent is None or previous is not None and (
                    previous.index == line.reply_to or previous.reply_to == line.reply_to)):
                asked, context = self._question_context(previous, line)
            if not asked and parent is None and previous is not None \
                    and previous.speaker == line.speaker and previous.reply_to is None \
                    and line.ts - previous.ts <= _FOLLOW_UP and (_FOLLOWS_UP.match(
                        _ANNOTATED.sub("", line.content)) or _OF_THEM.match(line.content)
                        and _leans_on(_ANNOTATED.sub("", line.content), _ANNOTATED.sub(
                            "", previous.content), people)):
                # (and "their budget is around $80k, decision maker is their VP Eng", five
                # minutes after "Globex demo went well, …": "what was Globex's budget?" and "who
                # is the decision maker at Globex?" were declined, the memory naming no Globex)
                # "Biggest jump is NAT gateway data transfer, $6.1k alone", two minutes after
                # the same person's "AWS bill for November came in at $48.2k, up from $39k":
                # what it is the biggest of is the message before (it shared no word with "why
                # did the AWS bill go up?")
                first = split_sentences(_ANNOTATED.sub("", previous.content))
                if first:
                    asked = [third_person(first[0], previous.speaker)[:_QUESTION_CONTEXT_CHARS]]
                    context = previous
            if parent is not None and not asked and context is None \
                    and _SAYS_OR_GUESSES_CAUSE.search(_ANNOTATED.sub("", line.content)):
                context = parent  # (cited: "what caused the payments incident?" finds it)
            if parent is not None and not asked and parent.speaker != line.speaker \
                    and corrects(line.content, parent.content):
                out.append(self._correction(line, parent))
                previous = line
                continue
            said_before = last_said.get(line.speaker, []) if line.author else []
            own = said_before[-1] if said_before else None
            # (which of their messages it corrects is looked for only when it opens as one)
            corrected = _corrected_own(line, said_before) if own is not None and parent is None \
                and _CORRECTS.match(_ANNOTATED.sub("", line.content).strip()) else own
            if line.author and line.reply_to is None:
                last_said.setdefault(line.speaker, []).append(line)
            if parent is None and line.reply_to is None and corrected is not None \
                    and line.ts - corrected.ts <= _SELF_CORRECTION \
                    and (previous is corrected or previous is not None
                         and not asked_questions(_ANNOTATED.sub("", previous.content))) \
                    and corrects(line.content, corrected.content):
                # (not the answer to a question asked between: "No, I didn't." after "Did you
                # name her after …?")
                # "actually make that $14/seat, finance pushed back", the day after the same
                # person's "Team plan goes from $12 to $15/seat on Jan 1": a correction of it,
                # as a thread's reply is ("how much is the Team plan going to be?" was $15)
                out.append(self._correction(line, corrected))
                previous = line
                continue
            how_tried = line.author and says_how_tried(_ANNOTATED.sub("", line.content))
            tried = next((r for r in reversed(replies.get(line.reply_to, [])[:-1])
                          if r.speaker != line.speaker), None) \
                if how_tried and parent is not None and parent.speaker == line.speaker else None
            asker = None
            if tried is None and how_tried and parent is None and line.reply_to is None \
                    and len(flow) > 1 and flow[-2].speaker != line.speaker \
                    and line.ts - flow[-2].ts <= _TRIED_GAP:
                # (in a channel without threads: the message before, after the asker's own
                # question or report; "nope" to anything else says nothing of a fix)
                asker = next((f for f in reversed(flow[:-2]) if f.speaker == line.speaker
                              and flow[-2].ts - f.ts <= _TRIED_GAP
                              and not says_how_tried(_ANNOTATED.sub("", f.content))), None)
                tried = flow[-2] if asker is not None and (
                    asked_questions(_ANNOTATED.sub("", asker.content))
                    or _REPORTS_PROBLEM.search(_ANNOTATED.sub("", asker.content))) else None
            if tried is not None:
                # the asker on the reply before theirs: "that was it, thanks!" confirms dev3's
                # fix, "nope, still hangs" refutes dev2's suggestion
                out.append(self._tried(line, tried, parent or asker))
                previous = line
                continue
            if parent is not None and decides(line.content):
                out.append(self._decision(line, parent))
                previous = line
                continue
            if parent is None and line.reply_to is None and len(flow) > 1 \
                    and flow[-2].speaker != line.speaker \
                    and line.ts - flow[-2].ts <= _DISCUSSION_GAP and decides(line.content) \
                    and _PROPOSES.search(_ANNOTATED.sub("", flow[-2].content)):
                # "agreed, free goes to 120/min from next Monday, pro stays 600", minutes after
                # ben's "proposal: free 120/min, pro 600/min" in the channel: a decision on it,
                # as in a thread, with the discussion it closes ("what's the free tier rate
                # limit?" was answered with the opener's "free tier 60/min is too low")
                decision = self._decision(line, flow[-2])
                opener = flow[-3] if len(flow) > 2 else None
                if opener is not None and flow[-2].ts - opener.ts <= _DISCUSSION_GAP \
                        and set(keywords(opener.content, 20)) & set(keywords(flow[-2].content,
                                                                            20)):
                    first = split_sentences(_ANNOTATED.sub("", opener.content))[:1]
                    if first:
                        decision.questions = [third_person(first[0], opener.speaker)
                                              [:_QUESTION_CONTEXT_CHARS]]
                out.append(decision)
                previous = line
                continue
            if parent is not None and parent.speaker != line.speaker \
                    and VOTE_OPENING.match(_ANNOTATED.sub("", line.content)):
                # "+1", "-1, pricing is steep" under an RFC: the voter's, on what it votes on
                # (a bare "+1" was let go, and "+1 on Temporal, but worried …" named no RFC:
                # "who supported RFC-51?" found neither)
                out.append(self._decision(line, parent, label=f"{line.speaker}: "))
                previous = line
                continue
            proposal = _voted_on(flow, line) \
                if parent is None and line.reply_to is None and len(flow) > 1 \
                and VOTE_OPENING.match(_ANNOTATED.sub("", line.content)) else None
            if proposal is not None:
                # "+1, replication lag has bitten us twice this month", said in the channel
                # after "Proposal: move session storage from Postgres to Redis …": a vote on it,
                # as under it ("who supported the Redis proposal?" listed the proposal)
                out.append(self._decision(line, proposal, label=f"{line.speaker}: "))
                previous = line
                continue
            if parent is not None and resolves_incident(line.content, parent.content):
                out.append(self._decision(line, parent, label=""))
                previous = line
                continue
            if parent is None and declared is not None \
                    and line.ts - declared.ts <= INCIDENT_WINDOW \
                    and resolves_incident(line.content, declared.content) \
                    and ends_declared(resolution_said(line.content), declared.content):
                # an incident channel with no threads: "Resolved. Checkout healthy since 14:38
                # UTC." ends the SEV2 declared above it (its "Resolved." was dropped, and "when
                # did the checkout outage start?" was declined)
                out.append(self._decision(line, declared, label=""))
                declared, previous = None, line
                continue
            if parent is None and declares_incident(line.content):
                declared = line
            last = None  # this message's latest memory
            dropped = False  # whether the sentence before was let go
            # a standup bot's form, as the person's standup (memory.standup_forms)
            # (not the marker ingest writes where it cut an oversized message: alone it was a
            # memory, "[truncated by Lurker: 200000 bytes omitted]", cited for any question)
            text, quoted = without_quotes(without_code(_TRUNCATED.sub("", standup_text(
                line.content) or line.content)))
            opening = OPENING_PRONOUN.match(text) \
                if own is not None and parent is None and line.reply_to is None \
                and line.ts - own.ts <= _SELF_CORRECTION else None
            named = _the_one_named(own.content, line.speaker) if opening else None
            if named:
                text = f"{opening[1]}{named}{text[opening.end():]}"
            text, grouped = grouped_lists(text)
            sentences = _with_outcomes([part for sentence in split_sentences(text)
                                        for part in _statement_then_ask(sentence)])
            verdict = VERDICT.match(_ANNOTATED.sub("", sentences[0])) if sentences \
                else None
            # (of what it names, if it names something: "3.3.0 is out: …" is a release of its
            # own, not a verdict on "3.13 works from 3.2.1, 3.14 not yet")
            awaited = own.content if verdict and parent is None and line.reply_to is None \
                and own is not None and line.ts - own.ts <= _SELF_CORRECTION \
                and verdict["subject"].strip().lower() in own.content.lower() else None
            # (under another's message, a verdict on it: "reviewed, two nits, otherwise good"
            # under "pricing page copy is ready for review" cites it, and is its latest word)
            judged = parent if verdict and parent is not None \
                and parent.speaker != line.speaker else None
            heading = None  # "Build failed:" over the lines of a pasted log
            # (said in the channel, the points of the PR or ticket it names: "fixed 1 and 2 in
            # #1502, TTL is 24h" after the bot's "Review of PR #1502 …" and its numbered points)
            listed = parent if parent is not None else next(
                (pointed[i] for i in PR_NUMBER.findall(line.content)
                 if i in pointed and pointed[i] is not line), None)
            for n, sentence in enumerate(sentences):
                if n and (she := OPENING_PRONOUN.match(sentence)) is not None \
                        and (who := _the_one_named(" ".join(sentences[:n]), line.speaker)):
                    # "Offer out to Aiko: $185k base, start Jan 11. She has until Dec 9 to
                    # decide.": she is the one person the sentences before name ("when does
                    # Aiko need to decide?" was declined)
                    sentence = f"{she[1]}{who}{sentence[she.end():]}"
                elif n and (it := _DOING_IT.match(sentence)) is not None \
                        and (thing := _subject_of(sentences[n - 1])):
                    # "Grant report for the county is due Dec 18. Dara is writing it.": it is
                    # what the sentence before is about ("who is writing the grant report?" was
                    # answered with the draft's review, "Dara is writing it." naming nothing)
                    sentence = f"{sentence[:it.start('it')]}{thing}{sentence[it.end('it'):]}"
                # the points of its thread's list a reply names ("fixed 1 …", "docs done")
                points = _points_named(_ANNOTATED.sub("", sentence), listed.content) \
                    if listed is not None else ""
                candidate = self._candidate(sentence, line, asked, context, people, points)
                if not n and _HEADING.match(_ANNOTATED.sub("", sentence)) \
                        and sentence not in grouped:
                    heading = sentence  # a message's first line only: a write-up's sections
                    # ("**Tips:**") head prose that says what it is about
                elif candidate is not None and heading and n \
                        and not candidate.content.startswith(heading):
                    # "why did the build fail?": each line under "Build failed:" is what failed
                    candidate.content = f"{heading} {candidate.content}"
                if candidate is not None and sentence in grouped:
                    # "Action items: …" is this note's list, no value a later note's replaces
                    candidate.topic_key = None
                    candidate.questions = search_questions(None, asked)
                if candidate is not None and n and _is_question(sentences[n - 1]) \
                        and _IT_MEASURES.match(_ANNOTATED.sub("", sentence)):
                    # "Should we move audit_log to cold storage? It grows 10GB/day.": what "It"
                    # is, the question before says (the growth shared one word of "how fast is
                    # audit_log growing?"); a figure only (LoCoMo's "… camping? It was
                    # amazing!" took the question's names, two adversarial questions answered)
                    candidate.questions = [*candidate.questions, third_person(
                        _ANNOTATED.sub("", sentences[n - 1]), line.speaker)][:5]
                lead = _lead_in(sentences[n - 1]) if dropped and candidate is not None else None
                if lead and lead.lower() not in candidate.content.lower():
                    # "Priya accepted! Start date is January 11.": the short sentence before
                    # says whose start date it is
                    candidate.content = f"{lead} {candidate.content}"
                if candidate is not None and n and _FIELD.match(_ANNOTATED.sub("", sentence)) \
                        and len(_ANNOTATED.sub("", sentences[0])) <= _TITLE_CHARS \
                        and not _FIELD.match(_ANNOTATED.sub("", sentences[0])):
                    # "Owner: ana." of an RFC says whose it is only with the RFC's title: two RFCs'
                    # owners were two bare "Owner: …" lines, and either answered for the other
                    candidate.content = f"{sentences[0].rstrip()} {candidate.content}"
                if candidate is not None and n and (
                        _FRAGMENT.match(sentence)
                        or DECLARED.search(_ANNOTATED.sub("", sentences[0]))
                        # "PR #1502 re-review: blocking issues resolved. 1 nit open (…)": the
                        # nit is the PR's ("what's still open on 1502?")
                        or len(sentences) <= _LEANS_SENTENCES
                        and PR_NUMBER.search(sentences[0])
                        and not PR_NUMBER.search(sentence)
                        or len(sentences) <= _LEANS_SENTENCES
                        and _leans_on(_ANNOTATED.sub("", sentence),
                                      _ANNOTATED.sub("", sentences[0]), people)) \
                        and sentences[0] not in candidate.questions:
                    # "Owner: tomas." means nothing without the note it ends: its first
                    # sentence is what it is found by ("who owns the JWT change?"), as an
                    # incident's declaration is for "I'm IC" ("who was IC for the checkout
                    # incident?")
                    candidate.questions = [*candidate.questions[:4], sentences[0]]
                if candidate is not None and parent is not None and not asked and (
                        parent.speaker != line.speaker
                        and _ADDS_TO_PARENT.search(_ANNOTATED.sub("", sentence))
                        or _points_back(_ANNOTATED.sub("", sentence), parent.content)):
                    said = _ANNOTATED.sub("", parent.content).strip()[:_PARENT_QUESTION_CHARS]
                    candidate.questions = [*candidate.questions[:4], said]
                if candidate is not None and points:
                    # "fixed 1 with a lock and 2 with capped exponential backoff" under a review's
                    # numbered issues: the points it names are what it is found by ("is the
                    # thread-safety issue fixed?" shared "fixed" alone with it)
                    candidate.questions = [*candidate.questions[:4],
                                           points[:_PARENT_QUESTION_CHARS]]
                if candidate is not None and parent is None and declared is not None \
                        and declared is not line and (_STATES_CAUSE.search(sentence)
                                                      or _MITIGATES.search(sentence)) \
                        and line.ts - declared.ts <= INCIDENT_WINDOW:
                    # (and what was done about it: "reverted the config, results back to
                    # normal", for "how was the search issue fixed?")
                    # "Root cause looks like the new connection pool limit", said in the
                    # channel while checkout's SEV2 was open, is found by what was declared
                    # ("what caused the checkout incident?" was declined)
                    said = _ANNOTATED.sub("", declared.content).strip()[:_PARENT_QUESTION_CHARS]
                    candidate.questions = [*candidate.questions[:4], said]
                if candidate is not None and parent is not None and context is not None \
                        and context is not parent and _points_back(
                            _ANNOTATED.sub("", context.content), parent.content):
                    # "Yes, 14 accounts." answers "do we have a list of who still calls it?",
                    # itself a reply: the thread's opening says what "it" is ("how many
                    # accounts still use v1 webhooks?")
                    said = _ANNOTATED.sub("", parent.content).strip()[:_PARENT_QUESTION_CHARS]
                    candidate.questions = [*candidate.questions[:4], said]
                titled = next((introduced[i] for i in PR_NUMBER.findall(sentence)
                               if introduced[i] is not line), None) \
                    if candidate is not None and "#" in sentence else None
                said = split_sentences(_ANNOTATED.sub("", titled.content))[0] \
                    if titled is not None else ""
                if said and any(i in said for i in PR_NUMBER.findall(sentence)):
                    # "merged #1502, deploying with the 2.14 train on Tuesday" is found by what
                    # #1502 is ("when does the idempotency change ship?" was declined): the
                    # first sentence of the message that first named it, if it names it (a
                    # title, "Review of PR #1502 (payments: idempotency keys)", no "Understood!")
                    if said not in candidate.questions:
                        candidate.questions = [*candidate.questions[:4],
                                               said[:_PARENT_QUESTION_CHARS]]
                if candidate is not None and judged is not None \
                        and judged.index not in candidate.source_lines:
                    candidate.source_lines = [*candidate.source_lines, judged.index]
                    said = _ANNOTATED.sub("", judged.content).strip()[:_PARENT_QUESTION_CHARS]
                    candidate.questions = [*candidate.questions[:4], said]
                if candidate is not None and awaited is not None:
                    said = _ANNOTATED.sub("", awaited).strip()[:_PARENT_QUESTION_CHARS]
                    candidate.questions = [*candidate.questions[:4], said]
                if candidate is not None and quoted:
                    said = _ANNOTATED.sub("", quoted)[:_PARENT_QUESTION_CHARS]
                    candidate.questions = [*candidate.questions[:4], said]
                if candidate is None and _REQUEST.match(_ANNOTATED.sub("", sentence)):
                    candidate = self._request(sentence, line, last, seen)
                    if candidate is last:
                        continue
                dropped = False
                bare = _ANNOTATED.sub("", sentence)
                if last is not None and (
                        (candidate is not None and _SUBJECTLESS.match(bare)
                         and len(sentence.split()) <= _SUBJECTLESS_WORDS)
                        or (candidate is not None and _FIGURES.match(bare)
                            and len(bare.split()) <= _SUBJECTLESS_WORDS
                            and (_DONE_NOTE.match(_ANNOTATED.sub("", last.content).strip())
                                 # a running count of what the statement is about: "Webinar
                                 # with Acme confirmed for Dec 16, 11am ET. 240 signups so far."
                                 or _SO_FAR.search(bare)))
                        # "launch slips to Dec 15. Embargo moves with it": what moves along
                        # moves to the same day (alone, "when does the embargo lift?" kept the
                        # day it left)
                        or (_MOVES_ALONG.match(bare) and len(bare.split()) <= _SUBJECTLESS_WORDS
                            and SAYS_MOVED.search(last.content))
                        or ((_SHORT_UPDATE.match(bare) or _NOUN_DUE.match(bare)
                             # "Jonas countered at €92k, we met at €89k. He accepted!": who is
                             # the statement's (alone it was dropped, and the acceptance with it)
                             or _PRONOUN_DID.match(bare))
                            and len(bare.split()) <= _SHORT_UPDATE_WORDS
                            and not bare.rstrip().endswith("?"))
                        # "Holiday party is Dec 18 at 6pm. RSVP by Dec 10. Plus-ones welcome.":
                        # a short note after a statement is the statement's ("when do I need to
                        # RSVP for the holiday party?"), kept for its date or not kept at all
                        or (_JOINS.match(bare)
                            and (candidate is None and len(bare.split()) < _MIN_WORDS
                                 or len(bare.split()) <= _SHORT_UPDATE_WORDS
                                 and _ANNOTATED.search(sentence)
                                 and _DATED_NOTE.match(bare.strip())
                                 # under a statement, not another short note ("Globex fixed
                                 # too. Postmortem on Friday.": two things)
                                 and len(_ANNOTATED.sub("", last.content).split()) > _MIN_WORDS)
                            and not _CHITCHAT.match(bare.strip())
                            and not _hints_secret(bare))):
                    # "Datadog quote … came in at $7.8k/month. Need a decision by Dec 15.": the
                    # deadline is the quote's, and alone it was nobody's
                    seen.discard((last.type, last.content))
                    said = candidate.content if candidate is not None else (
                        third_person(sentence, line.speaker) if line.author else sentence)
                    last.content = f"{last.content} {said.strip()}"
                    last.dates = [*last.dates, *(candidate.dates if candidate is not None else
                                                 [m.group(1) for m in _ANNOTATED.finditer(sentence)])]
                    seen.add((last.type, last.content))
                    continue
                if candidate is None and last is not None and _SHORT_ADVICE.match(sentence):
                    # "… compares tokens with ==, which leaks timing. Use hmac.compare_digest.":
                    # too short alone, the advice belongs to what it answers
                    seen.discard((last.type, last.content))
                    last.content = f"{last.content} {sentence.strip()}"
                    seen.add((last.type, last.content))
                elif candidate is None:
                    let_go.append((sentence, line))
                    dropped = True
                elif (candidate.type, candidate.content) not in seen:
                    seen.add((candidate.type, candidate.content))
                    out.append(candidate)
                    last = candidate
            previous = line
        _with_thread_subjects(out, by_index)
        long_lines = {line.index for line in lines if is_long(line.content)}
        write_ups = {line.index for line in lines
                     if len(_SECTION.findall(line.content)) >= SECTIONS_OF_A_WRITE_UP}
        if len(lines) < DETAIL_PASS_MIN_MESSAGES:
            return bounded(out, long_lines=long_lines, write_ups=write_ups)
        return bounded(merge_candidates([out, self._detail_pass(let_go)]), long_lines=long_lines,
                       write_ups=write_ups)

    @staticmethod
    def _request(sentence: str, line: TranscriptLine, last: Candidate | None,
                 seen: set[tuple[str, str]]) -> Candidate | None:
        """Work asked of anyone, as a task: a short request joins this message's memory before
        it ("Initech wants to know if they're affected. Can someone check before EOD?"), a
        longer one stands alone."""
        dates = [m.group(1) for m in _ANNOTATED.finditer(sentence)]
        text = third_person(sentence, line.speaker) if line.author else sentence
        if last is not None and last.source_lines[:1] == [line.index]:
            seen.discard((last.type, last.content))
            last.type, last.content = "task", f"{last.content} {text.strip()}"
            last.dates = [*last.dates, *dates]
            seen.add((last.type, last.content))
            return last
        if len(_ANNOTATED.sub("", sentence).split()) < _REQUEST_ALONE_WORDS:
            return None
        return Candidate(type="task", content=text.strip(), source_lines=[line.index],
                         dates=dates)

    @staticmethod
    def _detail_pass(let_go: list[tuple[str, TranscriptLine]]) -> list[Candidate]:
        """Short statements that carry a concrete value ("ok, v2.3.1 then", "$40 each"): kept as
        what their speaker said, since alone they do not stand as a memory. Questions and
        secrets stay out, as in the full pass."""
        out = []
        for sentence, line in let_go:
            bare = _ANNOTATED.sub("", sentence).strip()
            if bare.endswith("?") or _hints_secret(bare) or not _CONCRETE.search(bare):
                continue
            dates = [m.group(1) for m in _ANNOTATED.finditer(sentence)]
            content = third_person(sentence, line.speaker) if line.author else sentence
            out.append(Candidate(type="fact", content=f"{line.speaker} said: {content}",
                                 source_lines=[line.index], dates=dates))
        return out

    @staticmethod
    def _correction(line: TranscriptLine, parent: TranscriptLine) -> Candidate:
        """"Correction: actually it's 50 MB since the 4.1 release, tom bumped it on Monday (to
        priya's "FYI the max upload size on the API is 25 MB.")": the reply whole, in the third
        person, with the first sentence of what it corrects."""
        said = " ".join(line.content.split())
        said = third_person(said, line.speaker) if line.author else said
        quoted = _opening(parent)
        bare = _ANNOTATED.sub("", said)
        dates = [m.group(1) for m in _ANNOTATED.finditer(said)]
        dates += [d.isoformat() for _, d in parse_date_text(bare)]
        return Candidate(type=classify(bare, bool(dates)),
                         content=f"Correction: {said} (to {parent.speaker}'s \"{quoted}\")",
                         source_lines=[line.index, parent.index], dates=dates)

    @staticmethod
    def _tried(line: TranscriptLine, tried: TranscriptLine,
               parent: TranscriptLine | None) -> Candidate:
        """"Fix confirmed by dev1: the healthcheck uses … (dev3's answer to dev1's "anyone know
        why …?")", "Did not work for dev1 ("nope, still hangs"): try … (dev2's suggestion on
        …)": what was tried, whole, with how it went and the thread's first sentence."""
        said = " ".join(_ANNOTATED.sub("", tried.content).split())
        said = third_person(said, tried.speaker) if tried.author else said
        quoted = _opening(parent) if parent is not None else ""
        on = f" to {parent.speaker}'s \"{quoted}\"" if parent is not None and quoted else ""
        word = " ".join(_ANNOTATED.sub("", line.content).split())
        content = (f"{FIX_CONFIRMED}{line.speaker}: {said} ({tried.speaker}'s answer{on})"
                   if TRIED_WORKED.match(word) else
                   f"{DID_NOT_WORK}{line.speaker} (\"{word}\"): {said} ({tried.speaker}'s "
                   f"suggestion{on.replace(' to ', ' on ', 1)})")
        dates = [d.isoformat() for _, d in parse_date_text(said)]
        return Candidate(type="fact", content=content, questions=[quoted] if quoted else [],
                         source_lines=[line.index, tried.index]
                         + ([parent.index] if parent is not None else []), dates=dates)

    @staticmethod
    def _decision(line: TranscriptLine, parent: TranscriptLine,
                  label: str = "Decision: ") -> Candidate:
        """"Decision: OK let's go with SQS for now, revisit in Q2 (on alice's "Should we use
        Kafka or SQS for the event bus?")": the reply whole, in the third person, with the first
        sentence of the thread it settles (an incident's resolution: no label, it opens with
        "Resolved")."""
        candidate = OfflineExtractor._correction(line, parent)
        said, _, _ = candidate.content.removeprefix("Correction: ").rpartition(" (to ")
        opened = candidate.content[len("Correction: ") + len(said) + len(" (to "):]
        if label and said.lower().startswith(label.strip().lower()):
            label = ""  # "Decision: we move to GitHub Actions …" said so itself ("Decision:
            # Decision: …" was the memory)
        candidate.content = f"{label}{said} (on {opened}"
        return candidate

    @staticmethod
    def _question_context(previous: TranscriptLine | None, line: TranscriptLine
                          ) -> tuple[list[str], TranscriptLine | None]:
        """The questions the previous message asked this one's author, in neutral words, and that
        message; nothing when there was no question or the author is answering themself."""
        if previous is None or previous.speaker == line.speaker:
            return [], None
        said = _ANNOTATED.sub("", previous.content)
        if line.ts - previous.ts > _ANSWER_WITHIN and line.reply_to != previous.index \
                and not set(keywords(said, 20)) & set(keywords(line.content, 20)):
            return [], None
        asked = [addressed_to(third_person(q, previous.speaker), line.speaker)
                 for q in asked_questions(said)]
        if not asked:
            # a problem reported is asked too: "after upgrading to 2.3.0 I get ImportError:
            # cannot import name 'Session'" then "Session moved to fastq.sessions in 2.3" (the
            # answer is found by the error's words, and cites the report)
            asked = [third_person(r.strip(), previous.speaker)[:_QUESTION_CONTEXT_CHARS]
                     for r in split_sentences(said) if _REPORTS_PROBLEM.search(r)
                     # (any of their words: a pasted error's name comes late in the report,
                     # "after upgrading to 1.4.0 I get `TypeError: … argument 'timeout_ms'`")
                     and set(keywords(r, 20)) & set(keywords(line.content, 20))][:1]
        return (asked, previous) if asked else ([], None)

    def _candidate(self, sentence: str, line: TranscriptLine, asked: list[str],
                   context: TranscriptLine | None,
                   people: Collection[str] = (), points: str = "") -> Candidate | None:
        bare = _ANNOTATED.sub("", sentence).strip()
        who = next((q for q in asked if _WHO.match(q)), None)
        if who and _ME.match(bare):  # "Who's on call this week?" "Yes me." (no chitchat)
            return Candidate(type="fact", content=f"{who} {line.speaker}.",
                             questions=search_questions(None, asked),
                             source_lines=[line.index] + ([context.index] if context else []))
        request = next((q for q in asked if _PUT_TO_ANYONE.search(q)), None)
        if request and _CLAIMS.match(bare):
            # "can someone review tom's PR #901?" "on it": sam took it (too short, and "will
            # do" chitchat: "who is reviewing #901?" had no answer, nor the PR's open work)
            return Candidate(type="task", content=f"{request} {line.speaker} is on it.",
                             questions=search_questions(None, asked),
                             source_lines=[line.index] + ([context.index] if context else []))
        if _is_question(sentence) or _CHITCHAT.match(bare) or _hints_secret(bare):
            return None
        short = word_count(bare) < _MIN_WORDS and not _COLON_VALUE.match(bare) \
            and not (_ANNOTATED.search(sentence) and _DATED_NOTE.match(bare)) \
            and not _DONE_NOTE.match(bare) and not _SHORT_SETTING.match(bare) \
            and not _AWAY_NOTE.match(bare) and not _STATE_NOTE.match(bare) \
            and not _CHOICE_NOTE.match(bare) \
            and not _SECRET_SHARED.match(bare) \
            and not _SHORT_MEASURE.match(bare) \
            and not (_DID_NOTE.match(bare) and bare == _ANNOTATED.sub("", line.content).strip()) \
            and not states_alert(bare) \
            and not points  # "docs done" under a checklist's "- [ ] docs updated"
        if short and not (asked and (keywords(bare) or _COUNT_ANSWER.match(bare) and any(
                _ASKS_COUNT.match(q) for q in asked))):
            return None
        dates = [m.group(1) for m in _ANNOTATED.finditer(sentence)]
        dates += [d.isoformat() for _, d in parse_date_text(bare)]
        # "Standing rule: never deploy on Fridays" is classified by what follows its label
        labelled = _COLON_VALUE.match(bare)
        memory_type = classify(labelled.group("value") if labelled and _OPENER.match(
            labelled.group("subject").strip()) else bare, bool(dates))
        content = third_person(sentence, line.speaker) if line.author else sentence
        if context is not None and asked and context.author and line.author \
                and line.role == context.role == "user" \
                and word_count(line.content) <= _SHORT_ANSWER_WORDS \
                and _ANY_FIRST_PERSON.search(_ANNOTATED.sub("", context.content)):
            # a short answer's "you" is who asked of themself: "dad will pick you up" after
            # leo's "can someone get me from the airport?" ("who is picking Leo up?" was
            # declined); not after "is the VPN down for anyone else?" ("VPN is back, you can
            # switch back", to anyone), and a longer reply's "you" is as often anyone ("do your
            # research", "let you know")
            content = addressed_to(content, context.speaker)
        if short:  # "The Minnesota Wolves!" only means something next to its question
            # (with its dates' labels: "partners welcome for the dinner on the 4th
            # [2027-03-04]?", read in its thread, is no 4th of the month the answer was said in)
            question = _with_labels(asked[-1], context.content) if context else asked[-1]
            content = f"{question} {line.speaker}: {content}"
        topic = topic_for(bare, memory_type, line.speaker, people)
        sources = [line.index] + ([context.index] if context is not None else [])
        return Candidate(
            type=memory_type,
            content=content,
            topic_key=topic,
            questions=search_questions(topic, asked),
            source_lines=sources,
            dates=dates,
        )
