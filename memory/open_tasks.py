"""What is still open: the work a channel took on or asked for that no later message says is done.

"What tasks are still open?" was answered "I don't have anything about that in memory": the
question shares no word with "lena will take the flaky login test" or "TODO: @raj please write
the release notes", and nothing related a later "Fixed the flaky login test, PR #1290 merged" to
the task it closes. Like date arithmetic, this is worked out in code before the answer:

- a **commitment** is a task memory, or a memory that says someone will do, is going to do, can
  do or must do something ("omar can do the webhook rotation tomorrow morning"), a standup's plan
  ("Today: …") or a blocker ("Blockers: waiting on Okta access", not "Blockers: none");
- a later memory about the same work (two content words in common and at least SHARED of the
  smaller one's, names and the words of commitment and time aside; no version, ticket or PR
  named by both that differs) **closes** it when it says the work is done ("fixed", "merged",
  "rotated", "done" …) and not that it is partly done or still going ("about half done",
  "still in progress", "blocked"); otherwise it is the commitment's **latest word** (a later
  commitment to the same work too: "will finish tomorrow");
- the answer lists what is open, each with its latest word, then what was closed and by what;
  "who is blocked?" the work whose latest word is a blocker.

Only the profile's newest memories are read (RECENT, said within WINDOW of the question): an
open question is about the work in flight, and reading a whole year's profile for it would cost
more than every other recall. Nothing is changed in the store: a commitment someone forgot to
close stays open here, and stays visible to every other question.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .dates import format_human
from .models import Memory
from .offline_answerer import content_stems
from .people import name_letters
from .text import ASKED_OF_ANYONE
from .updates import PR_NUMBER

RECENT = 1000  # the newest memories read for an open-work question
WINDOW = timedelta(days=60)  # and of those, the ones said this long before it

_ASKS_OPEN = re.compile(
    r"(?i)\b(?:open|outstanding|pending|unfinished|remaining|unresolved)\s+(?:tasks?|action items?|"
    r"todos?|to-dos?|items?|work|tickets?|follow[- ]ups?)\b"
    r"|\b(?:tasks?|action items?|todos?|to-dos?|follow[- ]ups?|tickets?|bugs?)\b[^?.!]*\b(?:open|"
    r"outstanding|"
    r"pending|left|remaining|not done|unfinished|unresolved)\b"
    r"|\bwhat(?:'s|\u2019s| is| are)\s+(?:still\s+)?(?:open|outstanding|pending|unfinished)\s*"
    r"(?:right now|now|today|this week|for (?:the|this) (?:sprint|week|release))?\s*\??\s*$"
    r"|\bwhat(?:'s|\u2019s| is)\s+(?:still\s+)?left(?:\s+to\s+do|\s+(?:(?:for|in|on)\s+)?"
    r"(?:the|this)\s+(?:sprint|week|release|milestone|board))?\s*\??\s*$"
    r"|\bwhat\s+remains\s+to\s+be\s+done\b"
    r"|\bwhat (?:do|does) (?:we|the team) still (?:need|have) to do\b"
    r"|\bwhat(?:'s|\u2019s| is)\s+(?:still\s+)?open\s+(?:in|on|for)\s+(?!the\s+(?:weekend|"
    # (not of one PR or ticket: "what's still open on 1502?" asks what its review left, and was
    # "I don't have any tasks …")
    r"holidays?)\b|(?:(?:the\s+)?(?:pr|pull\s+request|ticket|issue)\s*)?#?\d+\b|[a-z]+-\d+\b)"
    r"|\bto-?do list\b"
    # "is anything still open?", "anything outstanding?", "is there anything left to do?"
    r"|^\W*(?:(?:is|are)\s+(?:there\s+)?)?anything\s+(?:else\s+)?(?:still\s+)?(?:open|outstanding|"
    r"pending|unresolved|unfinished|left(?:\s+to\s+do)?)\s*"
    r"(?:right now|now|today|this week|for (?:the|this) (?:sprint|week|release))?\s*\??\s*$"
    r"|\bwhat still needs? (?:doing|to be done)\b"
    r"|\bwhat (?:has|have)(?:n't|\u2019t| not) been done(?: yet)?\s*\??\s*$")

# Someone at the start of a clause (a name, "I", "we", "he", "she", "someone"; not "the cache",
# "it", "you") who will, is going to, can or must do something (not "be" or "have": "maya will
# be out tomorrow" is no work)
_COMMITS = re.compile(
    r"(?i)\b(?:todo|to-do|action items?|follow[- ]ups?)\b"
    r"|(?:^|[,;:.!?(]\s*|\b(?:and|so|then|ok|okay|also|fyi|btw)\s+|@\w+\s+|@)"
    r"(?!(?:it|this|that|there|these|those|which|what|you|they)\b)"
    r"[a-z][\w.-]*(?:\s+will|['\u2019]ll|\s+(?:is|are|am) going to|\s+can (?:do|take|handle|start|own|pick up|look into|write|fix)|"
    # (nor whom they report to or which team they join: "Tomás will report to Aisha, not Wei"
    # answered "what is Tomás working on?" as his open work)
    r"\s+needs? to|\s+has to|\s+have to)\s+(?!be\b|have\b|been\b|get\b|report\s+(?:to|into)\b|"
    r"join\b|move\s+to\s+the\b)\w"
    r"|\b(?:is|are) on it\b"
    # a request put to someone ("TODO: @raj please write …"), not a courtesy ("no merges please")
    r"|(?:^|[:;,.!?]\s*|@\w+\s+|\b(?:can|could|would) (?:you|someone|somebody)\s+)please\s+\w"
    # work asked of anyone ("Can someone check before EOD?", "who can take the swap?")
    rf"|\b(?:{ASKED_OF_ANYONE})")
# A standup's plan and blockers ("Today [2026-11-24]: pairing with priya on the SSO bug", "- today:
# write the runbook", "Blockers: need API keys for the Stripe test account"; not "Blockers: none")
# (whose, in brackets, as memory.standup_forms writes a standup bot's: "Today (maya's Daily
# Standup): …")
_PLAN = re.compile(r"(?i)^\W*(?:today|this week|plan|next up|next)\s*(?:\[[^\]]*\])?"
                   r"\s*(?:\([^)]*\))?\s*:\s*\w")
_BLOCKER = re.compile(r"(?i)\bblock(?:ers?|ed(?: on| by)?)\s*(?:\[[^\]]*\])?\s*(?:\([^)]*\))?"
                      r"\s*:\s*"
                      r"(?!(?:none|no|nothing|nope|n/?a)\b)\w"
                      r"|\b(?:is|are|am|still) blocked\b|\bwaiting (?:on|for)\b"
                      # a standup's "… today pairing with omar. Blocked on staging creds." (raj
                      # "has not said they are blocked" was the answer)
                      r"|(?:^|[.!?;]\s+|,\s*|\b(?:and|but)\s+)blocked\s+(?:on|by)\s+(?!nothing\b)\w")
_DONE = re.compile(
    r"(?i)\b(?:done|fixed|merged|shipped|finished|completed|resolved|closed|landed|deployed|"
    r"released|rotated|revoked|sent|published|migrated|delivered|wrapped up|taken care of|"
    # "all 312 orders refunded" closes "refund the 312 orders"
    r"refunded|reimbursed|credited|paid out|"
    r"sorted out|all set|came through|unblocked|granted|(?:is|are) (?:now )?live)\b"
    r"|^\W*\[x\]")  # a box ticked: "[x] runbook updated for the new LB"
_NOT_YET = re.compile(
    r"(?i)\b(?:not|half|halfway|partly|partially|mostly|almost|still|in progress|wip|blocked|"
    r"started|starting|pending|left|remaining|until|yet|tomorrow|will|going to)\b|n't\b"
    r"|(?<![\d.])\d{1,2}\s?%")  # "Queue migration is 60% done": under way, not done
# words of commitment, time and filler: two memories sharing only these share no work
_NOT_WORK = frozenset(content_stems(
    "will going can do take taking took need needs has have please todo to-do action item follow "
    "up own owns on it this next week today tomorrow morning afternoon evening monday tuesday "
    "wednesday thursday friday saturday sunday by before after still now done fixed looks like "
    "the a an is are was utc gmt cet pst est am pm"))
# whose a standup bot's answer is ("Blockers (maya's Daily Standup): …"): no work in common with
# tom's "Blockers (tom's Daily Standup): No blockers"
_WHOSE_LABEL = re.compile(r"^(\W*[\w ]{1,30}?)\s*\([^()]*\)\s*:")
_NUMBER = re.compile(r"^[\d:.,/-]+$")  # a time or count is no work in common ("18:00", "14")
_DATE_NOTE = re.compile(r"\s*\[[^\]]*\d{4}-\d\d-\d\d[^\]]*\]")
# what names one piece of work among many alike: a version, ticket, PR or region ("v9920",
# "3.2", "#1290", "OPS-12"); not a time or a count
_IDENTIFIER = re.compile(r"(?<![\w.])#?[A-Za-z]*[A-Za-z-]?\d+(?:[.-]\w+)*\b")
# "ZD-9921", "OPS-12"; not an encoding, a standard or a hash ("UTF-8", "ISO-8601", "SHA-256")
_NOT_A_TICKET = r"(?!(?:UTF|ISO|COVID|SHA|MD|AES|RSA|HTTP|TLS|SSL|IPV|X|CVE)-)"
_TICKET_ID = re.compile(rf"(?<![\w.-]){_NOT_A_TICKET}(?-i:[A-Z][A-Z0-9]+-\d+)\b")
_TIME_OR_COUNT = re.compile(r"^\d+$|^\d{1,2}[:.]\d\d$")
SHARED = 0.4  # the share of the smaller memory's work words two memories about one work have
# A note's list of work, as the extractor keeps it (memory.note_lists): "Retro notes (sprint 47),
# Action items: @tomas: quarantine the flaky e2e tests; @lena: add disk alerts …". Each item is
# work of its own: one done closes no other, and the note's words are no item's.
_WORK_LIST = re.compile(r"^(?P<label>[^:\n]{0,120}?\b(?:action items?|todos?|to-dos?|next steps|"
                        r"follow[- ]ups?|sprint\s*\d*\s+(?:planning|plan|scope|goals?|commitments?)|"
                        r"backlog)\b[^:\n]{0,60}?)\s*:\s*(?P<items>.+?)\.?$",
                        re.IGNORECASE | re.DOTALL)  # ("Action items from the postmortem: …")


# items numbered in one line: "Action items from the postmortem: 1) add alerting on cert expiry
# (ravi) 2) rotate the webhook secret quarterly (omar) 3) …" (it was one task, closed by none)
_NUMBERED = re.compile(r"(?:^|\s)\(?\d{1,2}[).]\s+(?=\S)")
_AFTER_ASIDE = re.compile(r"(?<=\)),\s+(?:and\s+)?")  # items each with its aside, then a comma
# a note's items that are work among others: "Weekly sync notes: Decided: …; AI: @sam to update
# the runbook by Fri; AI: nina to email Acme …; Open question: …" ("AI" is an action item)
_WORK_MARK = re.compile(r"(?:AI|A/I|Action(?: item)?|TODO|To-?do|Follow[- ]up)\s*(?:\([^)]*\))?"
                        r"\s*:\s*(?=\S)|\[ \]\s*(?=\S)", re.IGNORECASE)
_NOTE_LABEL = re.compile(r"^(?P<label>[^:;\n]{1,80}?)\s*:\s*(?=\S)")
# a note's points that each put work to someone: "Meeting notes from planning: maya: write the
# caching RFC by Friday; sam: benchmark the new parser; priya: talk to Acme" (no item was work,
# and "what does maya need to do?" was declined)
_ASSIGNEE = re.compile(r"^@?(?P<who>[a-z][\w.-]{1,30})\s*(?::|\s[-\u2013\u2014]\s)\s*"
                       r"(?P<work>[a-z][^:]*)$"
                       # "• <@U1> to write the RFC", as Slack's mention reads: "@maya to write …"
                       r"|^@(?P<mentioned>[a-z][\w.-]{1,30})\s+(?:to|will|should|can)\s+"
                       r"(?P<does>[a-z][^:]*)$", re.IGNORECASE)
# a note's own headings, which are nobody: "Decided: …; Open question: …; Status: …"
_NOT_ASSIGNEES = frozenset(
    "decided decision decisions agenda notes note status blockers blocker blocked done next "
    "owner owners eta context question questions risk risks update updates summary outcome "
    "outcomes action actions ai todo todos fyi why what where when who how goal goals scope "
    "problem solution result results impact cause fix timeline attendees date dates deadline "
    "priority pros cons plan plans q a re tl;dr tldr followup follow-up followups".split())


def work_items(memory: Memory) -> list[tuple[Memory, str]]:
    """Each item of a memory that lists work, as a task with the list's label (and the item's
    own words, which are what it is compared by); any other memory as it is."""
    listed = _WORK_LIST.match(memory.content)
    if listed:
        items = [i.strip() for i in listed.group("items").split("; ")]
        if len(items) < 2:
            items = [i.strip() for i in _NUMBERED.split(listed.group("items"))]
        if len(items) < 2:  # "SSO for Acme (8 pts, dana), CSV export fix (3 pts, omar), …"
            items = [i.strip() for i in _AFTER_ASIDE.split(listed.group("items"))]
        label = listed.group("label").strip()
    else:  # a note's points, of which those marked as work are tasks
        parts = memory.content.split("; ")
        noted = _NOTE_LABEL.match(parts[0]) if len(parts) > 1 else None
        if noted is not None:
            parts[0] = parts[0][noted.end():]
        items = [_WORK_MARK.sub("", p, count=1).strip().rstrip(".") for p in parts
                 if _WORK_MARK.match(p.strip())] if noted is not None else []
        if noted is not None and not items:
            put = [a for p in parts if (a := _ASSIGNEE.match(p.strip().rstrip(".")))
                   and _assignee(a) not in _NOT_ASSIGNEES]
            if len(put) >= 2 and len(put) * 2 >= len(parts):
                items = [a.group(0) for a in put]
        label = noted.group("label").strip() if noted is not None else ""
    items = [i for i in items if i]
    # (a list of one is the memory itself; a note with one point marked as work is that work)
    if not items or listed and len(items) < 2:
        return [(memory, memory.content)]
    # (each item with its own dates: "sam: benchmark the new parser" is not due on the Friday
    # of "maya: write the caching RFC by Friday")
    return [(memory.model_copy(update={
        "content": f"{label}: {item}", "type": "task",
        "event_dates": [e for e in memory.event_dates if e.phrase.lower() in item.lower()]}), item)
        for item in items]


def asks_open_work(question: str) -> bool:
    """Whether the question asks what work is still open ("what tasks are still open?",
    "what's left for the sprint?", "any outstanding action items?")."""
    return bool(_ASKS_OPEN.search(question.strip()))


def is_blocked(memory: Memory) -> bool:
    return bool(_BLOCKER.search(memory.content))


_BLOCKER_END = re.compile(r"[.!?;\n]")
_BLOCKER_WORDS = frozenset(content_stems("blocked blocker blockers blocking waiting wait on for by"))


def blocker_stems(memory: Memory) -> set[str]:
    """The work words of what a memory says it is blocked on ("Blocked on staging creds.")."""
    found = _BLOCKER.search(memory.content)
    if found is None:
        return set()
    end = _BLOCKER_END.search(memory.content, found.end())
    said = memory.content[found.start():end.start() if end else len(memory.content)]
    return {s for s in content_stems(_DATE_NOTE.sub("", said)) if not _NUMBER.match(s)} \
        - _NOT_WORK - _BLOCKER_WORDS


# a ticket reported is work until it is closed: "New ticket ZD-9921: checkout button does nothing
# on Safari 17", "ZD-9950: CSV export times out …" ("what tickets are still open?" was declined)
_TICKET_OPENED = re.compile(r"(?i)\b(?:new|opened|filed|created|raised|logged)\s+(?:an?\s+)?"
                            r"(?:ticket|issue|bug)\b|^\W*(?:ticket|bug|issue)\s+#?[A-Z][A-Z0-9]*-\d+\b"
                            rf"|^\W*{_NOT_A_TICKET}(?-i:[A-Z][A-Z0-9]+-\d+)\s*:")


def _put_to_someone(content: str) -> str | None:
    """Whom an item of a note is put to (work_items), lower case, or None: "Meeting notes from
    planning: maya: write the caching RFC by Friday" is maya's work, after its Friday too, until
    said done."""
    label = _NOTE_LABEL.match(content)
    item = _ASSIGNEE.match(content[label.end():].rstrip(".")) if label else None
    who = _assignee(item) if item is not None else None
    return who if who not in _NOT_ASSIGNEES else None


def assignees(work: list[OpenWork]) -> set[str]:
    """Whom the items of notes among `work` are put to, lower case ("maya" of "Meeting notes:
    @maya to write the caching RFC")."""
    return {who for w in work if (who := _put_to_someone(w.commitment.content))}


def _assignee(item: re.Match) -> str:
    return (item.group("who") or item.group("mentioned")).lower()


def is_commitment(memory: Memory, now: datetime) -> bool:
    """Said as work someone will do or is blocked on, or a ticket reported; a task-typed memory
    whose days are all past and that says no commitment is an announcement ("deploy freeze …
    until Monday, no merges please")."""
    if _COMMITS.search(memory.content) or _PLAN.search(memory.content) or is_blocked(memory) \
            or _TICKET_OPENED.search(memory.content) or bool(_put_to_someone(memory.content)):
        return True
    return memory.type == "task" and not (
        memory.event_dates and all(d.end < now.date() for d in memory.event_dates))


# what a blocker waited on, given: "staging creds are in 1Password", "got creds", "the sandbox is
# ready"
_GIVEN = re.compile(r"(?i)\b(?:got|received|(?:are|is) (?:now )?(?:in|at|under|on)|"
                    r"(?:now )?(?:have|has) access|"
                    # "the AWS sandbox is ready, creds in the vault"
                    r"(?:are|is) (?:now )?(?:ready|available|provisioned|set up|up))\b")


def says_given(memory: Memory) -> bool:
    return bool(_GIVEN.search(memory.content)) and not _NOT_YET.search(memory.content)


def says_done(memory: Memory) -> bool:
    return bool(_DONE.search(memory.content)) and not _NOT_YET.search(memory.content)


# A review's clauses each say how one piece of work stands: "Sprint 48 review: CSV fix done, SSO
# slipped to sprint 49, billing v2 doc at 60%" closes the CSV fix, not the billing v2 doc (it did:
# "done" was anywhere in the memory)
_CLAUSE_BREAK = re.compile(r",\s|;\s|\.\s|[!?\n]")


_PARTICIPLE = re.compile(r"(?i)\b[a-z]{3,}ed\b")
_STILL_TO_DO = re.compile(r"(?i)\b(?:needs?|should|must|has to|have to|to be|asked|ask|wants?)\b")


def _own_deed_done(clause: str, work_words: set[str]) -> bool:
    """The work's own verb said done of its own thing: "SSL cert renewed, good until Dec 2027"
    closes "TODO: renew the SSL cert" (no word of a list of done verbs could hold every deed)."""
    if _NOT_YET.search(clause) or _STILL_TO_DO.search(clause):
        return False
    words = content_stems(clause)
    return len(words & work_words) >= 2 and any(
        (stem := content_stems(p)) and stem <= work_words and p.lower() not in stem
        for p in _PARTICIPLE.findall(clause))


def closes(memory: Memory, work_words: set[str]) -> bool:
    """Whether `memory` says the work of `work_words` is done: said so in a clause about it,
    where the memory has several."""
    clauses = [c for c in _CLAUSE_BREAK.split(memory.content) if c.strip()]
    if any(_own_deed_done(c, work_words) for c in clauses):
        return True
    if len(clauses) < 2:
        return says_done(memory)
    # (a clause that says done of nothing in its own words is of what the memory is about: "Done
    # with #2, webhook secret rotation is now a quarterly cron.")
    return any(_DONE.search(c) and not _NOT_YET.search(c)
               and (content_stems(c) & work_words
                    or not {w for w in content_stems(c) if not _NUMBER.match(w)} - _NOT_WORK)
               for c in clauses)


# work taken on in a reply that names it only as "it": "sure, I'll do it by Thursday" to
# "@omar can you update the runbook for the failover?" (listed as "omar will do it by Thursday")
_TAKES_IT_ON = re.compile(r"(?i)\b(?:do|take|handle|grab|own|fix|finish|tackle|pick up|look "
                          r"into|sort)\s+(?:it|that|this)\b|\b(?:on it|will do)\b")


def asked_of(memory: Memory) -> bool:
    """Whether `memory` takes on, as "it", the work its message answers."""
    return bool(memory.questions) and bool(_TAKES_IT_ON.search(memory.content))


@dataclass
class OpenWork:
    commitment: Memory
    latest: list[Memory] = field(default_factory=list)  # later words on it, oldest first
    closed_by: Memory | None = None
    unblocked_by: Memory | None = None  # what it was blocked on came (among `latest`)


def open_work(memories: list[Memory], now: datetime,
              names: Callable[[Memory], set[str]] = lambda m: set()) -> list[OpenWork]:
    """Each commitment among `memories` with the later memories about the same work: the one
    that closes it, or its latest words. `names`: the stems of the people a memory names (its
    speakers), which are no work in common."""
    listed = [pair for m in memories for pair in work_items(m)]
    said = sorted((m for m, _ in listed), key=lambda m: (m.said_at, m.id))
    own_words = {id(m): words for m, words in listed}
    work: list[OpenWork] = []
    # by object, not memory id: the items of one list share their memory's id
    stems: dict[int, set[str]] = {}
    ids: dict[int, set[str]] = {}
    tickets: set[str] = set()  # of the identifiers, the tickets' ("zd-9921"), not versions

    def about(m: Memory) -> set[str]:
        if id(m) not in stems:
            text = _WHOSE_LABEL.sub(r"\1:", _DATE_NOTE.sub("", own_words.get(id(m), m.content)))
            if asked_of(m):
                text += " " + " ".join(m.questions)
            stems[id(m)] = {s for s in content_stems(text)
                            if not _NUMBER.match(s)} - _NOT_WORK - names(m)
            # (a PR's number is one: "Blockers: need a reviewer for #3201" took raj's
            # "reviewed #3188, merged" as its latest word, and "who is blocked?" had nobody)
            ids[id(m)] = {i.lstrip("#").lower() for i in _IDENTIFIER.findall(text)
                          if not _TIME_OR_COUNT.match(i.lstrip("#")) or PR_NUMBER.match(i)}
            tickets.update(i.lower() for i in _TICKET_ID.findall(text))
        return stems[id(m)]

    def clears_blocker(w: OpenWork, b: Memory) -> bool:
        # what a standup was blocked on, given later: "… pairing with omar on the queue
        # migration. Blocked on staging creds." then "staging creds sent to raj" (it unblocks
        # the work; it does not finish it)
        blocked = next((m for m in reversed([w.commitment, *w.latest]) if is_blocked(m)), None)
        blocker = blocker_stems(blocked) - names(blocked) if blocked is not None else set()
        shared = blocker & about(b)
        return bool(blocker) and len(shared) >= min(2, len(blocker)) \
            and len(shared) >= SHARED * len(blocker) and (says_done(b) or says_given(b))

    def same_work(a: Memory, b: Memory) -> bool:
        shared = about(a) & about(b)
        if ids[id(a)] & ids[id(b)] & tickets:  # "Customer confirmed ZD-9921 is fixed, closing."
            return True
        if len(shared) < 2 or len(shared) < SHARED * min(len(about(a)), len(about(b))):
            return False
        # "migrate the ingest v9920 dashboards to region a7" is not "migrate the auth v9840
        # dashboards to region a7": where both name versions, tickets or PRs, the one that names
        # fewer names nothing the other does not
        fewer, more = sorted((ids[id(a)], ids[id(b)]), key=len)
        return not fewer or fewer <= more

    # What to compare a memory with. One that names identifiers: the open work that names one of
    # them (work naming others cannot be the same) and the work naming none that shares a word
    # with it. One that names none: the work that shares a word with it.
    by_id: dict[str, list[OpenWork]] = {}
    by_stem: dict[str, list[OpenWork]] = {}
    by_stem_unnamed: dict[str, list[OpenWork]] = {}
    for memory in said:
        words = about(memory)
        if ids[id(memory)]:
            near = {id(w): w for i in ids[id(memory)] for w in by_id.get(i, ())}
            near.update((id(w), w) for s in words for w in by_stem_unnamed.get(s, ()))
        else:
            near = {id(w): w for s in words for w in by_stem.get(s, ())}
        # about the work: like what took it on, or like its latest word ("pairing with priya on
        # the SSO bug", then priya's "fix SSO redirect loop", then "SSO redirect loop fixed")
        # nor from the message that took it on: a retro's "Went well: webhooks shipped" closes
        # none of its action items
        same = [w for w in near.values() if w.closed_by is None and w.commitment.id != memory.id
                and w.commitment.said_at <= memory.said_at
                # (by the message each was drawn from: the question a reply answers is cited too,
                # and "[x] runbook updated" under the notes that asked it was never its close)
                and not (w.commitment.source_message_ids[:1]
                         and w.commitment.source_message_ids[:1] == memory.source_message_ids[:1])
                and (same_work(w.commitment, memory) or any(same_work(m, memory)
                                                            for m in w.latest)
                     or w.unblocked_by is None and clears_blocker(w, memory))]
        if same:
            for w in same:
                # (a standup's "Blockers: waiting on staging creds from ops" is the same work
                # as "staging creds are in 1Password …": what it waited on came; "leo has not
                # said they are blocked" was the answer)
                if w.unblocked_by is None and (
                        is_blocked(w.commitment) and clears_blocker(w, memory)
                        or not same_work(w.commitment, memory)
                        and not any(same_work(m, memory) for m in w.latest)):
                    w.unblocked_by = memory  # (clears_blocker: what it waited on came)
                    w.latest.append(memory)
                elif closes(memory, about(w.commitment).union(*map(about, w.latest))):
                    w.closed_by = memory
                else:
                    w.latest.append(memory)
                    for stem in about(memory):  # found by its latest word's words too
                        by_stem.setdefault(stem, []).append(w)
            continue
        if is_commitment(memory, now) and not says_done(memory):
            work.append(OpenWork(memory))
            for i in ids[id(memory)]:
                by_id.setdefault(i, []).append(work[-1])
            for s in words:
                by_stem.setdefault(s, []).append(work[-1])
                if not ids[id(memory)]:
                    by_stem_unnamed.setdefault(s, []).append(work[-1])
    return work


OPEN_SHOWN, DONE_SHOWN = 15, 5  # an answer is read in a chat thread: the newest of each


def shown(work: list[OpenWork]) -> tuple[list[OpenWork], list[OpenWork]]:
    """The open and the done work an answer shows, the newest first."""
    still = [w for w in reversed(work) if w.closed_by is None]
    done = [w for w in reversed(work) if w.closed_by is not None]
    return still[:OPEN_SHOWN], done[:DONE_SHOWN]


Speakers = Callable[[Memory], set[str]]  # who said the message a memory was drawn from


def _said(memory: Memory, speakers: Speakers) -> str:
    """The memory, led by who said it when it does not name them ("sam: Today: start the Stripe
    tax integration"; not "omar: omar is going to …")."""
    words = set(name_letters(memory.content).lower().replace("@", " ").split())
    who = sorted(n for n in speakers(memory) if not set(name_letters(n).lower().split()) & words)
    return f"{', '.join(who)}: {memory.content}" if who else memory.content


def _open_line(w: OpenWork, speakers: Speakers) -> str:
    line = (f"- {_said(w.commitment, speakers).rstrip('.')} "
            f"({format_human(w.commitment.said_at.date())})")
    if asked_of(w.commitment):
        line += f", to \"{w.commitment.questions[0]}\""
    if w.latest:
        last = w.latest[-1]
        line += f"; latest: \"{_said(last, speakers)}\" ({format_human(last.said_at.date())})"
    return line


def _done_line(w: OpenWork, speakers: Speakers) -> str:
    return (f"- {_said(w.commitment, speakers).rstrip('.')} "
            f"({format_human(w.commitment.said_at.date())}); done: "
            f"\"{_said(w.closed_by, speakers)}\" ({format_human(w.closed_by.said_at.date())})")


def answer(work: list[OpenWork], now: datetime, speakers: Speakers = lambda m: set()) -> str:
    """The open work first, each with its latest word, then what was closed."""
    if not work:
        return "I don't have any tasks or commitments in memory from the last two months."
    still, done = shown(work)
    more_open = sum(w.closed_by is None for w in work) - len(still)
    more_done = sum(w.closed_by is not None for w in work) - len(done)
    lines = [f"Still open ({format_human(now.date())}):" if still
             else "Nothing is still open: everything taken on was said to be done."]
    lines += [_open_line(w, speakers) for w in still]
    if more_open:
        lines.append(f"… and {more_open} more still open, said earlier.")
    if done:
        lines += ["Done:", *(_done_line(w, speakers) for w in done)]
    if more_done:
        lines.append(f"… and {more_done} more done, said earlier.")
    return "\n".join(lines)


_ASKS_BLOCKED = re.compile(
    r"(?i)\bwho(?:'s|\u2019s| is| are)\s+(?:still\s+)?blocked\b|\bwhat(?:'s|\u2019s| is| are)\s+"
    r"block(?:ing|s)\b|\bany(?:one| one)?\s+blocke(?:d|rs)\b|\b(?:what|which) (?:are the )?"
    r"blockers\b|^\W*blockers\W*$|\bwho(?:'s|\u2019s| is) waiting (?:on|for)\b"
    # "what is maya blocked on?", "is tom blocked?"
    r"|\bwhat(?:'s|\u2019s| is| are)\s+\S+\s+(?:still\s+)?blocked\b"
    r"|^\W*(?:is|are)\s+\S+\s+(?:still\s+)?blocked\b")


_BLOCKED_WHO = re.compile(r"(?i)^\W*(?:what(?:'s|\u2019s| is| are)|is|are)\s+@?(?P<who>[\w.-]+)\s+"
                          r"(?:still\s+)?blocked\b")


def blocked_whom(question: str) -> str | None:
    """Whom "is tom blocked?" / "what is maya blocked on?" asks of (a name the channel's
    authors may not hold: a standup bot posts for them)."""
    found = _BLOCKED_WHO.match(question)
    who = found["who"].lower() if found else None
    # (nor a pronoun of things: "is anything blocked?" was answered "anything has not said
    # they are blocked")
    return who if who not in (None, "anyone", "anybody", "someone", "somebody", "everyone",
                              "everybody", "anything", "something", "everything", "nothing",
                              "nobody", "stuff", "it", "this", "that", "he", "she", "they", "we",
                              "you", "i") \
        else None


def asks_blocked(question: str) -> bool:
    """"who is blocked?", "what is blocking priya?", "any blockers?"."""
    return bool(_ASKS_BLOCKED.search(question.strip()))


def blocked_work(work: list[OpenWork]) -> list[OpenWork]:
    """The work still blocked (`_still_blocked`: "I'll rotate the certs", then "Blockers: waiting
    on the security review for the cert rotation"), and the work unblocked since, still open."""
    return [w for w in work if _still_blocked(w)
            or w.unblocked_by is not None and w.closed_by is None]


def _still_blocked(w: OpenWork) -> bool:
    """Its latest word is a blocker, or nothing said after its last blocker speaks of what it
    waits on (raj's "Blocked on staging creds." stands after omar's "Queue migration is 60%
    done", which was read as his latest word, and raj "has not said they are blocked")."""
    said = [w.commitment, *w.latest]
    last = next((n for n in range(len(said) - 1, -1, -1) if is_blocked(said[n])), None)
    if last is None:
        return False
    blocker = blocker_stems(said[last])
    return last == len(said) - 1 or bool(blocker) and not any(
        blocker & content_stems(m.content) for m in said[last + 1:])


def blocked_answer(work: list[OpenWork], speakers: Speakers = lambda m: set(),
                   whom: str | None = None) -> str:
    """The blocked work still open (and whose blocker cleared, as done); `whom`: the person
    asked about."""
    blocked = blocked_work(work)
    if not blocked:
        return f"{whom or 'Nobody'} has{' not' if whom else ''} said they are blocked in the " \
               "last two months."
    still, done = shown(blocked)
    cleared = [w for w in still if w.unblocked_by is not None]
    still = [w for w in still if w.unblocked_by is None]
    lines = (["Blocked now:", *(_open_line(w, speakers) for w in still)] if still
             else [f"{whom or 'Nobody'} is{' not' if whom else ''} blocked now."])
    if done or cleared:
        lines += ["Unblocked:", *(_unblocked_line(w, speakers) for w in cleared),
                  *(_done_line(w, speakers) for w in done)]
    return "\n".join(lines)


def _unblocked_line(w: OpenWork, speakers: Speakers) -> str:
    by = w.unblocked_by
    return (f"- {_said(w.commitment, speakers).rstrip('.')} "
            f"({format_human(w.commitment.said_at.date())}); unblocked: "
            f"\"{_said(by, speakers)}\" ({format_human(by.said_at.date())})")


_WAITED_ON = re.compile(r"\b(?:waiting|wait|waits|blocked|stuck)\s+(?:on|for|by)\s+@[\w.-]+")


def work_of(work: list[OpenWork], names: set[str], speakers: Speakers = lambda m: set()
            ) -> list[OpenWork]:
    """The work a person took on, was asked to do or is blocked on: their name (lower-case name
    words) in the commitment ("kofi will take …", "TODO: @raj please …") or its latest word, or
    they said the commitment ("Today: write the runbook", said by kim)."""
    def named(memory: Memory) -> bool:  # "kofi", "@kofi,", "(maya's Daily Standup)"
        words = re.findall(r"[\w.'’-]+", name_letters(memory.content).lower())
        return bool(names & {w.strip(".'’-").removesuffix("'s").removesuffix("’s")
                             for w in words})

    def said(memory: Memory) -> bool:
        # (not an item put to someone else: tom's "Retro action items: @priya update the
        # on-call doc" is priya's)
        # (whom a blocker waits on is not whose it is: bob's "Blockers: waiting on @ada for the
        # AWS sandbox" was ada's, and "bob has not said they are blocked")
        mentioned = set(re.findall(r"@([\w.-]+)", _WAITED_ON.sub(
            " ", name_letters(memory.content).lower())))
        # (nor maya's "Meeting notes from planning: sam: benchmark the new parser": sam's)
        mentioned |= {who} if (who := _put_to_someone(memory.content)) else set()
        return (not mentioned or bool(mentioned & names)) and any(
            names & set(name_letters(n).lower().split()) for n in speakers(memory))

    return [w for w in work if named(w.commitment) or said(w.commitment)
            or any(named(m) for m in w.latest)]


def person_answer(person: str, work: list[OpenWork], speakers: Speakers = lambda m: set(),
                  owed: bool = False) -> str | None:
    """"what is omar working on?": the work still open that is theirs, newest first, then the
    last they finished; None when none of theirs is open (what they said answers instead). `owed`
    ("what does sam need to do?"): with none open and some done, that nothing is open (the
    answer was the notes that asked it, beside its "[x] runbook updated")."""
    still, done = shown(work)
    if not still and owed and done:
        return f"Nothing of {person}'s is open in memory. Done lately:" + \
            _done_line(done[0], speakers)[1:]
    if not still:
        return None
    lines = [f"{person} is on:", *(_open_line(w, speakers) for w in still)]
    if done:
        lines.append("Done lately:" + _done_line(done[0], speakers)[1:])
    return "\n".join(lines)
