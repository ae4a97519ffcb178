"""What changed since: a newer memory that changes what an older one says leads the answer.

memory/revisions.py links a change to what it changes when the change names its subject the same
way and carries a value of the same kind, and the old memory then leaves recall. Most changes in
a team's chat do neither, and linking them on a guess would hide a true fact:

- "Heads up: billing ownership moves to Sam, Priya is going on leave" after "Priya owns the
  billing service";
- "we migrated staging to db-stg-3.internal last night, db-stg-2 is gone" after "The staging
  database is db-stg-2.internal";
- "Design review is cancelled this week" after "The design review is on Thursday at 3pm";
- "Swapped with Dan, I'm on call for payments now" after "The on-call for payments is Dan".

Each time the old memory ranked first and was the answer. The answerer now says the newer one
first, and the older one as what stood before it: both stay visible, the current one leads.

A memory *updates* the answer when it was said later, from another message, says a change (the
cue words below), is about the question (a third of its words, as a "when" answer must be), and
names what the answer states: a name or an identifier of the answer's that the question does not
have and that is not the update's own speaker ("Priya", "db-stg-2"), or, with the answer, every
word of the question, about a subject with no word that both lack ("Billing is now owned by Sam"
for "who owns billing?"; not "The rate limit review moves to sam" for "what is the rate
limit?"). A cancellation with a date updates only an answer about a date within it ("standup is
cancelled tomorrow" leaves next week's standup alone). The answerer offers only memories of whom
and when the question asks. On LoCoMo dev (999 questions) and BEAM dev (199) this leads no
answer; looser rules led 30 LoCoMo answers, all wrongly ("right now", "positive changes").
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import timedelta

from .dates import (ANNOTATED, ANY_DAY, FOREIGN_MOVE_VERBS, GIVEN_UNTIL, MONTH_NAMES, MOVE_VERBS,
                    SAYS_MOVED, WEEKDAYS, find_dates)
from .models import Memory
from .moves import CANCEL_WORDS, CANCELLED, MOVED_THEN_SAID, NEW_DAY_NOUNS, SHIFT
from .text import STOP_WORDS, english_word, sums_named

# the words that say something changed hands, place or date: not "now" or "change" alone, and
# verbs, not their nouns ("without replacement" in BEAM's card draws, "the migration plan")
# a new day set, no verb: "Close is running late, new target Dec 10 [2026-12-10]" after "Target
# to close books by Dec 8"
# (or a booking's: "Mass spec slot got bumped by the core facility, new slot is Monday Dec 7")
_NEW_DAY_SET = (r"(?:new\s+(?:end\s+|due\s+|start\s+|target\s+|launch\s+)?"
                rf"{NEW_DAY_NOUNS}\s+(?:is\s+)?(?:now\s+)?"
                # (or the day's noun said to be another now: "carrier says Christmas cutoff is
                # now Dec 16 because of volume", after "… cutoff for Christmas … is Dec 18")
                rf"|\b{NEW_DAY_NOUNS}\s+(?:is|are)\s+now\s+)[^.;,\[\]]{{1,25}}\[")
_SETS_NEW_DAY = re.compile(_NEW_DAY_SET, re.IGNORECASE)
# a plan in parts, each on its day: "upgrade plan: dry run on staging Dec 1, prod cutover Dec 8"
_MONTH_WORD = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*")
_PLAN_OF_PARTS = re.compile(r"(?i)\b(?:plan|timeline|schedule|rollout|roadmap)\s*:")
# what names a thing's day beside the thing ("Flight booking deadline extended to Dec 17" moved
# "Flights must be booked by Dec 10")
_DAY_NOUNS = "deadline deadlines date dates window cutoff eta timeline day"
_BUT_ONLY = re.compile(r"(?i)\bbut\s+(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+only\s+"
                       r"(?:for\s+)?\d+(?:\.\d+)?\s*(?P<unit>months?|weeks?|days?|years?|seats?|"
                       r"users?|%|hours?)\b")
_TIED_DAY = re.compile(r"(?i)\b(?:that(?:\s+same)?|the\s+(?:very\s+)?same)\s+day\s*\[")
# a thing moved to the next of a team's cycles, with no date: "Saved searches slipping to next
# sprint" (after "Sprint 49 goals: ship saved searches, …")
_TO_NEXT_CYCLE = (rf"{MOVE_VERBS}\w*\s+(?:[\w'’-]+\s+){{0,3}}?(?:to|until|till|into)\s+"
                  r"(?:the\s+)?next\s+(?:sprint|release|cycle|milestone|iteration|train|version)")
_MOVED_TO_NEXT_CYCLE = re.compile(_TO_NEXT_CYCLE, re.IGNORECASE)
# a thing moved to a place written as one (a host, a path, a link, a channel): "Moved the API
# reference to developer.acme.io/reference" after "API reference is at docs.acme.io/api"
_TO_A_PLACE = (r"mov(?:ed|es|ing)\s+(?P<moved>(?:[\w'’-]+\s+){1,4}?)to\s+"
               r"(?:#[\w-]+|<?https?://|[\w-]+(?:[./][\w-]+)+)")
_MOVED_TO_A_PLACE = re.compile(_TO_A_PLACE, re.IGNORECASE)
# a new place said as such: "meeting location changed to the Rotary hall, same time" after
# "board meeting moved to Dec 10 at 6pm, library community room" (one word of "where is the
# board meeting?" shared, and the library was the answer)
_PLACE_CHANGED = re.compile(r"(?i)\b(?:location|venue|room|place|address)\s+"
                            r"(?:has\s+|was\s+|is\s+)?"
                            r"(?:changed|moved|switched|changing|moving)\s+(?:over\s+)?to\b|"
                            r"\bnew\s+(?:location|venue|room|address)\b")
_CHANGE = re.compile(
    r"\b(?:no longer|not anymore|instead|gone|swap(?:s|ped|ping)?|switch(?:ed|ing)?|took over|"
    r"tak(?:e|es|ing) over|hand(?:s|ed|ing)? (?:over|off)|replac(?:e|es|ed|ing)|"
    r"retir(?:e|es|ed|ing)|deprecat(?:e|es|ed|ing)|decommission(?:s|ed|ing)?|"
    r"migrat(?:e|es|ed|ing)|mov(?:e|es|ed|ing) to|chang(?:e|es|ed|ing) to|"
    # "flight changed! now landing Dec 21 at 11:15am" after "my flight lands Dec 22"
    # (an exclamation or a colon after it: "escalation policy changed, after 15 min …" moved no
    # ticket that "escalating #4821" names, and led "what's the status of the Contoso ticket?")
    r"(?<=\w\s)(?:has\s+|have\s+|got\s+)?changed(?=\s*(?:!|:(?!\S)|\s[\u2013\u2014-]\s))|"
    r"postpon(?:e|es|ed|ing)|reschedul(?:e|es|ed|ing)|push(?:ed|es|ing)? back|"
    # where a thing goes now: "all paid social goes to LinkedIn now" after "budget for Q1 paid
    # social is $45k, split 70/30 LinkedIn/Reddit"
    r"(?:goes|go|going)\s+(?:all\s+)?to\s+[^.;,!?]{1,30}?\s+now\b|"
    # a date moved to another: "Keycloak cutover slips to Dec 15 [2026-12-15]" after "cutover
    # is Dec 8", "Acme pushed the renewal to January [January 2027]" (a date labelled at ingest
    # after it: "deploy on push to main" moves nothing)
    # (a release's number is a word: "pushing 3.2.0 to Dec 3")
    rf"{MOVE_VERBS}\w*\s+(?:[\w'’-]+(?:\.\w+)*\s+){{0,3}}?(?:to|until|till)\s"
    r"[^.;,\[\]]{0,30}\[|"
    # ("laptops delayed, Apple says next Tuesday [2026-12-08] now" after "… arrive Thursday")
    rf"{MOVED_THEN_SAID}[^.;,\[\]]{{0,30}}\[|"
    rf"{GIVEN_UNTIL}[^.;,\[\]]{{0,30}}\[|"
    # (said in Spanish, Portuguese, French, German or Italian: "la demo se mueve al viernes 11
    # de diciembre", "Deployment verschoben auf Mittwoch, 16. Dezember")
    rf"(?:se\s+)?{FOREIGN_MOVE_VERBS}\w*\s+(?:[\w'’-]+\s+){{0,3}}?(?:al?|a\s+la|para|pra|auf|au|"
    r"à|alla?|nach)\s[^;\[\]]{0,30}\[|"
    # or to the next of a team's cycles, no date: "Saved searches slipping to next sprint"
    rf"{_TO_NEXT_CYCLE}|"
    rf"{_TO_A_PLACE}|"
    # a value changed: "Bumped the rate limit from 100 to 300 rpm", "Raised max upload to
    # 50MB", "Reverted …, back to 30 min" (done, not wanted or a noun: "wants to reduce
    # errors", "a 12% salary increase" led two BEAM answers wrongly)
    r"bumped|raised|lowered|increased|decreased|reduced|doubled|halved|reverted|rolled back|"
    # in progress, to a number: "we're raising Pro to $59/month" (its subject is what came
    # before the verb: "after the sales call" updated no "on call" rota)
    r"(?:rais|lower|increas|decreas|reduc|bump|cutt|dropp)ing\s+(?:[\w'’-]+\s+){0,4}?to\s+"
    r"[$€£]?\d+|"
    # a tool's version changed: "Upgraded to pnpm 10, lockfile regenerated" after "Build uses
    # pnpm 9" (not "upgrade" or "update" alone: a plan, or a noun)
    r"upgraded|downgraded|updated to|pinned to|"
    r"back to|went from|"
    # a measure moved: "After the cache fix checkout p95 is down to 240ms" after "Checkout p95
    # latency is 420ms, SLO is 300ms" (not "up to", a limit: "up to 50 seats")
    r"(?:down|dropped|fell|rose|climbed|jumped|went up|went down|improved) to|"
    # a decision taken back: "Change of plan on the queue: … we're going with RabbitMQ after
    # all" ("after all" alone ends many sentences that change nothing: "it's a dream, after all")
    r"change of plans?|chang(?:e|ed|ing) (?:our|my|their) minds?|"
    r"(?:go|going|went|stick|sticking|stay|staying) with [\w.-]+(?: [\w.-]+)? after all|"
    # "billing is now owned by Sam", "the alias now points to db-3": "now" as a change, not a time
    r"(?:is|are) now|now (?:own|owns|owned|lead|leads|led|run|runs|handle|handles|handled|"
    r"manage|manages|managed|point|points|use|uses|used|live|lives)|"
    # "Initech churned, so on-prem is just Globex and Umbrella now" (it followed the list of
    # three, which led the answer)
    r"(?:is|are) (?:just|only|down to)\s[^.;!?]{1,60}(?<!\bfor )\bnow\b|churned|"
    # a new standing value: "Sure, design sync is at 16:00 from now on"
    r"from now on|going forward|"
    # a new value opening its clause: "fyi Maria moved, new address is 7 Oak Street", "we
    # moved! new office address is 9 Harbor Road" (not "the new hire is great")
    r"(?:(?<=^)|(?<=[,.!;:]\s)|(?<=\bfyi\s)|(?<=\bso\s)|(?<=\band\s))"
    r"new\s+(?:[\w'’-]+\s+){0,2}?(?:is|are)\s|"
    rf"{_NEW_DAY_SET}|{CANCEL_WORDS})\b",
    re.IGNORECASE)
# a message that says it corrects what came before: "Update: finance approved the ACME refund
# at $900, not the full $1,200", "Correction: …"
# (after chat markup, "_Correction:_", and with a dash for the colon, "UPDATE - …")
_SAYS_UPDATE = re.compile(r"^[\W_]*(?:(?:update|updated|correction|revised|revision|edit|"
                          # "small change: Aisha will join DevEx, not Infra"
                          r"(?:small |slight |quick |one )?change|"
                          # ("Cambio: la demo se mueve al viernes 11 de diciembre", "Änderung:",
                          # "Mise à jour :", "Atualização:", "Aggiornamento:")
                          r"cambio|actualizaci[oó]n|correcci[oó]n|änderung|aenderung|"
                          r"korrektur|mise [àa] jour|changement|atualiza[cç][aã]o|"
                          r"corre[cç][aã]o|mudan[cç]a|aggiornamento|correzione)[*_~]*"
                          r"(?:\s*:|\s+[-\u2013\u2014]\s)|"
                          # "Updated RFC-31: sessions go to a separate Postgres instance"
                          r"(?:updated|revised)\s+[A-Za-z]+-\d+\s*:|"
                          # "updated roadmap: audit logs (Jan), SSO (Feb), …" after its draft
                          r"(?:updated|revised|new)\s+(?:[\w-]+\s+){0,2}?(?:roadmap|plan|"
                          r"schedule|timeline|agenda|estimate|budget|forecast|pricing|"
                          r"priorities|lineup|line-up|rota|roster)\s*:|"
                          # "final Q1: SSO Jan, offline mode late Feb, …" after the roadmap's
                          # draft and its thread
                          r"final(?:ized)?(?:\s+[\w-]+){0,2}(?:\s*\[[^\[\]]*\])?\s*:|"
                          # "change of plans, my OOO is now Dec 8-12, back Dec 15"
                          r"(?:(?:a\s+)?change\s+of\s+plans?|plans?\s+changed)\s*[,:;.!-]|"
                          r"(?:scratch that|on second thought|never ?mind|nvm|"
                          r"(?:disregard|ignore) (?:that|my last))\b)", re.IGNORECASE)
ABOUT_SHARE = 0.3  # of the question's content words, as memory.offline_answerer.WHEN_SHARED
# "is the deploy still blocked?" asks whether a state lasts: a later word that it ended ("Cert
# renewed, deploy unblocked") is the change, though it shares "deploy" alone ("unblocked" is no
# "blocked" to a stemmer). Only for such a question: "fixed" and "done" end most states.
_ASKS_STILL = re.compile(r"(?i)\b(?:still|anymore|any more|yet)\b|"
                         # "what's blocking the export patch?" asks of a block that can end
                         # ("Export patched too." came after "Export still pending, blocked on
                         # the base image rebuild")
                         r"^\W*what(?:['’]s|\s+is|\s+are)\s+(?:blocking|holding\s+up)\b|"
                         # "is staging down?" asks the same of a state that can end: "Staging is
                         # down for the DB upgrade" led, "Staging is back up" after it
                         r"^\W*(?:is|are)\b.*\b(?:down|blocked|broken|failing|offline|frozen|"
                         r"paused|halted|stopped|on hold|stuck|degraded|unavailable|locked|"
                         r"flaky|on fire|"
                         # "is the 3rd floor printer working?": "jammed again", then "printer
                         # fixed, it was a torn label"
                         r"working|jammed|"
                         # "is Priya's laptop ready?": "… is ordered, arrives Dec 4", then "…
                         # is set up and at the front desk"
                         r"ready)\b")
_ENDED = re.compile(r"(?i)\b(?:un[a-z]{3,}ed|no longer|not any ?more|resolved|fixed|patched|"
                    r"remediated|done|completed|passed|signed off|"
                    r"finished|closed|renewed|restored|lifted|back up|back online|"
                    r"(?:is|are|was) over|ended|"
                    r"cleared|solved|merged|shipped|approved|unblocked|working again|"
                    # what was waited on came: "settings page, design landed" after "waiting
                    # on design for the settings page"
                    r"landed|arrived|delivered|received|"
                    r"set\s+up|ready|"
                    # a job that failed, then ran: "✅ DAG daily_revenue succeeded"
                    r"succeeded|recovered|green\s+again|"
                    # a paused thing going again: "… rollout back on: 20% today" after "Halting
                    # rollout at 10%" ("is the android rollout halted?")
                    r"resumed|resuming|back on(?![ \t]+\w)|"
                    # a candidate or a party out of it: "Marco withdrew, he took another offer"
                    # for "is marco still in the pipeline?"
                    r"withdrew|withdrawn|pulled out|dropped out|backed out|"
                    # "can't make it anymore, my truck broke down" for "is ike still bringing
                    # his truck?" (his offer to, before it, led)
                    r"(?:can['’]?t|cannot|won['’]?t)\s+[^.;!?]{0,25}?\bany\s?more|"
                    # a ticket closed as it is said: "Initech confirmed exports work. Closing
                    # ZD-4410." ("closing the books by Dec 8" ends nothing yet)
                    r"closing\s+(?:out\s+)?(?:[a-z]{2,}-\d+|#\d+)|"
                    r"closing\s+(?:it|this|that)\s+out)\b")


# a measure read by its name, its value (a percent, a time) within a few words after it: "KR1 at
# 205ms", "KR3 migrate 80% of services to k8s: 55%" (the last value before the next name)
_MEASURE_NAME = re.compile(r"(?<![\w-])(?:KR|OKR|SLO|SLI|KPI)\d{1,2}\b")


# how many of a thing are left ("140 flu doses left", "80 remaining")
_LEFT_COUNT = re.compile(r"(?i)(?<![\d.,$€£])(\d[\d,]*)\s+(?:[a-z][\w-]*\s+){0,3}?"
                         r"(?:left|remaining|to\s+go|in\s+stock|on\s+hand)\b")
_LEFT_STEMS = frozenset({"left", "remain", "stock", "hand", "go"})
# a figure said corrected: "a corrected invoice: $21,900", "revised quote $9.5k"
_CORRECTED_SUM = re.compile(r"(?i)\b(?:corrected|revised|amended|adjusted|reissued|updated|"
                            r"new)\s+(?P<what>invoice|quote|bill|price|amount|total|estimate|budget|"
                            r"figure|charge|fee|offer)s?\b(?=[^.;!?\n]{0,30}[$€£]\s?\d)")
# a sum per a unit ("$8,400/yr", "€12 per seat", "$30k a year")
_PRICE_PER = re.compile(r"[$€£]\s?(?P<sum>\d[\d,]*(?:\.\d+)?[kKmM]?)\s*"
                        r"(?:(?:/\s*|\s(?:per|an?)\s+)(?P<per>yrs?|years?|annum|mo|mos|months?|"
                        r"seats?|users?|licen[cs]es?|heads?|weeks?|wk|days?|hours?|hr)\b|"
                        # a deal's recurring revenue: "deal size ~$120k ARR"
                        r"(?P<recurring>ARR|MRR|ACV)\b)")
# what a price was bargained or settled to
_REPRICED = re.compile(r"(?i)\b(?:down|up)\s+to\b|\bnegotiat\w*|\bdiscount\w*|\bcounter\w*|"
                       # "Umbrella verbal yes at $108k ARR!" after "deal size ~$120k ARR"
                       r"\b(?:verbal\s+)?(?:yes|commit(?:ted)?)\s+(?:at|for)\b|"
                       r"\bfinal\s+(?:price|offer|quote)\b|"
                       r"\b(?:agreed|settled|landed)\s+(?:on|at)\b|"
                       r"\b(?:sign(?:ed|ing)?|locked\s+in)\b")
_REPRICED_WITHIN = timedelta(days=45)
_DEAL_VALUE_WORDS = "worth value price cost size arr mrr acv revenue much"


def _per(price: re.Match) -> str:
    if price["recurring"]:
        return "month" if price["recurring"] == "MRR" else "year"
    return {"yr": "year", "yrs": "year", "years": "year", "annum": "year", "mo": "month",
            "mos": "month", "months": "month", "wk": "week", "weeks": "week", "hr": "hour",
            "hours": "hour", "days": "day"}.get(price["per"].lower(), price["per"].lower()[:4])


def _readings(text: str) -> dict[str, str]:
    """Each named measure's value in `text`: the last value said before the next name."""
    text = ANNOTATED.sub("", text)
    if not ("KR" in text or "SL" in text or "KPI" in text):
        return {}
    out = {}
    names = list(_MEASURE_NAME.finditer(text))
    for n, m in enumerate(names):
        end = names[n + 1].start() if n + 1 < len(names) else len(text)
        values = re.findall(r"\d+(?:\.\d+)?\s*(?:%|ms\b)", text[m.end():end])
        if values:
            out[m.group(0)] = values[-1].replace(" ", "")
    return out


