"""Every error response of the service: RFC 9457 problem details, from one helper.

Werkzeug's HTTP exceptions, bad parameters and unexpected failures all end here.
"""

from __future__ import annotations

from flask import json
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.wrappers import Response

PROBLEM_JSON = "application/problem+json"


class BadParameters(HTTPException):
    """400 naming each query parameter that was wrong and why."""

    code = 400

    def __init__(self, invalid: list[dict]):
        super().__init__(description="; ".join(f"{p['name']}: {p['reason']}" for p in invalid))
        self.invalid = invalid


def problem(status: int, detail: str | None = None, headers=None, **extra) -> Response:
    """A problem+json response; `extra` members (invalid_params, limit, ...) are added to the body."""
    body = {"type": "about:blank", "title": HTTP_STATUS_CODES.get(status, "Error"), "status": status}
    if detail:
        body["detail"] = detail
    body.update(extra)
    response = Response(json.dumps(body, ensure_ascii=False), status=status, mimetype=PROBLEM_JSON, headers=headers)
    response.headers["Cache-Control"] = "no-store"
    return response


def _detail(exc: HTTPException) -> str:
    # Werkzeug's default descriptions speak of servers and browsers; ours speak of the API.
    return exc.description or HTTP_STATUS_CODES.get(exc.code, "")


def handle_http_exception(exc: HTTPException) -> Response:
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    extra = {"invalid_params": exc.invalid} if isinstance(exc, BadParameters) else {}
    return problem(exc.code or 500, _detail(exc), headers=headers, **extra)


def handle_unexpected(exc: Exception) -> Response:
    from flask import current_app

    current_app.logger.exception("unhandled error")
    return problem(500, InternalServerError.description)


def init_app(app) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)
