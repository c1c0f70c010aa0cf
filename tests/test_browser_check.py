"""The built site, looked at in headless Chromium at desktop (1280 px) and phone (390 px) width.

No table scrolls sideways or sticks out of the text column, no page scrolls
sideways, output blocks have no copy button, and every chart's smallest text
is at least 7 CSS pixels high as shown (tests/browser_check.py does the looking). Skips when no Chromium is
installed, except under CI=true, where a missing browser fails.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser_check

ROOT = Path(__file__).resolve().parents[1]


# Builds the site and loads every page in Chromium at two widths: minutes, not seconds.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def chromium() -> str:
    found = browser_check.find_chromium()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing in CI: .ci/run installs it (apt-get install chromium)")
        pytest.skip("no Chromium on this machine (CI installs it)")
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_no_table_scrolls_sideways_and_charts_are_readable_at_desktop_and_phone_width(site, chromium, tmp_path):
    results = browser_check.measure(site, chromium, tmp_path)
    assert {r["width"] for r in results} == set(browser_check.WIDTHS)
    assert len(results) == len(browser_check.WIDTHS) * len(browser_check.pages(site)) > 40
    assert any(r["pictures"] for r in results), "no chart was measured"
    assert any(r["copy"]["commands"] for r in results), "no copy button was seen (the check would prove nothing)"
    assert browser_check.problems(results) == []


def test_the_site_fetches_no_font_from_another_host(site):
    """Issue 36: the theme loaded Roboto from Google Fonts, so the site needed the network and told Google
    who read it. mkdocs.yml sets `theme.font: false` and extra.css names system fonts."""
    hosts = ("fonts.googleapis.com", "fonts.gstatic.com", "use.typekit.net", "fonts.bunny.net")
    files = [p for p in site.rglob("*") if p.suffix in (".html", ".css", ".js")]
    assert len(files) > 40
    found = [f"{p.relative_to(site)}: {h}" for p in files for h in hosts if h in p.read_text(encoding="utf-8")]
    assert not found, found
    css = (site / "assets" / "extra.css").read_text(encoding="utf-8")
    assert "--md-text-font:" in css and "--md-code-font:" in css
    remote = [
        p for p in files if p.suffix == ".css" and re.search(r"@font-face[^}]*url\(\s*['\"]?https?:", p.read_text())
    ]
    assert not remote, remote


def test_the_check_sees_a_table_too_wide_for_a_phone(site, chromium, tmp_path):
    page = site / "too-wide" / "index.html"
    page.parent.mkdir()
    cells = "".join(f"<td><code>a_long_identifier_number_{i}</code></td>" for i in range(8))
    page.write_text(
        '<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width">'
        f'</head><body><article><table class="x"><tr>{cells}</tr></table></article></body></html>'
    )
    try:
        results = browser_check.measure(site, chromium, tmp_path, which=["too-wide/"])
    finally:
        page.unlink()
        page.parent.rmdir()
    assert [r["width"] for r in results if r["tables"]] == [1280, 390]


def test_screenshots_are_taken_at_both_widths(site, chromium, tmp_path):
    shots = browser_check.screenshots(site, chromium, tmp_path / "shots", tmp_path, which=("",))
    assert sorted(s.name for s in shots) == ["home-1280.png", "home-390.png"]
    assert all(s.read_bytes().startswith(b"\x89PNG") for s in shots)
