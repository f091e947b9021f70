"""chemie show in a real browser: headless Chromium runs page.js; arcs are drawn; screenshot.

Skipped (with the reason) only when no Chromium/Chrome executable can be found. Set
CHEMIE_SCREENSHOT_DIR to keep the screenshot.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from chemie.cli import main

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def _browser() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip(
        "no headless browser found (looked for " + ", ".join(BROWSERS) + "); "
        "install Debian's chromium package: apt-get install -y chromium"
    )


def _chromium(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-extensions", f"--user-data-dir={profile}", *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)


def test_page_renders_arcs_in_headless_chromium(fixtures, tmp_path):
    browser = _browser()
    show = fixtures / "show"
    page = tmp_path / "page.html"
    argv = ["show", str(show / "pred"), "--gold", str(show / "gold.jsonl"), "-o", str(page)]
    assert main(argv) == 0
    url = page.resolve().as_uri()

    result = _chromium(browser, tmp_path / "profile1", "--dump-dom", url)
    assert result.returncode == 0, result.stderr[-2000:]
    dom = result.stdout
    assert 'data-arcs="drawn"' in dom  # page.js ran to the end
    # one SVG arc group per relation: 4 predicted + 4 gold
    groups = re.findall(r'<g class="arc ([^"]*)"', dom)
    assert len(groups) == 8
    assert sum("st-fp" in g for g in groups) == 1 and sum("st-fn" in g for g in groups) == 1
    assert re.findall(r'data-drawn="(\d+)"', dom) == ["4", "4"]
    paths = re.findall(r'<path class="line" d="([^"]+)"', dom)
    assert len(paths) == 8 and not any("NaN" in d or "undefined" in d for d in paths)
    # arcs carry the rule name as a tooltip; discontinuous pieces are linked
    assert "rule: coref_mixture" in dom
    assert 'class="disc-link"' in dom

    shots = Path(os.environ.get("CHEMIE_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    png = shots / "chemie-show.png"
    result = _chromium(
        browser, tmp_path / "profile2", f"--screenshot={png}", "--window-size=1200,800", url
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
