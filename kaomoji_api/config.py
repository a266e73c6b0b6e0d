"""Settings and their defaults; each can be set as an environment variable KAOMOJI_<NAME>.

Every setting here is documented in README.md ("Settings"); a test keeps the two in step.
"""

DEFAULTS = {
    # Path of the catalog file, opened read-only; replace it by renaming a new file over it.
    "CATALOG": "catalog.sqlite",
}