# out of what they were down for: "can't make it", "giving his pass to mo"
# not able, or no longer: "can't", "won't", "can no longer" (also read by the answerer's
# "can't make Saturday")
CANT = r"\b(?:can['’]?t|cannot|won['’]?t|can\s+no\s+longer)\s+"
_DROPS_OUT = re.compile(rf"(?i){CANT}(?:make\s+it|come|attend|go|join)\b|"
                        # "sorry, I can't make the food drive anymore"
                        rf"{CANT}make\s+(?:the|this|that|\w+['’]s)\s+[\w-]+\b|"
                        r"\b(?:dropp(?:ed|ing)|pull(?:ed|ing)|"
                        r"back(?:ed|ing))\s+out\b|\bno\s+longer\s+(?:coming|going|attending)\b|"
                        # (a candidate: "Ben withdrew, took another offer." left him listed in
                        # "3 candidates in onsite stage: Aiko, Ben, Carla")
                        r"\bwithdr(?:ew|awn|aws|awing)\b|\b(?:took|accepted)\s+another\s+offer\b|"
                        r"\bgiv(?:e|es|ing)\s+(?:his|her|their|my)\s+(?:pass|spot|seat|ticket|"
                        r"place)\b|"
                        # "ugh I have a work thing the morning of the 21st, can someone else get
                        # mom?" after "I can pick mom up from the airport"
                        r"\b(?:can|could)\s+(?:someone|somebody|anyone|anybody)\s+else\b|"
                        # "Sam is out sick, I'll finish the explainer alone" after "…, Priya and
                        # Sam co-writing" (for "who is writing the election explainer?")
                        r"\b(?:is|are|['’]s)\s+out\s+sick\b")
