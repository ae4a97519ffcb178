"""What a chat message says beyond its text field, read as people read it in the channel.

Alerting, CI and deploy apps (PagerDuty, GitHub Actions, Datadog, Sentry webhooks) post their news
as Slack attachments or blocks, or as Discord embeds, often with an empty or one-word text: reading
the text alone stored nothing of "Deploy succeeded · checkout-api v4.2.0 · production". A
forwarded or shared message carries what it forwards the same way, and is read as its author's
words said here ("Shared from Tom: …"). A link's preview (a page the platform fetched) is
nobody's words in the channel and is left out.

Each card becomes one line ("Title. Text (Field value; Field value)."), so the fields keep the
thing they describe; a line whose words the text already says is not repeated.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from memory.redaction import redact

PART_CHARS = 4000  # one card or forward at most: an app pasting a whole log gets its head read

_WORDS = re.compile(r"\w+")


def slack_body(raw: dict) -> str:
    """A Slack message's text (mrkdwn) with its app cards and forwards: `text`, then the lines
    of its non-rich-text blocks, its attachments, and the messages it shares."""
    text = raw.get("text") or ""
    parts = list(_slack_blocks(raw.get("blocks"), with_rich_text=not text.strip()))
    for attachment in _dicts(raw.get("attachments")):
        if attachment.get("is_share") or attachment.get("is_msg_unfurl"):
            parts.append(_shared(_str(attachment.get("text"))
                                 or "\n".join(_slack_blocks(_shared_blocks(attachment), True))
                                 or _str(attachment.get("fallback")),
                                 _str(attachment.get("author_name"))
                                 or _str(attachment.get("author_subname"))))
        elif not _is_link_preview(attachment):
            parts.append(_slack_card(attachment))
    return with_parts(text, parts)


def slack_card_lines(raw: dict) -> str:
    """The app cards of a message without its forwards: what an app's update (`chat.update`)
    changes, where a link or a message unfurling later changes nothing that was said."""
    parts = list(_slack_blocks(raw.get("blocks"), with_rich_text=False))
    parts += [_slack_card(a) for a in _dicts(raw.get("attachments"))
              if not (a.get("is_share") or a.get("is_msg_unfurl") or _is_link_preview(a))]
    return "\n".join(p for p in parts if p)


def discord_body(content: str, embeds: Iterable, forwarded: Iterable = ()) -> str:
    """A Discord message's content with its rich embeds (what bots and webhooks post) and the
    messages it forwards (discord.py's `message_snapshots`). Embeds of other types are
    link previews."""
    parts = [discord_embed_line(e) for e in embeds if getattr(e, "type", "rich") == "rich"]
    for snapshot in forwarded:
        inner = discord_body(getattr(snapshot, "content", "") or "",
                             getattr(snapshot, "embeds", ()) or ())
        parts.append(_shared(inner, ""))
    return with_parts(content or "", parts)


def discord_embed_line(embed) -> str:
    fields = [_field(f"{_str(getattr(f, 'name', ''))}: {_str(getattr(f, 'value', ''))}")
              for f in getattr(embed, "fields", ()) or ()]
    return _card([_str(getattr(embed, "title", None)), _str(getattr(embed, "description", None))],
                 fields)


def with_parts(text: str, parts: Iterable[str]) -> str:
    """`text`, then each part whose words it does not already say; no `text` where a part says
    all of it (an app's text is often its card's title, a notification's fallback)."""
    parts = [p for p in parts if p and _said(p)]
    lines, said = ([text], _said(text)) if text.strip() else ([], [])
    if said and any(_contains(_said(p), said) for p in parts):
        lines, said = [], []
    for part in parts:
        words = _said(part)
        if part and words and not _contains(said, words):
            lines.append(part)
            said += words
    return "\n".join(lines)


# --- Slack ------------------------------------------------------------------------------------
def _slack_blocks(blocks, with_rich_text: bool) -> Iterable[str]:
    """Block Kit as cards: a header starts one (as a divider ends one), its sections' text and
    fields and its context lines ("Triggered by @maya") belong to it."""
    sentences: list[str] = []
    fields: list[str] = []
    for block in _dicts(blocks):
        kind = block.get("type")
        if kind in ("header", "divider") or kind == "rich_text" and with_rich_text:
            yield _card(sentences, fields)
            sentences, fields = [], []
        if kind in ("header", "section"):
            sentences.append(_text_of(block.get("text")))
            fields += [_field(_text_of(f)) for f in _dicts(block.get("fields"))]
        elif kind == "context":
            fields.append(" · ".join(t for t in (_text_of(e) for e in _dicts(
                block.get("elements"))) if t))
        elif kind == "rich_text" and with_rich_text:
            yield _rich_text(block).strip()
    yield _card(sentences, fields)


def _slack_card(attachment: dict) -> str:
    inner = list(_slack_blocks(attachment.get("blocks"), with_rich_text=True))
    fields = [_field(f"{_str(f.get('title'))}: {_str(f.get('value'))}")
              for f in _dicts(attachment.get("fields")) if _str(f.get("value"))]
    line = _card([_str(attachment.get(k)) for k in ("pretext", "title", "text")] + inner, fields)
    return line or _str(attachment.get("fallback"))


def _is_link_preview(attachment: dict) -> bool:
    return bool(attachment.get("from_url") or attachment.get("original_url")
                or attachment.get("app_unfurl_url") or attachment.get("is_app_unfurl"))


def _shared_blocks(attachment: dict) -> list:
    blocks = []
    for shared in _dicts(attachment.get("message_blocks")):
        message = shared.get("message")
        blocks += (message.get("blocks") or []) if isinstance(message, dict) else []
    return blocks


def _text_of(obj) -> str:
    return _str(obj.get("text")) if isinstance(obj, dict) else ""


def _rich_text(element) -> str:
    """Slack's rich_text tree as its text: text runs, links, mentions in Slack's own markup (the
    adapter's `readable` names them), lists as lines."""
    if not isinstance(element, dict):
        return ""
    kind = element.get("type")
    if kind == "text":
        return element.get("text") if isinstance(element.get("text"), str) else ""
    if kind == "link":
        url, label = _str(element.get("url")), _str(element.get("text"))
        return (f"<{url}|{label}>" if label else f"<{url}>") if url else label
    if kind == "user":
        return f"<@{_str(element.get('user_id'))}>"
    if kind == "channel":
        return f"<#{_str(element.get('channel_id'))}>"
    if kind == "emoji":
        return f":{_str(element.get('name'))}:"
    joiner = "\n" if kind in ("rich_text", "rich_text_list") else ""
    inner = joiner.join(_rich_text(e) for e in _dicts(element.get("elements")))
    if kind == "rich_text_quote":
        return _quoted(inner)
    if kind == "rich_text_preformatted":
        return f"```{inner}```"
    if kind == "rich_text_list":
        return "\n".join("• " + line for line in inner.split("\n") if line)
    return inner


# --- shared -----------------------------------------------------------------------------------
def _card(lines: list[str], fields: list[str]) -> str:
    """One line: the card's sentences, its fields in brackets after them ("Deploy succeeded
    (Service checkout-api; Version v4.2.0)."), so each field keeps the thing the card is about. A
    field reads "Service checkout-api", not "Service: checkout-api": a colon would make it a
    topic of its own, and the next card's "Service: billing" its change. A secret's field goes
    on a line of its own after it ("Token: …", redacted at ingest): beside the card it made the
    whole card a line about a secret, which the extractor keeps no memory of."""
    sentences = [" ".join(line.split()) for line in lines if line and line.strip()]
    fields = [" ".join(f.split()) for f in fields if f and f.strip(" :")]
    secrets = [f for f in fields if _SECRET_FIELD.match(f)]
    fields = [f for f in fields if f not in secrets]
    body = " ".join(_sentence(s) for s in sentences[:-1])
    last = sentences[-1].rstrip(".") if sentences else ""
    body = (body + " " + last).strip()
    if fields:
        body = f"{body} ({'; '.join(fields)})" if body else "; ".join(fields)
    body = body if not body or body[-1] in ".!?…" else body + "."
    return "\n".join([body] * bool(body) + [f"{f}." for f in secrets])[:PART_CHARS]


_SECRET_FIELD = re.compile(r"^[^:]{1,40}?: ")  # only a secret's label keeps its colon (_field)


def _field(text: str) -> str:
    """"*Version:*\nv4.2.0" (a section field) and "Version: v4.2.0" read "Version v4.2.0"; a
    secret's label keeps its colon ("DB_PASSWORD: …", "api_key: …"), the shape the redactor
    reads a secret by (without it "api_key BlueFalcon77" was stored whole)."""
    text = re.sub(r"^\*([^*\n]+?)\*", r"\1", text.strip()).replace("\n", " ").strip()
    labelled = re.match(r"^([^:]{1,40}?):\s*(.*)$", text)
    if not labelled:
        return text
    if not labelled[2]:
        return labelled[1]
    colon = f"{labelled[1]}: {labelled[2]}"
    return colon if redact(colon)[0] != colon else f"{labelled[1]} {labelled[2]}"


def _sentence(line: str) -> str:
    return line if not line or line[-1] in ".!?:;…)" or line.endswith("```") else line + "."


def _shared(text: str, author: str) -> str:
    """A forwarded message as its author's words, said here: "Shared from Tom: Postgres 16 upgrade
    is on Dec 5" (the people in this channel were told it, as if Tom had said it here)."""
    text = text.strip()[:PART_CHARS]
    return f"{'Shared from ' + author if author else 'Forwarded'}: {text}" if text else ""


def _quoted(text: str) -> str:
    text = text.strip()[:PART_CHARS]
    return "\n".join("> " + line for line in text.split("\n") if line.strip()) if text else ""


def _said(text: str) -> list[str]:
    return _WORDS.findall(text.lower())


def _contains(said: list[str], words: list[str]) -> bool:
    """`words` appear in `said` as one run (a card's title repeated by the text)."""
    n = len(words)
    return any(said[i:i + n] == words for i in range(len(said) - n + 1))


def _dicts(items) -> list[dict]:
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _str(value) -> str:
    return value.strip() if isinstance(value, str) else ""
