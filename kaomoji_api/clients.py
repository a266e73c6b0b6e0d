"""Who is asking: the client's address, read through trusted proxies only, and the blocklist.

Both work on the WSGI environ in front of everything else, so a blocked client costs almost nothing.
"""

from __future__ import annotations

import ipaddress
import socket

from werkzeug.middleware.proxy_fix import ProxyFix

from kaomoji_api.errors import problem
from kaomoji_api.http import cors_headers
from kaomoji_api.watch import WatchedFile


class Networks:
    """A set of addresses and CIDR ranges, answering `address in networks` in one look-up per prefix length."""

    def __init__(self, networks=()):
        self._numbers: dict[tuple[int, int], set[int]] = {}  # (IP version, prefix length) -> network numbers
        for network in networks:
            self.add(network.version, network.prefixlen, int(network.network_address))

    def add(self, version: int, prefix: int, number: int) -> None:
        """Add the range of `prefix` bits around the address `number` of IP `version`."""
        bits = 32 if version == 4 else 128
        self._numbers.setdefault((version, prefix), set()).add(number >> (bits - prefix))

    def __contains__(self, text: str) -> bool:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return False
        if address.version == 6 and address.ipv4_mapped:  # ::ffff:192.0.2.1 from a dual-stack socket
            address = address.ipv4_mapped
        number, bits = int(address), address.max_prefixlen
        return any(
            (number >> (bits - prefix)) in numbers
            for (version, prefix), numbers in self._numbers.items()
            if version == address.version
        )

    def __len__(self) -> int:
        return sum(len(numbers) for numbers in self._numbers.values())


def parse_network(text: str) -> tuple[int, int, int] | None:
    """(IP version, prefix length, address as a number) of an address or CIDR range, or None.

    socket.inet_pton rather than ipaddress.ip_network, which takes ten times as long: a blocklist of
    200,000 lines is read in a fraction of a second, by the request that finds the file changed.
    """
    address, slash, prefix = text.partition("/")
    for family, version, bits in ((socket.AF_INET, 4, 32), (socket.AF_INET6, 6, 128)):
        try:
            number = int.from_bytes(socket.inet_pton(family, address), "big")
        except (OSError, ValueError):  # ValueError: a NUL or a character that is not ASCII
            continue
        if not slash:
            return version, bits, number
        if prefix.isascii() and prefix.isdigit() and int(prefix) <= bits:
            return version, int(prefix), number
        try:  # a netmask (10.0.0.0/255.0.0.0), which ipaddress reads
            network = ipaddress.ip_network(text, strict=False)
        except ValueError:
            return None
        return network.version, network.prefixlen, number
    return None


class Blocklist:
    """The blocked networks of a file: one address or CIDR range a line, `#` starts a comment.

    The file is read again when it changes (kaomoji_api/watch.py); a line that is not an address or range
    is skipped, with one warning for the file, and a missing file blocks nobody.
    """

    def __init__(self, path: str, logger):
        self.path, self.logger = path, logger
        self._watched = WatchedFile(path, self._read)

    def _read(self, path: str) -> Networks:
        try:
            # Bytes that are not UTF-8 become U+FFFD, so that their line is skipped as not an address
            # rather than the whole file failing to read.
            with open(path, encoding="utf-8", errors="replace") as file:
                lines = file.read().splitlines()
        except OSError as error:
            self.logger.warning("blocklist %s not read (%s): nobody is blocked", path, error)
            return Networks()
        networks, skipped = Networks(), []
        for number, line in enumerate(lines, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            network = parse_network(text)
            if network:
                networks.add(*network)
            else:
                skipped.append((number, text))
        if skipped:
            # One warning for the whole file, naming the first few lines: a file of junk must not flood the log.
            first = ", ".join(f"line {number}: {text[:40]!r}" for number, text in skipped[:5])
            self.logger.warning(
                "blocklist %s: %d %s not an address or CIDR range, skipped (%s%s)", path, len(skipped),
                "line is" if len(skipped) == 1 else "lines are", first, ", ..." if len(skipped) > 5 else "",
            )
        self.logger.info("blocklist %s: %d networks", path, len(networks))
        return networks

    def __contains__(self, address: str) -> bool:
        return address in self._watched.get()


class BlockedClients:
    """WSGI middleware: 403 problem+json for a blocked client, before anything else is done."""

    def __init__(self, wsgi_app, blocklist: Blocklist):
        self.wsgi_app, self.blocklist = wsgi_app, blocklist

    def __call__(self, environ, start_response):
        if (environ.get("REMOTE_ADDR") or "") in self.blocklist:
            response = problem(403, "Requests from this address are blocked.", headers=cors_headers())
            return response(environ, start_response)
        return self.wsgi_app(environ, start_response)


def init_app(app) -> None:
    """Wrap the app (and every WSGI layer already around it) in the blocklist, then in ProxyFix."""
    if app.config["BLOCKLIST"]:
        app.wsgi_app = BlockedClients(app.wsgi_app, Blocklist(app.config["BLOCKLIST"], app.logger))
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies > 0:
        # Only the last `proxies` hops of X-Forwarded-For were written by proxies we run; anything to their
        # left came from the client. ProxyFix sets REMOTE_ADDR from the right hop, for everything inside.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)
