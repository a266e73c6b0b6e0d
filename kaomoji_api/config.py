"""Settings and their defaults; each can be set as an environment variable KAOMOJI_<NAME>.

Every setting here is documented in README.md ("Settings"); a test keeps the two in step.
"""

DEFAULTS = {
    # Path of the catalog file, opened read-only; replace it by renaming a new file over it.
    "CATALOG": "catalog.sqlite",
    # Bytes of rendered responses each worker keeps per catalog (0 turns the cache off): the hot set (first pages,
    # common searches). With the search cache below, sized so that a worker that has filled every cache stays within
    # its 60 MB budget (bench/worst_memory.py).
    "RESPONSE_CACHE_BYTES": 512_000,
    # Bytes of ranked search results each worker keeps per catalog, so that the next page of a search is
    # not ranked again (0 turns the cache off).
    "SEARCH_CACHE_BYTES": 256_000,
    # false turns every rate limit off (the per-minute limits and the gate): benchmarks, local work.
    "RATELIMIT_ENABLED": True,
    # The per-minute limits of spec part 8, per client address, in flask-limiter's notation.
    "RATELIMIT_REQUESTS": "60 per minute",
    "RATELIMIT_ENTRIES": "1000 per minute",
    # Where their counters live: memory:// (each process its own) or redis://host:port/db (shared).
    "RATELIMIT_STORAGE_URI": "memory://",
    # The gate, spec part 7's entry-point limit: a token bucket per client address in front of the
    # application, requests per second sustained (0 turns it off), and how many more may come at once,
    # counted as nginx's limit_req counts its burst.
    "GATE_RATE": 10,
    "GATE_BURST": 20,
    # File in which the processes of one server keep their gate buckets together; empty: each process
    # keeps its own. deploy/gunicorn.conf.py makes one for every server it starts.
    "GATE_BUCKETS_FILE": "",
    # How many proxies in front of the app append to X-Forwarded-For (1 behind deploy/nginx.conf). With 0
    # the client is REMOTE_ADDR and the header is ignored, so a client cannot choose its own address.
    "TRUSTED_PROXIES": 0,
    # The public address of the service (https://kaomoji.example), from which the `url` of each category is
    # made. Empty: the address the request was sent to, as Werkzeug sees it (set this behind proxies).
    "PUBLIC_URL": "",
    # File of blocked addresses and CIDR ranges, one a line; reread when it changes. Empty: nobody is blocked.
    "BLOCKLIST": "",
}

# The one yes/no vocabulary of settings and query parameters (any case).
YES = frozenset({"1", "true", "yes", "on"})
NO = frozenset({"0", "false", "no", "off"})


def yes_or_no(text: str) -> bool | None:
    """True or False for a word of YES or NO, None for anything else."""
    word = text.strip().lower()
    return True if word in YES else False if word in NO else None


def is_on(value) -> bool:
    """A yes/no setting, given as a bool (test configs) or as the environment spells it."""
    if isinstance(value, bool):
        return value
    answer = yes_or_no(str(value))
    if answer is None:
        raise ValueError(f"{value!r} is not a yes/no setting; use one of {sorted(YES | NO)}")
    return answer