_ASKS_WHO_OR_WHETHER = re.compile(r"(?i)^\W*(?:who|whom|is|are|was|were|will|does|do|did|can|"
                                  r"has|have)\b")
_FIRST_PERSON = re.compile(r"(?i)^\W*(?:i|i['’]m|i['’]ll)\b")
_SWAPS = re.compile(r"(?i)\bswap(?:s|ped|ping)?\s+(?:with|shifts\s+with|weeks\s+with)\s+\w|"
                    r"\btrad(?:e|ed|ing)\s+(?:weeks|shifts|days)\s+with\s+\w")
_OPTIONS = re.compile(r"(?i)\b(?:options?|alternatives|candidates|choices|shortlist|"
                      r"short-list|contenders|either|vote|poll)\b")
CHOSE = re.compile(r"(?i)\b(?:go(?:ing)?\s+with|went\s+with|picked|chose|chosen|decided\s+on|"
                    r"settled\s+on|we(?:'ll|\s+will)\s+use|selected|opted\s+for|"
                    # a vote's outcome: "Vote closed: Porto 9, Seville 4. Porto it is."
                    r"wins|won(?!['’])|it\s+is(?=\s*[.!]))")


_PROPOSES = re.compile(r"(?i)^\W*(?:proposal|rfc|idea|suggestion|straw ?man)\b|\b(?:i|we)\s+"
                       r"(?:propose|suggest)\b|\b(?:proposing|suggesting)\b|\bthoughts\s*\?")
# what a settled proposal answers: when, what was decided, where it stands ("who owns RFC-42?" is
# answered by the RFC's "Owner: nina.", not by "RFC-42 approved in arch review")
_ASKS_SETTLED = re.compile(r"(?i)\b(?:decid\w*|decision|agree\w*|settle\w*|plan\w*|status|"
                           r"approv\w*|go(?:ing)?\s+ahead|happening|still|going\s+to)\b|"
                           r"^\W*(?:are|is|will|did)\s+we\b")
# what settles it: a decision, or a date put down for it
_SETTLES = re.compile(r"(?i)\bpencill?(?:ed|ing)\s+(?:it\s+)?in\b|\b(?:locked|booked|set)\s+"
                      r"(?:it\s+)?(?:in\s+)?for\b|\b(?:decided|agreed|confirmed|approved|"
                      r"rejected|vetoed|shelved)\b|" + CHOSE.pattern.removeprefix("(?i)"))


