"""Who the client is (KAOMOJI_TRUSTED_PROXIES) and the blocklist file, through the app in this process.

The blocklist shows whom the app takes the client to be: it answers 403 exactly for the listed address.
"""

from __future__ import annotations

import logging

import pytest

from kaomoji_api import create_app
from kaomoji_api.clients import Networks

BLOCKED = "203.0.113.9"


@pytest.fixture(scope="module")
def status_for(full_catalog, tmp_path_factory):
    """status_for(proxies, remote_addr, forwarded_for): what an app trusting `proxies` proxies answers."""
    blocklist = tmp_path_factory.mktemp("clients") / "blocklist.txt"
    blocklist.write_text(f"{BLOCKED}\n", encoding="utf-8")
    apps = {
        proxies: create_app({"CATALOG": str(full_catalog), "BLOCKLIST": str(blocklist), "TRUSTED_PROXIES": proxies, "RATELIMIT_ENABLED": False})
        for proxies in (0, 1, 2)
    }

    def status(proxies: int, remote_addr: str, forwarded_for: str | None = None) -> int:
        headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
        return apps[proxies].test_client().get("/healthz", environ_base={"REMOTE_ADDR": remote_addr}, headers=headers).status_code

    return status


def test_without_trusted_proxies_the_client_is_remote_addr_whatever_x_forwarded_for_says(status_for):
    assert status_for(0, "192.0.2.1", forwarded_for=BLOCKED) == 200
    assert status_for(0, BLOCKED, forwarded_for="192.0.2.1") == 403


def test_with_one_trusted_proxy_only_the_last_hop_counts(status_for):
    assert status_for(1, "127.0.0.1", forwarded_for=BLOCKED) == 403
    # What the client put in front of the proxy's own entry is ignored.
    assert status_for(1, "127.0.0.1", forwarded_for=f"{BLOCKED}, 192.0.2.1") == 200
    assert status_for(1, "127.0.0.1", forwarded_for=f"192.0.2.1, {BLOCKED}") == 403
    assert status_for(2, "127.0.0.1", forwarded_for=f"{BLOCKED}, 192.0.2.1") == 403


def test_blocklist_lines_are_addresses_or_cidr_ranges_and_bad_lines_are_logged_and_skipped(full_catalog, tmp_path, caplog):
    path = tmp_path / "blocklist.txt"
    path.write_text("# comment\n\n10.9.0.0/16\n192.0.2.7   # one address\nnot-an-address\n2001:db8::/32\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        app = create_app({"CATALOG": str(full_catalog), "BLOCKLIST": str(path), "RATELIMIT_ENABLED": False})
    assert "line 5: 'not-an-address'" in caplog.text
    client = app.test_client()
    expected = {
        "10.9.200.1": 403, "10.10.0.1": 200, "192.0.2.7": 403, "192.0.2.8": 200,
        "2001:db8::42": 403, "2001:db9::1": 200, "::ffff:10.9.0.5": 403,  # an IPv4 client on a dual-stack socket
    }
    for address, status in expected.items():
        assert client.get("/healthz", environ_base={"REMOTE_ADDR": address}).status_code == status, address


def test_a_missing_blocklist_file_blocks_nobody_and_is_logged(full_catalog, tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        app = create_app({"CATALOG": str(full_catalog), "BLOCKLIST": str(tmp_path / "missing.txt"), "RATELIMIT_ENABLED": False})
    assert "nobody is blocked" in caplog.text
    assert app.test_client().get("/healthz").status_code == 200


def test_networks_match_by_prefix():
    import ipaddress

    networks = Networks([ipaddress.ip_network(n) for n in ["10.0.0.0/8", "192.0.2.128/25", "198.51.100.7/32"]])
    assert "10.255.0.1" in networks and "11.0.0.1" not in networks
    assert "192.0.2.200" in networks and "192.0.2.100" not in networks
    assert "198.51.100.7" in networks and "198.51.100.8" not in networks
    assert "not an address" not in networks and len(networks) == 3
