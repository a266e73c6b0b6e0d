"""Settings and their defaults; each can be set as an environment variable KAOMOJI_<NAME>.

Every setting here is documented in README.md ("Settings"); a test keeps the two in step.
"""

DEFAULTS = {
    # Path of the catalog file, opened read-only; replace it by renaming a new file over it.
    "CATALOG": "catalog.sqlite",
    # Bytes of rendered responses each worker keeps per catalog (0 turns the cache off).
    "RESPONSE_CACHE_BYTES": 4_000_000,
}
