"""Settings and their defaults; each can be set as an environment variable KAOMOJI_<NAME>.

Every setting here is documented in README.md ("Settings"); a test keeps the two in step.
"""

DEFAULTS = {
    # Path of the catalog file, opened read-only; replace it by renaming a new file over it.
    "CATALOG": "catalog.sqlite",
    # Bytes of rendered responses each worker keeps per catalog (0 turns the cache off).
    "RESPONSE_CACHE_BYTES": 4_000_000,
    # false turns every rate limit off (the per-minute limits and the entry-point bucket): benchmarks, local work.
    "RATELIMIT_ENABLED": True,
    # Where the per-minute counters live: memory:// (each process its own) or redis://host:port/db (shared).
    "RATELIMIT_STORAGE_URI": "memory://",
    # Entry-point token bucket per client address: requests per second sustained (0 turns it off), and
    # how many more may come at once, counted as nginx's limit_req counts its burst.
    "ENTRY_RATE": 10,
    "ENTRY_BURST": 20,
    # File in which the processes of one server keep their entry-point buckets together; empty: each
    # process keeps its own. deploy/gunicorn.conf.py makes one for every server it starts.
    "ENTRY_BUCKETS_FILE": "",
    # How many proxies in front of the app append to X-Forwarded-For (1 behind deploy/nginx.conf). With 0
    # the client is REMOTE_ADDR and the header is ignored, so a client cannot choose its own address.
    "TRUSTED_PROXIES": 0,
    # File of blocked addresses and CIDR ranges, one a line; reread when it changes. Empty: nobody is blocked.
    "BLOCKLIST": "",
}


def is_on(value) -> bool:
    """A yes/no setting as the environment spells it: false, no, off and 0 (any case) are off."""
    return str(value).strip().lower() not in {"false", "no", "off", "0", ""}
