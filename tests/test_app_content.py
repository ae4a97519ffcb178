"""What an app's message says beyond its text (bot/app_content.py): Slack attachments and blocks,
Discord embeds, forwards as their authors' words, link previews left out, malformed payloads read as far as
they go."""
from __future__ import annotations

import discord

from bot.app_content import discord_body, slack_body, slack_card_lines

PAGER = {"text": "", "attachments": [{
    "fallback": "Triggered #4312: High error rate on checkout-api", "color": "#d12a2a",
    "title": "#4312: High error rate on checkout-api",
    "title_link": "https://acme.pagerduty.com/incidents/Q1",
    "fields": [{"title": "Status", "value": "Triggered", "short": True},
               {"title": "Service", "value": "checkout-api", "short": True},
               {"title": "Assigned to", "value": "<@U1>", "short": True},
               {"title": "Escalation", "value": "", "short": True}],
    "footer": "PagerDuty"}]}

DEPLOY = {"text": "Deploy succeeded", "blocks": [
    {"type": "header", "text": {"type": "plain_text", "text": "Deploy succeeded"}},
    {"type": "section", "fields": [{"type": "mrkdwn", "text": "*Service:*\ncheckout-api"},
                                   {"type": "mrkdwn", "text": "*Version:*\nv4.2.0"},
                                   {"type": "mrkdwn", "text": "*Environment:*\nproduction"}]},
    {"type": "context", "elements": [{"type": "mrkdwn", "text": "Triggered by <@U1>"}]},
    {"type": "actions", "elements": [{"type": "button", "text": {"type": "plain_text",
                                                                 "text": "View run"}}]}]}


def test_an_alert_card_is_one_line_with_its_fields_in_brackets():
    assert slack_body(PAGER) == ("#4312: High error rate on checkout-api (Status Triggered; "
                                 "Service checkout-api; Assigned to <@U1>).")


def test_a_block_kit_card_keeps_its_fields_and_context_and_drops_the_text_it_repeats():
    assert slack_body(DEPLOY) == ("Deploy succeeded (Service checkout-api; Version v4.2.0; "
                                  "Environment production; Triggered by <@U1>).")


def test_a_header_starts_a_new_card():
    body = slack_body({"text": "", "blocks": [
        {"type": "header", "text": {"type": "plain_text", "text": "Weekly digest"}},
        {"type": "section", "text": {"type": "mrkdwn", "text": "3 incidents this week"}},
        {"type": "divider"},
        {"type": "section", "text": {"type": "mrkdwn", "text": "*On call next week:* priya"}}]})
    assert body == "Weekly digest. 3 incidents this week.\n*On call next week:* priya.", body


def test_a_person_s_rich_text_is_their_text_and_is_not_repeated():
    rich = [{"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
        {"type": "text", "text": "ship it on "}, {"type": "user", "user_id": "U2"}]}]}]
    assert slack_body({"text": "ship it on <@U2>", "blocks": rich}) == "ship it on <@U2>"
    assert slack_body({"text": "", "blocks": rich}) == "ship it on <@U2>"


def test_a_shared_message_is_its_author_s_words_and_a_link_preview_is_nobody_s():
    shared = {"text": "we should follow this", "attachments": [
        {"is_share": True, "is_msg_unfurl": True, "author_name": "Tom",
         "text": "Postgres 16 upgrade is on Dec 5\nDowntime: 10 minutes",
         "from_url": "https://acme.slack.com/archives/C1/p1"},
        {"from_url": "https://example.com/cats", "service_name": "Example",
         "title": "Cats of the internet", "text": "A page about cats"}]}
    assert slack_body(shared) == ("we should follow this\nShared from Tom: Postgres 16 upgrade is "
                                  "on Dec 5\nDowntime: 10 minutes")
    forwarded = {"text": "", "attachments": [{"is_share": True, "text": "",
                                              "fallback": "[Nov 20] Tom: freeze starts Dec 1"}]}
    assert slack_body(forwarded) == "Forwarded: [Nov 20] Tom: freeze starts Dec 1"


def test_what_an_app_s_update_changes_and_an_unfurl_does_not():
    unfurled = {"text": "see <https://example.com>", "attachments": [
        {"from_url": "https://example.com", "title": "Example"}]}
    assert slack_card_lines(unfurled) == slack_card_lines({"text": "see <https://example.com>"})
    resolved = {**PAGER, "attachments": [{**PAGER["attachments"][0], "fields": [
        {"title": "Status", "value": "Resolved"}]}]}
    assert slack_card_lines(resolved) != slack_card_lines(PAGER)


def test_malformed_payloads_are_read_as_far_as_they_go():
    assert slack_body({"text": "hi", "attachments": "nope", "blocks": {"type": "x"}}) == "hi"
    assert slack_body({"text": None, "attachments": [None, 3, {"fields": [None, {"title": 5}],
                                                               "title": ["x"]}]}) == ""
    assert slack_body({"blocks": [{"type": "section", "text": "plain", "fields": "x"},
                                  {"type": "context", "elements": [None]},
                                  {"type": "rich_text", "elements": [{"type": "link"}]}]}) \
        == ""
    assert slack_body({"text": "", "attachments": [{"title": "x" * 9000}]}).startswith("x" * 100)
    assert len(slack_body({"text": "", "attachments": [{"title": "x" * 9000}]})) <= 4000


def test_a_discord_bot_s_rich_embed_is_read_and_a_link_embed_is_not():
    deploy = discord.Embed(title="Deploy succeeded", description="checkout-api to production")
    deploy.add_field(name="Version", value="v4.2.0").add_field(name="Run", value="#8812")
    preview = discord.Embed.from_dict({"type": "link", "title": "Cats", "description": "A page"})
    assert discord_body("", [deploy, preview]) == (
        "Deploy succeeded. checkout-api to production (Version v4.2.0; Run #8812).")
    assert discord_body("deploy done", [discord.Embed(title="deploy done")]) == "deploy done."


def test_a_discord_forward_is_read():
    class Snapshot:
        content = "Postgres 16 upgrade is on Dec 5"
        embeds = [discord.Embed(title="Maintenance window", description="02:00-02:10 UTC")]

    assert discord_body("FYI", [], [Snapshot()]) == (
        "FYI\nForwarded: Postgres 16 upgrade is on Dec 5\nMaintenance window. 02:00-02:10 UTC.")


def test_a_secret_s_field_keeps_the_shape_the_redactor_reads():
    """A field read "Title value" hid a secret from the redactor ("api_key BlueFalcon77" was
    stored whole): a secret's label keeps its colon, and the value is redacted at ingest."""
    from memory.redaction import redact

    card = {"text": "", "attachments": [{"title": "Staging creds", "fields": [
        {"title": "DB_PASSWORD", "value": "Summer2008!"}, {"title": "api_key",
                                                           "value": "BlueFalcon77"},
        {"title": "Region", "value": "eu"}]}], "blocks": [{"type": "section", "fields": [
            {"type": "mrkdwn", "text": "*Secret:*\nStormLemonViolet"}]}]}
    body = slack_body(card)
    assert "Staging creds (Region eu).\nDB_PASSWORD: Summer2008!." in body, body
    stored = redact(body)[0]
    for secret in ("Summer2008!", "BlueFalcon77", "StormLemonViolet"):
        assert secret not in stored, stored
    embed = discord.Embed(title="Deploy").add_field(name="Secret", value="StormLemonViolet")
    assert "StormLemonViolet" not in redact(discord_body("", [embed]))[0]