# a state that came back, said of what the answer names: "Acme is happy again after the SSO
# fix" after "Acme is threatening to churn …" ("who might churn?" answered with the threat alone)
_ASKS_WHEN = re.compile(r"(?i)^\W*(?:when|what\s+(?:date|day|time))\b")
_ASKS_WHERE = re.compile(r"(?i)^\W*where\b")
_PLACE_NAME = r"(?:The\s+)?[A-Z][\w'’&-]*(?:\s+[A-Z0-9][\w'’&-]*){0,3}"
# a place a thing is at ("Holiday party: Dec 18 at The Foundry, 6-10pm")
_AT_PLACE = re.compile(rf"\b(?:at|in)\s+({_PLACE_NAME})")
# a place booked, opening its message ("Booked Pier 9, same date and time.")
_BOOKED_PLACE = re.compile(r"^\W*(?i:(?:(?:we|i)\s+)?(?:re)?booked|moved\s+(?:it\s+)?to|switched\s+"
                           rf"to|going\s+with)\s+(?P<place>{_PLACE_NAME})")
_AGAIN = re.compile(r"(?i)\b(?:is|are)\s+(?:\w+\s+){0,2}again\b|\bback\s+(?:to\s+normal|on\s+track)\b|"
                    r"\bno\s+longer\s+(?:at\s+risk|a\s+risk|unhappy|blocked)\b|\bnot\s+at\s+risk\b")


VERSIONED = re.compile(r"(?<![\w.])v?\d+(?:\.\d+)+(?![\w.])")  # "4.2", "v4.1.9": a release


# a measure that moved by itself: its subject is what changed (not who changed it)
_MEASURE_MOVED = re.compile(r"(?i)\b(?:went\s+(?:from|up|down)|rose|fell|dropped|climbed|jumped|"
                            r"improved|increased|decreased|grew|shrank|spiked)\b")


def says_dropped_out(text: str) -> bool:
    """Whether `text` says someone is out of what they were down for ("can't make it")."""
    return bool(_DROPS_OUT.search(ANNOTATED.sub("", text)))


def says_update(text: str) -> bool:
    """Whether `text` opens as an update of what came before ("Update: …", "Correction: …")."""
    return bool(_SAYS_UPDATE.match(text))


# a state halted or taken up again: "Pausing the phased rollout." after "Releasing to 10% phased
# rollout." (the status of the release was answered with the release going on). A state, not a
# value: "Halting the rollout at 10%" is no newer figure than "Android at 50%" after it.
_HALTS = re.compile(r"(?i)\b(?:(?:un)?paus|resum|halt)(?:ing|ed)\b"
                    # (a participle before its noun is no deed: "the paused state is shown")
                    r"(?!\s+(?!(?:the|it|all|our|their|for|until|till|at|on|in|by|since|due|"
                    r"because|while|again|now|and|but|so|after|pending)\b)[a-z])|"
                    r"\b(?:put|is|are|went|going)\s+on\s+hold\b")


def says_halt(memory: Memory) -> bool:
    """Whether a memory says a thing was paused, halted, resumed or put on hold."""
    return bool(_HALTS.search(memory.content))


def says_change(memory: Memory) -> bool:
    # a shift by a length of time is a change too: "the code freeze is pushed a week"
    return bool(_CHANGE.search(memory.content) or _SAYS_UPDATE.match(memory.content)
                or SHIFT.search(memory.content) or _SET_AGAINST.search(memory.content))


# a value set right against the one it replaces: "Holiday freeze starts Dec 18 this year, not
# Dec 21 [2026-12-21]", "it's 50MB, not 25MB"
_SET_AGAINST = re.compile(r"(?i),\s*not\s+(?:on\s+|in\s+|at\s+)?(?:[^.;,\[\]]{1,20}\[|"
                          r"[$€£]?\d|"
                          # a name against a name: "Aisha will join DevEx, not Infra"
                          r"(?-i:[A-Z][\w-]*)(?=\s*(?:[,.;!)]|$|\s+(?:and|but)\b)))")


# "X moved the milestone review to …": what a verb with an object moves (its words up to "to")
_MOVES_AN_OBJECT = re.compile(rf"(?i)\w\s+{MOVE_VERBS}\w*\s+(?:the|our|their|its|his|her)\s+"
                              r"(?P<what>[^,.;:!?\[\]]{1,60}?)\s+(?:to|until|till|back|out|by)\b")


def _object_moved(text: str) -> str:
    """The object of a move said with one ("milestone review" of "Publisher moved the milestone
    review to Monday"), or ""."""
    found = _MOVES_AN_OBJECT.search(ANNOTATED.sub("", text))
    return found["what"] if found else ""


def _dated_elsewhere(update: Memory, answer: Memory) -> bool:
    """A dated cancellation, and the answer's dates all outside it."""
    if not (CANCELLED.search(update.content) and update.event_dates and answer.event_dates):
        return False
    return not any(a.start <= u.end and a.end >= u.start
                   for a in answer.event_dates for u in update.event_dates)


def changed_subject(memory: Memory, content_stems: Callable[[str], set[str]]) -> set[str]:
    """The stems of what a change says changed (the words before its verb), or none."""
    return _subject(memory, content_stems)


def _subject(memory: Memory, content_stems: Callable[[str], set[str]]) -> set[str]:
    """The words before the change ("billing" of "Billing is now owned by Sam"; "rate limit
    review" of "The rate limit review moves to sam": another thing than the rate limit)."""
    found = min((m for m in (_CHANGE.search(memory.content), SHIFT.search(memory.content)) if m),
                key=lambda m: m.start(), default=None)
    if not found:
        return set()
    start = found.start()
    if _DETERMINER_BEFORE.search(memory.content, 0, start):
        # a move verb after "the" is a noun, the subject: "the move slipped a week" (its
        # subject was none, and it changed no "office move … is Saturday Dec 12")
        start = memory.content.find(" ", start)
        start = found.start() if start < 0 else start
    # after a label ("Correction: the offsite moved to …", "Heads up: billing moves to …"),
    # without its dates ("From Monday [2026-11-16] billing is now owned by …")
    # and of its own clause ("Fixed 1 and 3, capped backoff at 30s instead of 60s": "capped
    # backoff at 30s"), without the values it sets
    # (and of its own sentence: "… ran the load test for PR #2290. p99 webhook latency went
    # from 180ms to 210ms" changed the latency, not the PR)
    before = ANNOTATED.sub("", re.split(r"[:\u2013\u2014]\s|[,;]\s|(?<=[a-z0-9)][.!?])\s+",
                                        memory.content[:start])[-1])
    for phrase in reversed(find_dates(before, ANY_DAY)):
        before = before[:phrase.start] + " " + before[phrase.end:]
    # (a ping to the channel is no word of the subject: "@here prod cutover for export_v2
    # postponed to Dec 10" changed the cutover, and "here" kept it from being its latest word)
    before = _BROADCAST.sub(" ", before)
    return {w for w in content_stems(before) if not any(c.isdigit() for c in w)}


_DETERMINER_BEFORE = re.compile(r"(?i)\b(?:the|a|an|our|this|that|their|its|your|my)\s+$")
_BROADCAST = re.compile(r"(?i)<!(?:here|channel|everyone)(?:\|[^>]*)?>|(?<![\w@])@(?:here|channel|"
                        r"everyone)\b")


# what the word list lacks besides STOP_WORDS: contractions' stems and a few function words
_FUNCTION_WORDS = STOP_WORDS | {"all", "few", "nor", "own", "don", "now", "may", "yet", "from",
                                "won", "isn", "aren", "wasn", "weren", "didn", "doesn", "couldn",
                                "wouldn", "shouldn", "haven", "hasn", "hadn", "can", "cannot",
                                # short words of talk, no thing's name ("that is the old one")
                                "old", "new", "one", "bad", "yes", "yep", "nah", "way", "lol",
                                "btw", "imo", "tbh", "fyi", "idk", "hmm", "huh", "ugh", "meh",
                                "thx", "ack",
                                # short verbs: "use the vault CLI" and "retries now use our own
                                # helper" shared "use" and the second led as the first's update
                                "use", "get", "got", "run", "ran", "set", "put", "add", "try",
                                "see", "saw", "say", "let", "ask", "pay", "buy", "cut", "end",
                                "lot", "big", "far", "top", "low", "out", "off", "via", "per"}
