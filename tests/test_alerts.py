"""How long an alert lasted, computed from its firing and its resolution (memory.alerts)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from memory.alerts import alert_span, clock, duration_words
from memory.models import Memory

T0 = datetime(2026, 11, 24, 14, 5, tzinfo=timezone.utc)


def said(text: str, minutes: int) -> Memory:
    return Memory(id=f"m{minutes}", type="event", content=text, created_at=T0,
                  event_time=T0 + timedelta(minutes=minutes))


def test_the_same_alert_firing_then_resolved_is_a_span():
    fired = said("TRIGGERED: checkout-api error rate > 5% (SEV2)", 0)
    other = said("RESOLVED: search-api latency p99 > 2s", 20)  # another alert's end
    ended = said("RESOLVED: checkout-api  error rate > 5% (SEV2)", 47)
    later = said("RESOLVED: checkout-api error rate > 5% (SEV2)", 90)  # the first end counts
    assert alert_span([ended, other, later, fired]) == (fired, ended)
    for firing, resolved in (("[FIRING:1] HighErrorRate checkout",
                              "[RESOLVED] HighErrorRate checkout"),
                             ("[Alerting] disk full on db-2", "[OK] disk full on db-2"),
                             ("Triggered: #1234 api down", "Resolved: #1234 api down")):
        assert alert_span([said(firing, 0), said(resolved, 5)]) is not None, firing


def test_a_resolution_that_names_the_alert_without_its_condition_ends_it():
    """Alertmanager resolves with the alert's name alone: "[RESOLVED] HighErrorRate checkout-api"
    after "[FIRING] HighErrorRate checkout-api 5xx > 5% for 5m" (no span: "how long did the
    outage last?" was declined). A name of one word is no alert's whole name."""
    fired = said("[FIRING] HighErrorRate checkout-api 5xx > 5% for 5m", 0)
    ended = said("[RESOLVED] HighErrorRate checkout-api", 18)
    assert alert_span([fired, ended]) == (fired, ended)
    assert alert_span([fired, said("[RESOLVED] HighErrorRate", 18)]) is None
    assert alert_span([fired, said("[RESOLVED] HighErrorRate search-api", 18)]) is None


def test_no_span_without_the_same_alert_resolved_after_it():
    fired = said("TRIGGERED: checkout-api error rate > 5%", 10)
    assert alert_span([fired, said("RESOLVED: checkout-api error rate > 5%", 0)]) is None
    assert alert_span([fired, said("RESOLVED: search-api error rate > 5%", 30)]) is None
    assert alert_span([said("we triggered the deploy: v2 is out", 0),
                       said("resolved: the deploy is fine", 5)]) is None


def test_durations_and_clocks_read_as_people_say_them():
    assert duration_words(timedelta(minutes=47)) == "47 minutes"
    assert duration_words(timedelta(hours=2, minutes=5)) == "2 hours 5 minutes"
    assert duration_words(timedelta(days=3, hours=4, minutes=10)) == "3 days 4 hours"
    assert duration_words(timedelta(hours=1)) == "1 hour"
    assert clock(T0) == "14:05 UTC"
    cet = timezone(timedelta(hours=1))
    assert clock(T0.astimezone(cet)) == "15:05 UTC+01:00"


def test_an_incident_declared_then_resolved_in_its_thread_is_a_span():
    """People declare an incident and resolve it in its thread: the resolution (a reply, which
    cites the declaring message after its own) ends that incident, not another one."""
    declared = said("Declaring SEV2: checkout is returning 502s.", 0)
    declared.source_message_ids = ["root"]
    elsewhere = said("Resolved. Search latency is back to normal.", 20)
    elsewhere.source_message_ids = ["r1", "other-root"]  # another thread's resolution
    resolved = said("Resolved. Error rate back to baseline. (on maya's \"Declaring SEV2: …\")", 69)
    resolved.source_message_ids = ["r2", "root"]
    assert alert_span([elsewhere, resolved, declared]) == (declared, resolved)
    assert alert_span([declared, elsewhere]) is None
    early = said("Resolved. Error rate back to baseline.", 0)
    early.source_message_ids = ["r0", "root"]
    late = said("Declaring SEV2: checkout is returning 502s.", 10)
    late.source_message_ids = ["root"]
    assert alert_span([late, early]) is None  # an end before the start ends nothing
    for opened in ("SEV1 declared: payments down", "We have a major incident on search",
                   "declaring an incident for the login errors", "Declaring P1: EU region",
                   # (7 Dec, thirtieth session: a severity opening the message, and the team's
                   # on-call paged, were no incident: "how long was the payments outage?")
                   "SEV2: payments API 5xx at 12%", "5xx at 12%, paging payments on-call"):
        start = said(opened, 0)
        start.source_message_ids = ["root"]
        assert alert_span([start, resolved]) == (start, resolved), opened
    chat = said("We declared the new API stable last week.", 0)
    chat.source_message_ids = ["root"]
    assert alert_span([chat, resolved]) is None


def test_a_status_in_brackets_after_the_title_is_a_span():
    """6 Dec (nineteenth session), an on-call channel's pager bot writes the status after the
    title: "🔥 [SEV2] checkout-api p99 latency > 2s (triggered). Assigned: @kenji", then "✅
    [SEV2] checkout-api p99 latency > 2s (resolved). Duration 26m" ("how long did the checkout
    incident last?" was answered with the trigger and "Assigned: @kenji")."""
    fired = said("🔥 [SEV2] checkout-api p99 latency > 2s (triggered).", 0)
    other = said("✅ [SEV3] disk usage > 85% on logs-2 (resolved).", 10)
    ended = said("✅ [SEV2] checkout-api p99 latency > 2s (resolved). Duration 26m", 26)
    assert alert_span([fired, other, ended]) == (fired, ended)
    # (a bracket that is no status is no alert: "the deploy (v2)" fired nothing)
    assert alert_span([said("shipped the deploy (v2).", 0),
                       said("shipped the deploy (resolved).", 5)]) is None


def test_a_metric_that_fired_and_resolved_at_other_values_is_one_alert():
    """7 Dec (twenty-seventh session): "[FIRING] api-gateway 5xx rate 12% (threshold 2%)
    region=eu-west-1" then "[RESOLVED] api-gateway 5xx rate 0.3% region=eu-west-1" (the value
    it ended on differs from the one it fired on) was no span, and "how long did the 5xx
    incident last?" listed a postmortem's plan. Another host or region is another alert."""
    fired = said("[FIRING] api-gateway 5xx rate 12% (threshold 2%) region=eu-west-1", 0)
    ended = said("[RESOLVED] api-gateway 5xx rate 0.3% region=eu-west-1", 33)
    assert alert_span([fired, ended]) == (fired, ended)
    assert alert_span([fired, said("[RESOLVED] api-gateway 5xx rate 0.3% region=eu-west-2",
                                   33)]) is None
    assert alert_span([said("[FIRING] disk usage 95% on db-1", 0),
                       said("[RESOLVED] disk usage 40% on db-2", 9)]) is None
