"""Take docs/screenshot.png, the picture of the catalog page in README.md.

    python -m tools.screenshot [--catalog catalog.sqlite] [--out docs/screenshot.png] [--query cat]

Serves the app on 127.0.0.1 at a free port, opens the page in Debian's Chromium (tools/browser.py),
searches, copies one face so the confirmation shows, and saves the picture. For faces to look as
they do on a person's machine, install fonts-noto-core and fonts-noto-cjk first.
"""

from __future__ import annotations

import argparse
import threading
from pathlib import Path

from werkzeug.serving import make_server

from kaomoji_api import create_app
from tools.browser import chromium

ROOT = Path(__file__).resolve().parent.parent


def take_screenshot(catalog: Path, out: Path, query: str, width: int, height: int) -> None:
    app = create_app({"CATALOG": str(catalog)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with chromium() as browser:
            context = browser.new_context(locale="en-US", viewport={"width": width, "height": height}, base_url=base)
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
            page = context.new_page()
            page.goto("/")
            page.wait_for_selector("#results .card")
            page.fill("#query", query)
            page.wait_for_function("q => document.querySelector('#results-heading').textContent.includes(q)", arg=query)
            page.locator("#results .card .face").nth(4).click()
            page.wait_for_function("() => document.querySelector('#toast').textContent !== ''")
            page.mouse.move(0, 0)  # no hover effect on the picture
            page.wait_for_timeout(400)  # the toast's fade-in
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
            context.close()
    finally:
        server.shutdown()
    print(f"wrote {out}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", type=Path, default=ROOT / "catalog.sqlite")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    parser.add_argument("--query", default="cat")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=860)
    args = parser.parse_args(argv)
    take_screenshot(args.catalog, args.out, args.query, args.width, args.height)


if __name__ == "__main__":
    main()