# the short names of months and days name no thing: "Update: the security audit moves to Dec 14"
# shared "dec" with "Launch of the mobile app is Dec 3" and led "when is the mobile app launch?"
_DATE_WORDS = frozenset("jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu "
                        "thur thurs fri sat sun".split())
# Time zones name no one thing: "correction: 3pm PT is … midnight CET" (of a release call) took
# back the "CET" of "Standup is at 9:30 CET" and led "what time is standup?".
_ZONES = frozenset("utc gmt cet cest eet eest wet west pst pdt est edt cst cdt mst mdt bst ist "
                   "jst kst aest aedt sgt hkt".split())


def _capitalised(text: str) -> set[str]:
    """The capitalised words of `text` past its first, in lower case, no day or month."""
    return {w.lower() for w in re.findall(r"(?<=[\s(\"'])[A-Z][a-z]+\b", ANNOTATED.sub("", text))
            if w.lower() not in _DATE_WORDS and w.lower() not in _DATE_NAMES}


_DATE_NAMES = frozenset([*(m.lower() for m in MONTH_NAMES), *WEEKDAYS,
                         "today", "tomorrow", "yesterday"])


def named_values(text: str) -> set[str]:
    """The words of `text` that could be what it states: a name or an identifier ("priya",
    "stg", "2"), not an English word (LoCoMo's "heads up" / "switch up" shared "up", and "coconut
    milk" another speaker's dessert)."""
    # (the word list holds no function words: "the", "can", "not" were values shared by all)
    low = ANNOTATED.sub("", text).lower()
    # a sum is one value: "$1,200" is no "1" and "200" of "$1.3M, … moved $200k" (a correction
    # of a budget was the latest word of late invoices, sharing them)
    low = _SUM_DECIMAL.sub(r"\1d\2", _THOUSANDS.sub("", low))
    # (and a release of three numbers one: "fixed in 2.14.0" is no "0" of "rolled new_checkout
    # back to 0%", which was its latest word)
    low = _RELEASE_NUMBER.sub(r"\1v\2v\3", low)
    # (and a ticket's key: "BUG-302 … good first issue" shares no "bug" with "BUG-301 downgraded
    # to P2", which was its latest word)
    low = _TICKET_KEY.sub(r"\1\2", low)
    # (and a day written with a slash: "first draft by 12/18" shares no "12" with "kickoff
    # pushed to Thu 12/10", which was its latest word for "who owns the brand guidelines?")
    low = _SLASHED_DAY.sub(r"\1s\2", low) if "/" in low else low
    found = {w for w in re.findall(r"[a-z0-9]+", low)
             if any(c.isdigit() for c in w) or (len(w) >= 3 and w not in _FUNCTION_WORDS
                                                and w not in _DATE_WORDS
                                                and not english_word(w))}
    # a number and its unit, written together or apart, are the number and the unit too:
    # "capped backoff at 30s instead of 60s" names the "60 s" of "Cap it at 60 s.", "Raised
    # max upload to 50MB" the "MB" of "Max upload size is 25 MB"
    return found | {part for m in _WITH_UNIT.finditer(low) for part in m.groups()
                    if part.isdigit() or len(part) >= 2}


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_SUM_DECIMAL = re.compile(r"(?<=[$€£])(\d+)\.(\d+)")
# a sum set anew for what the question and the answer name: "we're lowering 3B to $2,050 since
# …" after "3B asking rent $2,150", for "what's the rent for 3B?" (it names no rent)
_SUM_SET_TO = re.compile(r"(?i)\b(?:rais|lower|increas|decreas|reduc|bump|cutt?|dropp?)"
                         r"(?:ed|es|ing|s)?\s+(?P<what>(?:[\w'’-]+\s+){1,4}?)to\s+[$€£]\d")
_ASKS_VALUE = re.compile(r"(?i)^\W*(?:what|which|how)\b")
_CODE_NAME = re.compile(r"(?<![\w.])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w])")
_SLASHED_DAY = re.compile(r"(?<![\w/.])(\d{1,2})/(\d{1,2})(?![\w/]|\.\d)")
_TICKET_KEY = re.compile(r"(?<![\w-])([a-z][a-z0-9]*)-(\d+)\b")
_RELEASE_NUMBER = re.compile(r"(?<![\w.])v?(\d+)\.(\d+)\.(\d+)(?![\w.]*\d)")
_WITH_UNIT = re.compile(r"\b(\d+)\s?(ms|s|m|h|d|w|k|mb|gb|tb|kb|x|px|rps|rpm|qps)\b")


def _opens_with_release(text: str, question: str) -> bool:
    """Whether `text` opens with a release the question names: its subject ("3.2.0 slipping to
    Dec 9 to ship with the security fix" moved 3.2.0, for "when is 3.2.0 coming out?", and
    "pushing 3.2.0 to Dec 3 so it lands with the security fix"; a release named later is where
    a thing goes: "async default moves to 5.0"). Its mover may be said first: "we're slipping
    3.2.0 to Dec 14 so the CVE fix lands with it"."""
    first = VERSIONED.match(re.sub(rf"(?i)^[\W_]*(?:(?:we|i|they)(?:['\u2019](?:re|m|ll|ve)|\s+"
                                   rf"(?:are|am|will|have))?\s+(?:now\s+|also\s+)?)?"
                                   rf"(?:{MOVE_VERBS}\w*\s+)?(?:v(?=\d))?", "", text))
    return first is not None and first.group(0).lstrip("v") in {
        v.lstrip("v") for v in VERSIONED.findall(question)}


def _names_release(text: str, question: str) -> bool:
    """Whether `text` names every release the question names ("v3.2.0 release planned for Dec
    1" names the 3.2.0 of "when was 3.2.0 released?": its stems say "v3")."""
    asked = {v.lstrip("v") for v in VERSIONED.findall(question)}
    return bool(asked) and asked <= {v.lstrip("v") for v in VERSIONED.findall(text)}


def says_ended(text: str) -> bool:
    """Whether `text` says a state ended ("INC-774 closed", "CVE-2026-4417 fully remediated")."""
    return bool(_ENDED.search(ANNOTATED.sub("", text)))


def asks_still(question: str) -> bool:
    """"is the deploy still blocked?", "are audit logs still in Q1?": whether what stood still
    stands."""
    return bool(_ASKS_STILL.search(question))


# A pull request by its number ("#1502"), as chat writes it
PR_NUMBER = re.compile(r"(?<![\w&])#\d{2,}\b")
# A verdict alone, or after a short subject: "approved! starting phased rollout", "4.12 rejected:
# guideline 5.1.1, …", "reviewed, two nits" (memory.offline_extractor reads it beside what it
# judges; the answerer dates "when was 4.12 approved?" by the day it was said)
VERDICT = re.compile(r"(?i)^\W*(?P<subject>(?:[\w.#-]+\s+){0,2}?)"
                     r"(?:(?:it|we)\s*(?:['’]s|['’]re)\s+|"
                     r"(?:is|are|got|was|were|been|just|now)\s+)?"
                     r"(?:approved|rejected|merged|shipped|released|signed|accepted|"
                     r"declined|denied|cleared|published|reviewed|live|out|"
                     # (a review's: "requesting changes: the retry budget resets per process")
                     r"request(?:ing|ed)?\s+changes|changes\s+requested)"
                     r"(?:\s+(?:now|today|finally|again))?(?:\s*[!.:,🎉✅❌]|\s*$|"
                     r"\s+[—–-]\s)")
_STILL_STEMS = frozenset({"still", "anymor", "anymore", "yet", "more"})
_UNIT_WORDS = ("day days week weeks month months year years hour hours minute minutes percent "
               "per seat seats user users head")
_CHANGE_WORDS = "correction correct actually update updated not now instead"
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?")
_DAY_STEMS = frozenset({"q1", "q2", "q3", "q4", "today", "tomorrow", "yesterday", "week",
                        "month", "year", "quarter", *_DATE_WORDS,
                        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                        "sunday", "januari", "februari", "march", "april", "june", "juli",
                        "august", "septemb", "octob", "novemb", "decemb"})


