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
