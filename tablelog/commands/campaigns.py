"""Creating and listing campaigns."""

from __future__ import annotations

import uuid
from collections.abc import Mapping

import msgspec

from tablelog.commands.access import new_token
from tablelog.events.core import CampaignCreated
from tablelog.events.envelope import Envelope, Pending
from tablelog.rules import registry
from tablelog.rules.names import campaign_name, player_name
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


def create_campaign(
    store: EventStore,
    name: str,
    *,
    ruleset: str,
    gm: str = "gm",
    options: Mapping[str, str] | None = None,
) -> Created:
    """Start a campaign: its first event records the ruleset and every option's value.

    Returns the GM's access token, which is stored only as a digest and cannot be shown again.
    """
    key = campaign_name(name)
    rules = registry.get(ruleset)
    gm_key = player_name(gm)
    resolved = parse_options(rules.options_type, options or {}, ruleset=rules.name)
    event = CampaignCreated(
        campaign=key, ruleset=rules.name, gm=gm_key, options=to_record(resolved)
    )
    token, digest = new_token()
    with store.new_campaign(key, rules.name) as tx:
        result = tx.append([Pending.of(event, actor=gm_key, event_id=str(uuid.uuid4()))])
        tx.add_access_token(token_hash=digest, player=gm_key, role="gm")
    return Created(campaign=key, ruleset=rules.name, gm=gm_key, token=token, event=result.events[0])


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
