"""The reads every ruleset gets from its views, under `/campaigns/{campaign}/<ruleset>/...`:
`show` of a conflict, and the ruleset's own reads (`RulesetViews.reads`)."""

from __future__ import annotations

import inspect
from typing import Any

from litestar import Request, get
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath

from tablelog.commands.endpoints import DEFAULT, loading_rulesets
from tablelog.commands.reads import Shown, ruleset_read, show
from tablelog.http.context import caller_for, store_of
from tablelog.projections.contract import Read
from tablelog.projections.registry import views_for


def _show(ruleset: str) -> HTTPRouteHandler:
    def handler(
        request: Request[Any, Any, Any], campaign: FromPath[str], conflict: FromPath[str]
    ) -> Shown:
        caller = caller_for(request, campaign)
        given = None if conflict == DEFAULT else conflict
        store = store_of(request.app.state)
        return show(store, caller.campaign, given, caller.viewer, ruleset=ruleset)

    handler.__name__ = handler.__qualname__ = "show"  # the operation's id: ...ConflictsShow
    handler.__doc__ = (
        "A conflict round by round, as the caller may see it (what is still hidden from the "
        f"caller is null). `{DEFAULT}` names the only open conflict."
    )
    path = f"/campaigns/{{campaign:str}}/{ruleset}/conflicts/{{conflict:str}}"
    return get(path, sync_to_thread=True, tags=["reads"])(handler)


def _read(ruleset: str, read: Read[Any]) -> HTTPRouteHandler:
    # The path's one placeholder (Improv's `/hands/{who}`) is the handler's parameter.
    placeholder = read.path[read.path.index("{") + 1 : read.path.index("}")]

    def handler(**kwargs: Any) -> Any:
        caller = caller_for(kwargs["request"], kwargs["campaign"])
        store = store_of(kwargs["request"].app.state)
        value = kwargs[placeholder]
        return ruleset_read(store, caller.campaign, ruleset, read.name, value, caller.viewer)

    params = [
        inspect.Parameter("request", inspect.Parameter.KEYWORD_ONLY, annotation=Request),
        inspect.Parameter("campaign", inspect.Parameter.KEYWORD_ONLY, annotation=FromPath[str]),
        inspect.Parameter(placeholder, inspect.Parameter.KEYWORD_ONLY, annotation=FromPath[str]),
    ]
    handler.__signature__ = inspect.Signature(params, return_annotation=dict[str, Any])  # type: ignore[attr-defined]
    handler.__annotations__ = {p.name: p.annotation for p in params} | {"return": dict[str, Any]}
    handler.__name__ = handler.__qualname__ = read.name
    handler.__doc__ = read.summary
    path = f"/campaigns/{{campaign:str}}/{ruleset}{read.path.replace('}', ':str}')}"
    return get(path, sync_to_thread=True, tags=["reads"])(handler)


def ruleset_routes() -> list[HTTPRouteHandler]:
    routes: list[HTTPRouteHandler] = []
    for name in loading_rulesets():
        routes.append(_show(name))
        routes.extend(_read(name, read) for read in views_for(name).reads)
    return routes
