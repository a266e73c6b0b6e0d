"""The per-client limits of spec part 8: 60 requests and 1,000 returned entries a minute, by default.

flask-limiter keeps the counters; this module says what counts, what a 429 says, and which limit the
X-RateLimit headers of a response describe.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import cached_property

from flask import current_app, g, request
from flask_limiter import ExemptionScope, Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse

from kaomoji_api.config import is_on
from kaomoji_api.errors import problem

# Preflight OPTIONS is not among them, so it never counts.
COUNTED_METHODS = ["GET", "HEAD"]

# While the storage is unreachable, requests skip the limits for this long before it is tried again,
# so that an unreachable redis costs one slow request a second per process, not every request.
STORAGE_RETRY_SECONDS = 1.0


@dataclass(frozen=True)
class Budget:
    scope: str  # the name of its counter in the storage
    limit: str  # in flask-limiter's notation, from the settings
    unit: str  # what it counts, as a 429 names it

    @cached_property
    def item(self) -> RateLimitItem:
        return parse(self.limit)

    @property
    def description(self) -> str:
        """As people say it: "60 requests per minute", "1,000 entries per minute", "5 requests per 2 seconds"."""
        item = self.item
        per = item.GRANULARITY.name if item.multiples == 1 else f"{item.multiples} {item.GRANULARITY.name}s"
        return f"{item.amount:,} {self.unit} per {per}"


@dataclass(frozen=True)
class Window:
    budget: Budget
    remaining: int
    resets_at: float  # Unix time at which the counter starts again from zero


def entry_cost() -> int:
    # Before the view nothing is known, so a request gets in while at least one entry is left. flask-limiter
    # asks again after the response (when shows_entries agreed) and, with the fixed-window strategy,
    # records all of it even when that is more than was left: the request after it is the one refused.
    return g.get("entries_shown", 1)


def note_entries_shown(response):
    """What the response says it shows (json_response's `entries`), for entry_cost to charge."""
    g.entries_shown = getattr(response, "entries", 0)
    return response


def shows_entries(response) -> bool:
    """Whether the response showed entries; a 304, a HEAD or an error shows none and costs nothing."""
    return response.status_code == 200 and request.method == "GET" and getattr(response, "entries", 0) > 0


class StorageHealth:
    """Limits fail open: while the counter storage is unreachable, requests are answered without them.

    A warning is logged when it goes away and when it is back; it is tried again every STORAGE_RETRY_SECONDS.
    """

    def __init__(self, logger, uri: str):
        self.logger, self.uri = logger, uri
        self.down = False
        self.paused_until = 0.0

    def paused(self) -> bool:
        return time.monotonic() < self.paused_until

    def failed(self, error: Exception) -> None:
        self.paused_until = time.monotonic() + STORAGE_RETRY_SECONDS
        if not self.down:
            self.down = True
            self.logger.warning("rate limit storage %s unreachable (%s): requests are not limited until it is back", self.uri, error)

    def worked(self) -> None:
        if self.down:
            self.down = False
            self.logger.warning("rate limit storage %s reachable again: requests are limited", self.uri)


class RateLimits:
    """The limiter of one app, its two budgets, how to read their windows, and the health of its storage."""

    def __init__(self, app):
        uri = app.config["RATELIMIT_STORAGE_URI"]
        self.requests = Budget("requests", app.config["RATELIMIT_REQUESTS"], "requests")
        self.entries = Budget("entries", app.config["RATELIMIT_ENTRIES"], "entries")
        self.budgets = (self.requests, self.entries)
        self.storage = "shared through redis" if uri.startswith(("redis://", "rediss://", "redis+unix://")) else "per process"
        self.health = StorageHealth(app.logger, uri)
        # Redis reports a counter's time to live rounded to the second, so its windows may end up to half a
        # second after they seem to; one more second keeps Retry-After true. Memory knows the exact time.
        self.clock_slack = 0 if uri.startswith("memory://") else 1
        self.limiter = Limiter(
            get_remote_address,
            strategy="fixed-window",
            storage_uri=uri,
            storage_options=_storage_options(uri),
            headers_enabled=False,  # written by add_rate_limit_headers, for the tighter limit
            swallow_errors=True,  # fail open; StorageHealth logs the outage once
        )
        self.limiter.request_filter(self.health.paused)
        self.spending, self.free = None, set()

    def spend_budget(self, blueprint, free=()) -> None:
        """Every GET of `blueprint` spends both budgets, except in the blueprints `free`."""
        self.limiter.shared_limit(
            self.requests.limit, scope=self.requests.scope, methods=COUNTED_METHODS, error_message=self.requests.description,
        )(blueprint)
        self.limiter.shared_limit(
            self.entries.limit, scope=self.entries.scope, methods=COUNTED_METHODS, error_message=self.entries.description,
            cost=entry_cost, deduct_when=shows_entries,
        )(blueprint)
        for exempt in free:
            self.limiter.exempt(exempt, flags=ExemptionScope.ANCESTORS)
        self.spending, self.free = blueprint.name, {f"{blueprint.name}.{exempt.name}" for exempt in free}

    def spends_budget(self) -> bool:
        """Whether this request is one spend_budget named, as flask-limiter decided before the view.

        Asked after the request, also when the limiter could not reach its storage and so recorded nothing.
        """
        blueprints = request._get_current_object().blueprints  # once: each read through the proxy costs ~0.7 µs
        return self.spending in blueprints and not self.free.intersection(blueprints)

    def windows(self) -> list[Window] | None:
        """Both windows of the current client, or None while the storage cannot be read."""
        if self.health.paused():
            return None
        client = get_remote_address()
        try:
            stats = [self.limiter.limiter.get_window_stats(b.item, client, b.scope) for b in self.budgets]
        except Exception as error:  # any storage failure: redis, network, timeouts
            self.health.failed(error)
            return None
        self.health.worked()
        return [Window(b, s.remaining, s.reset_time + self.clock_slack) for b, s in zip(self.budgets, stats, strict=True)]

    def seconds_until_allowed(self, windows: list[Window] | None) -> int:
        """Whole seconds after which every exhausted window has started again."""
        if windows is None:  # storage unreadable: a whole window is always enough
            return max(b.item.get_expiry() for b in self.budgets)
        waits = [w.resets_at - time.time() for w in windows if w.remaining == 0]
        return max(1, math.ceil(max(waits, default=0)))


def _storage_options(uri: str) -> dict:
    if not uri.startswith(("redis://", "rediss://", "redis+unix://")):
        return {}
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    # redis-py's default retries with backoff for seconds; a limit check must answer fast or not at all.
    # One immediate retry reconnects a pooled connection that a redis restart left dead.
    return {"socket_connect_timeout": 0.2, "socket_timeout": 0.2, "retry": Retry(NoBackoff(), 1)}


def tighter(windows: list[Window]) -> Window:
    """The window closest to refusing: the smallest share left; among exhausted ones the last to reset."""
    return min(windows, key=lambda w: (w.remaining / w.budget.item.amount, -w.resets_at))


def limits_of(app) -> RateLimits | None:
    """The app's limits, or None when they are off."""
    return app.extensions.get("kaomoji_limits")


def too_many_requests(exc: RateLimitExceeded):
    limits = limits_of(current_app._get_current_object())
    wait = limits.seconds_until_allowed(limits.windows())
    return problem(
        429,
        f"Over the limit of {exc.description} for this address; retry in {wait} s.",
        headers={"Retry-After": str(wait)},
        limit=exc.description,
    )


def add_rate_limit_headers(response):
    limits = limits_of(current_app._get_current_object())
    if not limits.spends_budget():
        return response
    windows = limits.windows()
    if windows:
        window = tighter(windows)
        response.headers["X-RateLimit-Limit"] = str(window.budget.item.amount)
        response.headers["X-RateLimit-Remaining"] = str(window.remaining)
        response.headers["X-RateLimit-Reset"] = str(math.ceil(window.resets_at))
    return response


def init_app(app) -> None:
    """Make the app's limiter; the API says which blueprints spend budget (RateLimits.spend_budget)."""
    if not is_on(app.config["RATELIMIT_ENABLED"]):
        return
    # One limiter per app, not one per module: flask-limiter keeps its storage and its enabled flag on the
    # instance, and the tests make apps with different settings in one process.
    limits = RateLimits(app)
    app.extensions["kaomoji_limits"] = limits
    # after_request hooks run last registered first. The limiter deducts the entry cost in its own hook,
    # after note_entries_shown has read it and before add_rate_limit_headers reports what is left.
    app.after_request(add_rate_limit_headers)
    limits.limiter.init_app(app)
    app.after_request(note_entries_shown)
    app.register_error_handler(RateLimitExceeded, too_many_requests)
