"""Issue 13: the public programs written for the service read fields ours must have.

`SeedClient` reads exactly what those browser clients read, and nothing else: every item's
`categories` (shown joined with " | "), a search item's `note` and `usage`, the list's
`pagination.total_pages`, and of each category record `id` (sent back as the list's `category=`
filter), `name`, `type`, `url` (rewritten from /category/<x> to /en/category/<x>) and, when
present, `emoji` and `description`.
"""

from __future__ import annotations

import re

import pytest


class SeedClient:
    """The reads of the public clients, as a browser script does them: JSON in, a few fields out."""

    def __init__(self, http):
        self.http = http

    def _get(self, path, **query):
        response = self.http.get(path, query_string=query)
        assert response.status_code == 200, (path, query, response.status_code)
        return response.get_json()

    @staticmethod
    def categories_label(item) -> str:
        return " | ".join(item["categories"])

    def list_page(self, **query) -> tuple[list[str], int]:
        body = self._get("/api/v1/kaomojis", **query)
        return [self.categories_label(item) for item in body["data"]], body["pagination"]["total_pages"]

    def single(self, entry_id: int) -> str:
        return self.categories_label(self._get(f"/api/v1/kaomojis/{entry_id}")["data"])

    def random(self, count: int) -> list[str]:
        return [self.categories_label(item) for item in self._get("/api/v1/random", count=count)["data"]]

    def search(self, q: str) -> list[tuple[str, str, list[str]]]:
        return [(self.categories_label(item), item["note"], item["usage"]) for item in self._get("/api/v1/search", q=q)["data"]]

    def categories(self) -> list[dict]:
        cards = []
        for record in self._get("/api/v1/categories")["data"]:
            card = {
                "filter": record["id"],
                "name": record["name"],
                "type": record["type"],
                "href": re.sub(r"/category/([^/]+)$", r"/en/category/\1", record["url"]),
            }
            for optional in ("emoji", "description"):
                if optional in record:
                    card[optional] = record[optional]
            cards.append(card)
        return cards


@pytest.fixture()
def seed(client):
    return SeedClient(client)


def is_label_of_slugs(label: str, slugs: set[str]) -> bool:
    return bool(label) and all(part in slugs for part in label.split(" | "))


def test_every_item_of_every_endpoint_carries_categories_a_client_can_join(seed):
    slugs = {card["filter"] for card in seed.categories()}
    labels, _ = seed.list_page(limit=50)
    labels += [seed.single(1)] + seed.random(10) + [label for label, _, _ in seed.search("cat")]
    assert len(labels) > 60 and all(is_label_of_slugs(label, slugs) for label in labels)


def test_search_items_carry_a_note_string_and_usage_strings(seed):
    results = seed.search("happy")
    assert results
    for _, note, usage in results:
        assert isinstance(note, str) and note
        assert isinstance(usage, list) and usage and all(isinstance(s, str) and s for s in usage)


def test_the_list_says_how_many_pages_it_has(seed):
    _, pages = seed.list_page(limit=100)
    assert isinstance(pages, int) and pages >= 680
    _, one_category = seed.list_page(category="spider", limit=100)
    assert 1 <= one_category < pages


def test_a_category_id_sent_back_as_the_filter_returns_entries_of_that_category(seed):
    for card in seed.categories():
        labels, _ = seed.list_page(category=card["filter"], limit=5)
        assert labels, card["filter"]
        assert all(card["filter"] in label.split(" | ") for label in labels), card["filter"]


def test_category_records_give_name_type_emoji_description_and_a_page_address(seed, catalog):
    cards = seed.categories()
    assert len(cards) == len(catalog.categories) >= 55
    for card in cards:
        assert card["name"] and card["type"] in {"emotion", "action", "animal", "object", "other"}
        assert card["emoji"] and card["description"]
        assert card["href"] == f"http://localhost/en/category/{card['filter']}"
