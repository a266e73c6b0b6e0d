"""Every error response of the service: RFC 9457 problem details, from one helper.

Werkzeug's HTTP exceptions, bad parameters and unexpected failures all end here, in the API's words.
"""

from __future__ import annotations

import orjson
from flask import current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.wrappers import Response

PROBLEM_JSON = "application/problem+json"

# Werkzeug's own descriptions speak to someone at a browser ("If you entered the URL manually please
# check your spelling"); these say the same in the API's terms. {path} and {method} are the request's.
OUR_WORDS = {
    400: "The request is malformed.",
    404: "Nothing is at {path}. The API's paths are described at /api/v1/openapi.json.",
    405: "{method} is not allowed on {path}; the API only reads (GET, HEAD).",
    500: "The server failed to answer this request; it has been logged.",
}


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
    response = Response(orjson.dumps(body), status=status, mimetype=PROBLEM_JSON, headers=headers)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"  # also on refusals made in front of Flask
    return response


def _detail(exc: HTTPException) -> str:
    """The exception's own description when a view gave one, else ours for its status."""
    if exc.description and exc.description != type(exc).description:
        return exc.description
    template = OUR_WORDS.get(exc.code, HTTP_STATUS_CODES.get(exc.code, "Error") + ".")
    return template.format(path=request.path, method=request.method)


def handle_http_exception(exc: HTTPException) -> Response:
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    extra = {"invalid_params": exc.invalid} if isinstance(exc, BadParameters) else {}
    return problem(exc.code or 500, _detail(exc), headers=headers, **extra)


def handle_unexpected(exc: Exception) -> Response:
    current_app.logger.exception("unhandled error")
    return problem(500, OUR_WORDS[500])


def init_app(app) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)