# what a correction or a decision quotes of the message it answers (memory.offline_extractor)
_QUOTED_PARENT = re.compile(r"\s\((?:to|on) [^()\n]{1,60}?['’]s [\"\u201c].*[\"\u201d]\)\s*$")
# A reason given for a change ("…, since Tomás is out Thursday"): who or what it names is why,
# not what changed (it led "who is on the interview panel?" as the panel's correction).
_REASON_CLAUSE = re.compile(r"(?i),?\s*\b(?:because|since|as)\s+(?:\S+\s+){0,3}?"
                            r"(?:is|are|was|were|will|won't|can't|isn't|has|had|'s)\b[^.;]*")


_DROPS = r"(?:drop|remov|deprecat|sunset|retir|kill|delet|discontinu|end)"
_KEPT_AFTER_ALL = re.compile(r"(?i)(?P<what>[\w.+-]+)\s+(?:stays|remains|is\s+staying|is\s+kept|"
                             r"lives\s+on|sticks\s+around)\b|\bkeep(?:ing)?\s+(?P<kept>[\w.+-]+)")
_RAN_OUT = re.compile(r"(?i)\b(?:out\s+of|sold\s+out|ran\s+out|run\s+out|running\s+out|none\s+left|"
                      r"backorder\w*|out\s+of\s+stock)\b")
_RESTOCKED = re.compile(r"(?i)\b(?:back\s+in\s+stock|restock\w*|in\s+stock\s+again|"
                        r"(?:shipment|delivery|order)\s+(?:came|arrived|is\s+here|landed))\b")
_NOT_VALUE = re.compile(r"(?i)\bnot\s+([$€£]?\d[\d,.:]*(?:[ap]m|%|k)?)(?=\W*(?:$|[\s,.;)!]))")


