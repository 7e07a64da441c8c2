"""Failed sign-ins per address (the service's throttle), on a clock the test moves."""

from __future__ import annotations

import pytest

from tablelog.errors import TooManyFailures
from tablelog.http.throttle import CAMPAIGN_WINDOW_S, WINDOW_S, CampaignQuota, FailedSignIns


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_address_is_refused_after_its_limit_until_the_oldest_failure_ages() -> None:
    clock = Clock()
    sign_ins = FailedSignIns(3, clock=clock)
    for _ in range(3):
        sign_ins.check("10.0.0.1")
        sign_ins.failed("10.0.0.1")
        clock.now += 10
    with pytest.raises(TooManyFailures) as refused:
        sign_ins.check("10.0.0.1")
    assert refused.value.retry_after == WINDOW_S - 30
    sign_ins.check("10.0.0.2")  # another address is not held to it
    clock.now = 1000.0 + WINDOW_S + 0.5  # the first failure is now a minute old
    sign_ins.check("10.0.0.1")
    sign_ins.failed("10.0.0.1")
    with pytest.raises(TooManyFailures):
        sign_ins.check("10.0.0.1")


def test_the_addresses_remembered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tablelog.http.throttle._ADDRESSES_KEPT", 100)
    sign_ins = FailedSignIns(1, clock=Clock())
    for n in range(1000):
        sign_ins.failed(f"10.0.{n // 256}.{n % 256}")
    assert len(sign_ins._seen) == 100
    sign_ins.check("10.0.0.0")  # the oldest were forgotten first
    with pytest.raises(TooManyFailures):
        sign_ins.check("10.0.3.231")


def test_campaigns_are_counted_per_address_and_hour() -> None:
    clock = Clock()
    quota = CampaignQuota(2, clock=clock)
    for _ in range(2):
        quota.check("10.0.0.1")
        quota.created("10.0.0.1")
        clock.now += 60
    with pytest.raises(TooManyFailures) as refused:
        quota.check("10.0.0.1")
    assert refused.value.code == "too-many-campaigns"
    assert refused.value.retry_after == CAMPAIGN_WINDOW_S - 120
    quota.check("10.0.0.2")
    clock.now = 1000.0 + CAMPAIGN_WINDOW_S + 0.5
    quota.check("10.0.0.1")  # the first one is an hour old
