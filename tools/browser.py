"""The headless Chromium that the browser tests and tools/screenshot.py drive through Playwright.

Debian's chromium at /usr/bin/chromium, never a browser that Playwright downloads.
"""

from __future__ import annotations

import contextlib

CHROMIUM = "/usr/bin/chromium"

# Headless, and quiet on the network: no update checks, sync or QUIC, so the only traffic is to the page.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@contextlib.contextmanager
def chromium():
    """A launched Chromium (Playwright's Browser), closed on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
