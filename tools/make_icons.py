"""Render the app's icons (src/hupai/server/web/icons/*.svg) to the PNGs a phone installs: 192 and
512 px, the maskable 512 px, and the 180 px apple-touch-icon (iOS rounds its corners itself, so it is
the full-bleed maskable drawing). Chromium draws them, with the CJK font the page uses.

    .venv/bin/python tools/make_icons.py      # after changing an icon's SVG; commit the PNGs
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "src" / "hupai" / "server" / "web" / "icons"
RENDERED = (
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("icon-maskable.svg", "icon-maskable-512.png", 512),
    ("icon-maskable.svg", "apple-touch-icon.png", 180),
)


def chromium() -> str:
    for name in (os.environ.get("HUPAI_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and (found := shutil.which(name)):
            return found
    sys.exit("make_icons: no chromium (apt install chromium)")


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        for source, target, size in RENDERED:
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            svg = (ICONS / source).read_text(encoding="utf-8")
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f'<html><body style="margin:0;background:transparent">{sized}</body></html>')
            page.screenshot(
                path=ICONS / target,
                omit_background=True,
                clip={"x": 0, "y": 0, "width": size, "height": size},
            )
            page.close()
            print(f"{target}: {size}×{size}")
        browser.close()


if __name__ == "__main__":
    main()
