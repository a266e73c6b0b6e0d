"""The numbers of the public contract: page sizes, maxima, the id range, lengths of text parameters.

The views, `Params` and the OpenAPI document read them here, so that each is written once.
"""

LIST_LIMIT = 20            # default page size of the list
LIST_MAX = 100             # largest page of the list
SEARCH_LIMIT = 25          # default and largest page of search (spec part 8)
SEARCH_DEPTH = 1000        # how deep search results go: a page must start within the first 1,000
RANDOM_COUNT = 1           # default number of random picks
RANDOM_MAX = 10            # most random picks a request (spec part 8)
MAX_PAGE = 1_000_000       # highest page number accepted
MAX_ID = 2**31 - 1         # largest id a path accepts; larger ones are 404 like any unknown path
QUERY_MAX_LENGTH = 100     # characters of `q`, after trimming
SEED_MAX_LENGTH = 100      # characters of `seed`
MAX_WIDTH = 1000           # largest `max_width`
# Bytes of the longest Link header sent; a longer one (a long query, four times) is left out, as the body's
# pagination says the same: it would pass the header limits of proxies, and nginx would answer 502 instead.
MAX_LINK_HEADER = 2048
