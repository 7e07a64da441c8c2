"""Creating and listing campaigns."""

from __future__ import annotations

import uuid
from collections.abc import Mapping

import msgspec

from tablelog.commands.access import new_token
from tablelog.events.core import CampaignCreated
from tablelog.events.envelope import Envelope, Pending
from tablelog.rules import notice_options, registry, rng_options
from tablelog.rules.names import campaign_key, campaign_name, gm_name
from tablelog.rules.options import parse_options, to_record
from tablelog.storage import EventStore


class Created(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    ruleset: str
    gm: str
    token: str
    event: Envelope


class CampaignSummary(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    ruleset: str
    seq: int
    events: int
    created_at: int
    last_activity: int
    head_hash: str


def plan_campaign(
    name: str,
    *,
    ruleset: str,
    gm: str = "gm",
    options: Mapping[str, str] | None = None,
) -> CampaignCreated:
    """Check a new campaign's name, ruleset, GM and options; touches no database.

    The creation event records every option's value (defaults filled in), so a replay always
    uses the options the campaign began with.
    """
    key = campaign_name(name)
    rules = registry.get(ruleset)
    gm_key = gm_name(gm)
    own, core = rng_options.split(options or {})
    own, notices = notice_options.split(own)
    resolved = parse_options(rules.options_type, own, ruleset=rules.name)
    if rules.check_options is not None:
        rules.check_options(resolved)
    recorded = {
        **to_record(resolved),
        **rng_options.parse(core),
        **notice_options.parse(notices),
    }
    return CampaignCreated(campaign=key, ruleset=rules.name, gm=gm_key, options=recorded)


def start_campaign(store: EventStore, plan: CampaignCreated, *, link: bool = False) -> Created:
    """Write a planned campaign: its first event and the GM's access token, in one transaction.

    The token is stored only as a digest and cannot be shown again (`link`: a sign-in link's
    token instead of a bearer token, as the admin page hands out). A name too like an
    existing campaign's (`rec.` beside `rec`: see `campaign_key`) is refused.
    """
    token, digest = new_token()
    with store.new_campaign(plan.campaign, plan.ruleset, like=campaign_key) as tx:
        result = tx.append([Pending.of(plan, actor=plan.gm, event_id=str(uuid.uuid4()))])
        tx.add_access_token(
            token_hash=digest, player=plan.gm, role="gm", kind="link" if link else "token"
        )
    return Created(
        campaign=plan.campaign,
        ruleset=plan.ruleset,
        gm=plan.gm,
        token=token,
        event=result.events[0],
    )


def create_campaign(
    store: EventStore,
    name: str,
    *,
    ruleset: str,
    gm: str = "gm",
    options: Mapping[str, str] | None = None,
) -> Created:
    """Start a campaign: `plan_campaign` then `start_campaign`."""
    return start_campaign(store, plan_campaign(name, ruleset=ruleset, gm=gm, options=options))


def list_campaigns(store: EventStore) -> list[CampaignSummary]:
    return [
        CampaignSummary(
            campaign=head.name,
            ruleset=head.ruleset,
            seq=head.seq,
            events=head.seq,
            created_at=head.created_at,
            last_activity=head.updated_at,
            head_hash=head.hash.hex(),
        )
        for head in store.campaigns()
    ]