def update_of(answer: Memory, candidates: Iterable[Memory], question: str,
              wanted: set[str], content_stems: Callable[[str], set[str]],
              speakers: Callable[[Memory], set[str]] | None = None,
              context: Callable[[Memory], str] | None = None) -> Memory | None:
    """The newest of `candidates` that updates `answer` (see the module), or None. `wanted`: the
    question's content stems that an answer must share; `content_stems`: a text's; `speakers`:
    the names of who said a memory (a first-person memory carries its speaker's name, which is
    no value it names); `context`: a memory's message as the caller holds it, whose subject a
    sentence of it need not repeat ("Health back to yellow." after "Initech call went fine")."""
    def stems(memory: Memory) -> set[str]:  # its words, not the dates labelled at ingest
        return content_stems(f"{ANNOTATED.sub('', memory.content)} {memory.topic_key or ''}")

    # from another message: its own (the first it cites; a reply also cites what it answers or
    # corrects) is none of the answer's
    said, sources = answer.said_at, set(answer.source_message_ids)
    later = [m for m in candidates if m.id != answer.id and m.said_at > said
             and not set(m.source_message_ids[:1]) & sources]
    # (a state that came back changes no date: "when is Acme's renewal?" is still Dec 15)
    again = not _ASKS_WHEN.match(question)
    changes = [m for m in later if says_change(m) or again and _AGAIN.search(m.content)]
    if _ASKS_STILL.search(question):
        # (what both share must be more than a day's word: "We're hiring … in Q1. Headcount
        # approved today" ended nothing of "is SSO still in Q1?")
        ended = [m for m in later if _ENDED.search(ANNOTATED.sub("", m.content))
                 and wanted & stems(m) and len(wanted & stems(m) & stems(answer))
                 >= ABOUT_SHARE * len(wanted)
                 and (wanted & stems(m) & stems(answer)) - _DAY_STEMS]
        # "are audit logs still in Q1?": "Audit logs slipped to Q2" says a change of the
        # subject both name, and lacks only the value the question and the answer hold
        # (the question's own words: "Lisbon" of "is the offsite still in Lisbon?" is a name,
        # which `wanted` leaves out)
        subject = (wanted | content_stems(question)) - _STILL_STEMS
        asked_words = set(re.findall(r"[a-z0-9]+", question.lower())) | named_values(question)
        moved = [m for m in later if says_change(m)
                 and (len(shared := (subject & stems(m) & stems(answer)) - _DAY_STEMS) >= 2
                      # (one word of the subject, and a new value it moves to: "is the offsite
                      # still in Lisbon?" after "the offsite moves to Porto, same dates")
                      or shared and named_values(m.content) - named_values(answer.content)
                      - asked_words
                      # (of the thing asked, not another the word names: "Hooli QBR moved to
                      # Dec 11" shares "hooli" with "is Dinesh still at Hooli?", and was the
                      # latest word of Dinesh leaving)
                      and _subject(m, content_stems) <= subject | stems(answer))
                 and subject - stems(m) and subject - stems(m) <= stems(answer)]
        if ended or moved:  # "is the deploy still blocked?": the newest word that it ended
            return max(ended + moved, key=lambda m: m.said_at)
    answer_stems, answer_values = stems(answer), named_values(answer.content)
    if _OPTIONS.search(answer.content) and not _OPTIONS.search(question):
        # the options weighed, then the one taken: "Options for the search backend:
        # Elasticsearch, OpenSearch, or Typesense." then "We're going with Elasticsearch 9"
        # (the options were the answer to "which search backend did we pick?")
        asked_words = set(re.findall(r"[a-z0-9]+", question.lower())) | named_values(question)
        # (a name that is an English word is one by its capital: "we went with Olive & Vine"
        # after "caterer shortlist: Olive & Vine or Smokehouse Co.")
        options = answer_values | _capitalised(answer.content)
        chosen = [m for m in later if CHOSE.search(m.content)
                  and ((named_values(m.content) | _capitalised(m.content)) & options)
                  - asked_words]
        if chosen:
            return max(chosen, key=lambda m: m.said_at)
    if _PROPOSES.search(answer.content) and not _PROPOSES.search(question) \
            and (_ASKS_WHEN.match(question) or _ASKS_SETTLED.search(question)):
        # a proposal, then what was settled of the thing it names: "Proposal: move the dbt runs
        # from Airflow to Dagster next quarter" then "ok, Dagster migration pencilled in for Q2
        # then" (the proposal answered "when are we moving to dagster?")
        settled = [m for m in later if _SETTLES.search(ANNOTATED.sub("", m.content))
                   and named_values(m.content) & answer_values - _ZONES]
        if settled:
            return max(settled, key=lambda m: m.said_at)
    # a newer reading of what the answer reads by its name: "KR3 71%" (a later check-in) after
    # "KR3 migrate 80% of services to k8s: 55%, behind", for "what percent of services are on
    # k8s?" (the later one names no k8s, and says no change)
    readings = _readings(answer.content)
    if readings:
        newer = [m for m in later
                 if any(value != readings.get(name, value)
                        for name, value in _readings(m.content).items())]
        if newer:
            return max(newer, key=lambda m: m.said_at)
    # a newer count of what is left of the same thing: "Another 60 flu shots given today, 80
    # left." after "140 flu doses left after last week" (said as a figure, no word of change)
    left = _LEFT_COUNT.search(ANNOTATED.sub("", answer.content))
    if left is not None:
        recounted = [m for m in later if (n := _LEFT_COUNT.search(ANNOTATED.sub("", m.content)))
                     and n[1] != left[1] and wanted & stems(m) & answer_stems - _LEFT_STEMS]
        if recounted:
            return max(recounted, key=lambda m: m.said_at)
    # a corrected sum of the same thing: "Acme sent a corrected invoice: $21,900 (they
    # double-billed storage)" after "Vendor invoice from Acme Cloud is $23,410, due Dec 20" (it
    # shares one word of "how much do we owe Acme Cloud?", and says no word of changing)
    sums = set(sums_named(answer.content))
    if sums:
        corrected = [m for m in later if (fixed := _CORRECTED_SUM.search(m.content))
                     and content_stems(fixed["what"]) <= answer_stems
                     and (new := set(sums_named(m.content)))
                     and not new & sums]
        if corrected:
            return max(corrected, key=lambda m: m.said_at)
    # a new price from whoever stated the price, per the same unit: "Got them down to $7,200/yr
    # on a 2-year term." after mo's "Audio middleware license renewal came in at $8,400/yr" (a
    # negotiation's outcome names no license, and says no word of changing)
    priced = _PRICE_PER.search(ANNOTATED.sub("", answer.content))
    if priced is not None and priced["recurring"] \
            and not wanted & content_stems(_DEAL_VALUE_WORDS):
        # (a deal's revenue is its value's, asked as such: "when did we send the Umbrella
        # proposal?" is no price, and its verbal yes at a new sum is no latest word of it)
        priced = None
    if priced is not None and speakers is not None and (by := speakers(answer)):
        repriced = [m for m in later if m.said_at - said <= _REPRICED_WITHIN
                    and _REPRICED.search(m.content) and speakers(m) & by
                    and (new := _PRICE_PER.search(ANNOTATED.sub("", m.content))) is not None
                    and _per(new) == _per(priced) and new["sum"] != priced["sum"]]
        if repriced:
            return max(repriced, key=lambda m: m.said_at)
    # someone the answer lists who is out of it since: "arjun can't make it, giving his pass to
    # mo" after "KubeCon … we have 3 passes: lea, arjun, sven" (the list answered "is arjun
    # going to KubeCon?"); of the same thing, a word both share ("pass"), not "arjun can't make
    # it to standup"
    if _ASKS_WHO_OR_WHETHER.match(question) and speakers is not None and answer.dates:
        # a turn on a rota swapped by whoever had it, for the same days: omar's "can't do next
        # week, swapping with dee. dee takes next week" after "on-call this week: lin. next week:
        # omar" (it names no "omar" as a value, and "who is on call next week?" was omar)
        plain_answer = ANNOTATED.sub("", answer.content).lower()
        swapped = [m for m in later if _SWAPS.search(m.content) and set(m.dates) & set(answer.dates)
                   and any(re.search(rf"\b{re.escape(w)}\b", plain_answer)
                           for name in speakers(m) for w in re.findall(r"[a-z]{2,}", name.lower()))]
        if swapped:
            return max(swapped, key=lambda m: m.said_at)
    dropped = []
    for m in later if _ASKS_WHO_OR_WHETHER.match(question) else ():  # (not when or where)
        out = _DROPS_OUT.search(ANNOTATED.sub("", m.content))
        if out is None:
            continue
        # (a day before it is no one: "dan has a work thing the morning of the 21st")
        who = {w for w in named_values(m.content[:out.start()]) if not w[:1].isdigit()} \
            if not _FIRST_PERSON.match(m.content) \
            else {w for name in (speakers(m) if speakers else ()) for w in
                  re.findall(r"[a-z0-9]+", name.lower())}
        # ("is lea going?": of lea only; "is ray coming?" of vol_ray, a handle's "vol" unasked)
        whether = not re.match(r"(?i)\W*who", question)
        if who and who <= answer_values \
                and (not whether or who & set(re.findall(r"[a-z0-9]+", question.lower()))) \
                and ((stems(m) & answer_stems) - who - _FUNCTION_WORDS - _DAY_STEMS
                     # (or out of a list of candidates or options that names them: "Ben
                     # withdrew, took another offer." after "3 candidates in onsite stage:
                     # Aiko, Ben, Carla", for "who is still in the pipeline?")
                     or _OPTIONS.search(answer.content)):
            dropped.append(m)
    if dropped:
        return max(dropped, key=lambda m: m.said_at)
    # an approval that cuts a value the answer states: "Approved the Pro increase, but
    # grandfathering only 6 months" after "Existing customers grandfathered for 12 months" (it
    # says no word of changing, and shares one of "how long are existing customers
    # grandfathered?")
    best_cut: Memory | None = None
    for memory in later:
        cut = _BUT_ONLY.search(ANNOTATED.sub("", memory.content))
        if cut is not None and content_stems(cut["what"]) <= answer_stems \
                and re.search(rf"(?i)\b\d+(?:\.\d+)?\s*{re.escape(cut['unit'])}",
                              ANNOTATED.sub("", answer.content)) \
                and (best_cut is None or memory.said_at > best_cut.said_at):
            best_cut = memory
    if best_cut is not None:
        return best_cut
    if _ASKS_WHERE.match(question) and (places := _AT_PLACE.findall(answer.content)):
        # a place booked instead, named beside the answer's own before: "Booked Pier 9, same
        # date and time." after "The Foundry double-booked us :( Looking at Pier 9 and The Loft
        # as backups", for "where is the holiday party?" (answered "… at The Foundry")
        rebooked = [m for m in later if (new := _BOOKED_PLACE.match(m.content))
                    and new["place"] not in places
                    and any(o.said_at < m.said_at and new["place"] in o.content
                            and any(p in o.content for p in places) for o in later)]
        if rebooked:
            return max(rebooked, key=lambda m: m.said_at)
    # a value the answer states said to be not so since: "rent is $1,900 from Jan 1 not
    # $1,925" after "unit 4B lease renews Jan 1, rent going from $1,850 to $1,925" (it says no
    # word of changing, and was the second answer to "what will 4B's rent be?")
    plain = ANNOTATED.sub("", answer.content)
    gainsaid = [m for m in later if any(
        v[0].isdigit() or v[0] in "$€£" and len(v) > 1 for v in (
            said.group(1) for said in _NOT_VALUE.finditer(ANNOTATED.sub("", m.content)))
        if re.search(rf"(?<![\w.,]){re.escape(v)}(?![\w,]|\.\d)", plain))
        and (wanted & stems(m) & answer_stems) - _DAY_STEMS]
    if gainsaid:
        return max(gainsaid, key=lambda m: m.said_at)
    # a thing the answer drops, kept since: "ok, 3.8 stays for 2.0 with a deprecation warning"
    # after "2.0 release plan: … drop Python 3.8 support" (it says no word of changing, and the
    # plan answered "is Python 3.8 supported in 2.0?")
    kept = [m for m in later for k in _KEPT_AFTER_ALL.finditer(ANNOTATED.sub("", m.content))
            if re.search(rf"(?i)\b{_DROPS}\w*\s+(?:[\w.+-]+\s+){{0,2}}?"
                         rf"{re.escape(k['what'] or k['kept'])}(?![\w.]|\.\d)", plain)
            and wanted & stems(m)]
    if kept:
        return max(kept, key=lambda m: m.said_at)
    # a thing run out of, stocked again since: "high-dose shipment came early! back in stock"
    # after "we're out of the high-dose flu vaccine, next shipment Dec 9" (no word of changing)
    if _RAN_OUT.search(plain):
        restocked = [m for m in later if _RESTOCKED.search(m.content)
                     and (wanted & stems(m) & answer_stems) - _DAY_STEMS]
        if restocked:
            return max(restocked, key=lambda m: m.said_at)
    if not changes:  # most answers: nothing later says a change, nothing more to read
        return None
    # (and its keys and releases as values are written: "po7712" of "how much is PO-7712?")
    asked_words = set(re.findall(r"[a-z0-9]+", question.lower())) | named_values(question)
    # whom or what the question names, in capitals after its first word ("Aisha")
    capitalised = set(re.findall(r"(?<=\s)[A-Z][a-z]+\b", question))
    versioned = {w for m in VERSIONED.finditer(question) for w in content_stems(m.group(0))}
    units, corrections = content_stems(_UNIT_WORDS), content_stems(_CHANGE_WORDS)
    day_nouns = content_stems(_DAY_NOUNS)
    best = None
    # a day the answer ties to another's ("Press embargo lifts at 9am ET that day [2027-01-14]"
    # after "Launch date … is Jan 14", its message's sentence): what moves that other thing moves
    # it ("Launch moved to Jan 21" shares no word of "when does the press embargo lift?")
    tied_to = (answer_stems | (content_stems(context(answer)) if context is not None else set())) \
        if _TIED_DAY.search(answer.content) else set()
    where_asked = bool(_ASKS_WHERE.match(question))
    code_names = set(_CODE_NAME.findall(ANNOTATED.sub("", answer.content)))
    # (of a value asked, not a yes or no: "new_checkout flag bumped to 50%" is no latest word
    # of "No, we agreed to keep new_checkout at 10%" for "should we enable new_checkout for
    # everyone?")
    asks_value = bool(_ASKS_VALUE.match(question))
    for memory in changes:
        own = stems(memory)
        asked = wanted & own
        # (a release the question names, moved: "3.2.0 slipping to Dec 9 …" shares its number
        # alone with "when is 3.2.0 coming out?", and names no other subject)
        release_moved = bool(memory.event_dates and SAYS_MOVED.search(memory.content)
                             and _opens_with_release(memory.content, question))
        if tied_to and memory.event_dates and SAYS_MOVED.search(memory.content) \
                and (subject := _subject(memory, content_stems)) and subject <= tied_to \
                and not subject & wanted:
            if best is None or memory.said_at > best.said_at:
                best = memory
            continue
        said_by = {w for name in (speakers(memory) if speakers else ()) for w in
                   re.findall(r"[a-z0-9]+", name.lower())}
        # (its own values, not those of what it quotes: "Correction: actually make that
        # $14/seat (to kai's "… $15/seat …")" named no "15" of "launch slips to Dec 15")
        values = (answer_values & named_values(
            _REASON_CLAUSE.sub("", _QUOTED_PARENT.sub("", memory.content)))) \
            - asked_words - said_by
        # about the question (a third of its words), or it says it takes back what the answer
        # states, naming it ("Never mind, ledger is trademarked, it's books-api now" for "what's
        # the new service called?", answered "We're naming the new service ledger-api")
        if asked and {w for w in wanted if not w.isdigit()} and all(w.isdigit() for w in asked) \
                and not _SAYS_UPDATE.match(memory.content) \
                and not release_moved:
            # (a release's number alone: "fair, async default moves to 5.0; 4.0 keeps sync
            # default" led "is connect_legacy removed in 4.0?" as the plan's latest word)
            continue
        if not asked and len(_NUMBER.findall(ANNOTATED.sub("", answer.content))) > 2:
            # (of an answer of several figures, a correction of one no question word names:
            # "correction: marketing is $1.3M, not $1.1M" led "what's the eng budget?" after
            # "FY27 budget: eng gets $4.2M, marketing $1.1M, G&A $800k")
            continue
        # (a name in code both write is one subject, whatever else the question names:
        # "switched retry_backoff to exponential …" after "`retry_backoff` in
        # payments/client.py uses a fixed 2s sleep", for "what backoff does payments use?")
        same_code = bool(asked and code_names and asks_value and set(
            _CODE_NAME.findall(ANNOTATED.sub("", memory.content))) & code_names)
        if (not asked or len(asked) < ABOUT_SHARE * len(wanted)) \
                and not (values - _ZONES and (_SAYS_UPDATE.match(memory.content)
                                             or again and _AGAIN.search(memory.content))) \
                and not same_code:
            continue
        words = {w for w in own if not any(c.isdigit() for c in w)} - units - corrections
        if not asked - units and wanted - units - own \
                and len(words) >= 2 and words <= answer_stems \
                and len(_NUMBER.findall(ANNOTATED.sub("", answer.content))) > 1:
            # of another of the answer's figures: "correction: carry-over cap is 10 days, not 5"
            # shares "days" alone with "how many PTO days do we get next year?", and led the
            # policy's "25 days plus your birthday off" as its latest word
            continue
        # names what the answer states ("Priya", "db-stg-2"), or both carry every question word
        # ("Billing is now owned by Sam" for "who owns billing?"; not "Can't wait for the
        # offsite!" for "when is the customer offsite?", which it does not answer)
        # (a version the question names may be the answer's alone: "Heads up: the code freeze
        # is pushed a week" names no release, and updates "Code freeze for the 4.2 release is
        # Dec 1" for "when is the code freeze for 4.2?"; one that names a release names it)
        names_one = VERSIONED.search(ANNOTATED.sub("", memory.content))
        if names_one and versioned and not versioned <= own:
            # (a release it names that the question does not: "2.15 ships Monday instead of
            # Thursday" led "what's in 2.16?" as the latest word of "PAY-884 … moving it to
            # 2.16")
            continue
        needed = wanted if names_one else wanted - versioned
        around = own | content_stems(context(memory)) if context is not None else own
        subject = _subject(memory, content_stems)
        # (or, saying it corrects, it names whom the question and the answer name, with a
        # word of the question: "small change: Aisha will join DevEx, not Infra" after
        # "welcome Aisha! she joins the platform team", for "which team is Aisha joining?")
        of_whom = bool(asked and capitalised and all(
                           re.search(rf"(?i)\b{re.escape(w)}\b", text)
                           for w in capitalised for text in (answer.content, memory.content))
                       and (_SAYS_UPDATE.match(memory.content)
                            or _SET_AGAINST.search(memory.content)))
        if not values and not of_whom and not same_code and not (release_moved
                                               and _names_release(answer.content, question)) \
                and not (needed <= answer_stems & around and wanted <= answer_stems | own
                         and subject <= answer_stems | wanted) \
                and not (subject and subject - day_nouns <= answer_stems
                         and asked & answer_stems
                         and (answer.event_dates and SAYS_MOVED.search(memory.content)
                              or _MOVED_TO_NEXT_CYCLE.search(memory.content))
                         # (the thing a verb with an object moves is its object: "Publisher
                         # moved the milestone review to Monday Dec 7, Friday still works for
                         # the build drop" moved no build "due Friday Dec 4")
                         and content_stems(_object_moved(memory.content)) - day_nouns
                         <= answer_stems | wanted) \
                and not (answer.event_dates and asked & answer_stems
                         and _SETS_NEW_DAY.search(memory.content)) \
                and not (_SAYS_UPDATE.match(memory.content) and memory.event_dates
                         and answer.event_dates and asked & answer_stems
                         and len({w for w in own & answer_stems if not w.isdigit()
                                  and not _MONTH_WORD.fullmatch(w)} - day_nouns) >= 2) \
                and not (where_asked and asked & answer_stems
                         and _PLACE_CHANGED.search(memory.content)) \
                and not ((set_to := _SUM_SET_TO.search(ANNOTATED.sub("", memory.content)))
                         and content_stems(set_to["what"]) & asked
                         and content_stems(set_to["what"]) <= answer_stems | wanted
                         and sums_named(answer.content)) \
                and not ((place := _MOVED_TO_A_PLACE.search(memory.content))
                         and (moved := content_stems(place["moved"]))
                         and moved <= answer_stems and asked & moved):
            # (or it moves what the answer names on a day, and says a word of the question
            # along: "launch slips to Dec 15. Embargo moves with it" after "launch is Dec 10,
            # press embargo lifts the same day", for "when does the press embargo lift?"; not
            # "Can't wait for the offsite", which states no day to move; or sets a new day
            # for what it shares a word of the question with: "Close is running late, new
            # target Dec 10" after "Target to close books by Dec 8"; or it corrects the day of
            # what it names in the answer's words: "correction: bonus payouts on Dec 17, payroll
            # runs a day early" after "bonus payouts will hit on Dec 18 …", for "when do bonuses
            # get paid?")
            continue
        changed = subject - {w for v in values for w in content_stems(v)}
        if values and changed and _MEASURE_MOVED.search(memory.content) \
                and not changed & (answer_stems | wanted):
            # a value both name, and a measure of something else moved: "p99 webhook latency
            # went from 180ms to 210ms" changed nothing of a review's issues that name the
            # webhook (of a verb with an object the words before it are who did it: "tom
            # bumped it" changed the upload limit)
            continue
        if _dated_elsewhere(memory, answer):
            continue
        if best is None or memory.said_at > best.said_at:
            best = memory
    if best is None and answer.event_dates and wanted and wanted <= answer_stems:
        # a move of the whole the answer plans a part of: "Upgrade pushed to Dec 15, same
        # time." after "Postgres 14 -> 16 upgrade plan: … prod cutover Dec 8 22:00 UTC" (for
        # "what time is the cutover?" it names no cutover)
        whole = [m for m in changes if m.event_dates and SAYS_MOVED.search(m.content)
                 and (subject := _subject(m, content_stems) - day_nouns)
                 and subject <= answer_stems and not subject & wanted
                 and _PLAN_OF_PARTS.search(answer.content) and not _dated_elsewhere(m, answer)]
        best = max(whole, key=lambda m: m.said_at, default=None)
    return best
