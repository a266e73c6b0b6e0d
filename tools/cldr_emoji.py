"""Write tools/emoji/annotations.json, the CLDR emoji names and keywords of our locales, from the npm package
cldr-annotations-full (Unicode licence, tools/emoji/LICENSE-Unicode):

    npm pack cldr-annotations-full@48.2.0 && python -m tools.cldr_emoji cldr-annotations-full-48.2.0.tgz

The builder maps each emoji to our labels from this file (tools/search_index.py emoji_labels); the file is
data we ship, refreshed with CLDR, so a build needs no npm.
"""

from __future__ import annotations

import json
import sys
import tarfile
from pathlib import Path

from tools import locales as locale_files

OUT = Path(__file__).parent / "emoji" / "annotations.json"
CLDR_LOCALE = {"zh-Hans": "zh"}  # CLDR's name for a locale, where it differs from ours


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    found: dict[str, dict[str, list[str]]] = {}
    with tarfile.open(argv[0]) as tar:
        version = json.load(tar.extractfile("package/package.json"))["version"]
        for code in locale_files.locale_codes():
            member = f"package/annotations/{CLDR_LOCALE.get(code, code)}/annotations.json"
            annotations = json.load(tar.extractfile(member))["annotations"]["annotations"]
            found[code] = {e: a.get("tts", []) + a.get("default", []) for e, a in sorted(annotations.items())}
    document = {"source": f"Unicode CLDR annotations {version} (npm cldr-annotations-full), Unicode License v3", "locales": found}
    OUT.write_text(json.dumps(document, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {sum(map(len, found.values()))} emoji names in {len(found)} locales")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
