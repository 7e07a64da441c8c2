"""Domain errors as HTTP responses: the same code and sentence as the CLI, as JSON."""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, NotFoundException, ValidationException

from tablelog.errors import (
    AlreadyExists,
    ConcurrencyConflict,
    Forbidden,
    NotFound,
    StorageError,
    TablelogError,
    TooManyFailures,
    TooManyFeeds,
    Unauthenticated,
    for_clients,
)

_LOG = logging.getLogger("tablelog.http")
# A request body is a command's or a what-if's: kilobytes. Litestar's own default is 10 MB.
MAX_BODY = 1_048_576


def status_of(exc: TablelogError) -> int:
    if isinstance(exc, Unauthenticated):
        return 401
    if isinstance(exc, Forbidden):
        return 403
    if isinstance(exc, ConcurrencyConflict):
        return 409
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, AlreadyExists):
        return 409
    if isinstance(exc, StorageError):
        return 503
    if isinstance(exc, TooManyFailures | TooManyFeeds):
        return 429
    return 422  # a refused action or bad input


def body(code: str, message: str, **extra: object) -> dict[str, object]:
    return {"code": code, "message": message, **extra}


def domain_error(_request: Request[Any, Any, Any], exc: TablelogError) -> Response[object]:
    if isinstance(exc, StorageError):
        _LOG.error("the database failed: %s", exc.message)
        return Response(body(exc.code, for_clients(exc)), status_code=503)
    extra: dict[str, object] = {}
    if isinstance(exc, ConcurrencyConflict):
        extra = {"expected": exc.expected, "actual": exc.actual}
    headers = {"WWW-Authenticate": 'Bearer realm="tablelog"'} if status_of(exc) == 401 else None
    if isinstance(exc, TooManyFailures):
        headers = {"Retry-After": str(exc.retry_after)}
    return Response(
        body(exc.code, exc.message, **extra), status_code=status_of(exc), headers=headers
    )


def invalid_body(_request: Request[Any, Any, Any], exc: ValidationException) -> Response[object]:
    problems = exc.extra if isinstance(exc.extra, list) else []
    detail = "; ".join(
        str(p.get("message", "")) + (f" ({p.get('key')})" if p.get("key") else "")
        for p in problems
        if isinstance(p, dict)
    )
    message = f"the request is not valid: {detail or exc.detail}"
    return Response(body("invalid-body", message), status_code=422)


def http_error(_request: Request[Any, Any, Any], exc: HTTPException) -> Response[object]:
    if exc.status_code == 413:
        message = f"the request body is larger than the service takes ({MAX_BODY:,} bytes)"
        return Response(body("too-large", message), status_code=413)
    code = "not-found" if isinstance(exc, NotFoundException) else "http-error"
    return Response(body(code, str(exc.detail)), status_code=exc.status_code)


def internal_error(request: Request[Any, Any, Any], exc: Exception) -> Response[object]:
    # A bug: logged with its traceback on the server, one sentence for the caller.
    _LOG.exception("internal error on %s %s", request.method, request.url.path)
    return Response(
        body("internal-error", f"the service failed ({type(exc).__name__}); see its log"),
        status_code=500,
    )
