"""Slack's markup as people read it, for text that reaches the engine without the Slack adapter.

A Slack export fed to `lurker ingest`, or an agent posting Slack text to the API, carries
`<!here>`, `<@U07QX|maya>`, `<#C1|ops>` and `<https://…|label>`. Stored as written, recall
quoted `<!here>` back, and an agent that posts an answer to Slack would ping the channel. The
Slack adapter (bot/slack_app.py) does the same with its users' names looked up; this is the
lookup-free part, shared by both."""
from __future__ import annotations

import re
from datetime import datetime, timezone

MENTION = re.compile(r"<@([UW][A-Z0-9]+)(?:\|([^>]*))?>")
CHANNEL = re.compile(r"<#([CG][A-Z0-9]+)(?:\|([^>]*))?>")
LINK = re.compile(r"<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>")
SPECIAL = re.compile(r"<!(here|channel|everyone)(?:\|[^>]*)?>")
# `<!date^1765353600^{date_short}|Dec 10, 2025>`: the fallback text is what its writer read;
# `<!subteam^S1|@oncall>`: a user group, by its handle
DATE = re.compile(r"<!date\^(-?\d{1,12})\^[^|>]*(?:\|([^>]*))?>")
SUBTEAM = re.compile(r"<!subteam\^[A-Z0-9]+(?:\|@?([^>]*))?>")


def slack_date(found: re.Match) -> str:
    """A `<!date^…>` as its fallback text, else its UTC date; unparseable: as written."""
    if found.group(2):
        return found.group(2)
    try:
        return datetime.fromtimestamp(int(found.group(1)), tz=timezone.utc).strftime("%Y-%m-%d")
    except (OverflowError, OSError, ValueError):
        return found.group(0)


def readable_slack(text: str, user_name=None) -> str:
    """`<@U1|maya>` -> `@maya` (`user_name(id)` names a bare `<@U1>`, else `@U1`; without
    `user_name` a bare one is left for the answer to name from the authors it knows, never as
    an id: memory.people.without_platform_ids), `<#C1|ops>`
    -> `#ops`, `<url|label>` -> `label (url)`, `<!here>` -> `@here`, dates, user groups. Entities
    (`&amp;`) are left: only the adapter knows its text is Slack's. Until nothing changes (a
    label may hold markup: `<!date^1^x|<@U1>>`), so that cleaning twice gives what once did;
    every change takes a `<` away, so it ends."""
    while "<" in text:
        before = text
        text = MENTION.sub(lambda m: m.group(0) if not (m.group(2) or user_name) else "@" + (
            m.group(2) or user_name(m.group(1)) or m.group(1)), text)
        text = CHANNEL.sub(lambda m: "#" + (m.group(2) or m.group(1)), text)
        text = LINK.sub(lambda m: f"{m.group(2)} ({m.group(1)})" if m.group(2) else m.group(1),
                        text)
        text = SPECIAL.sub(lambda m: "@" + m.group(1), text)
        text = DATE.sub(slack_date, text)
        text = SUBTEAM.sub(lambda m: "@" + (m.group(1) or "some-group"), text)
        if text == before:
            break
    return text
