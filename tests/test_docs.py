"""The documentation site builds with `mkdocs build --strict`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mkdocs_build_strict(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # the `lg` code blocks are highlighted by landlord-dsl's own Pygments lexer (its plugin entry point)
    page = (tmp_path / "site" / "language" / "index.html").read_text(encoding="utf-8")
    assert '<span class="kd">rule</span>' in page and '<span class="kp">secondary</span>' in page
    _the_links_resolve_and_the_play_page_is_built(tmp_path / "site")


def _the_links_resolve_and_the_play_page_is_built(site: Path) -> None:
    """Every relative link and picture of the built site is a file in it, the raw HTML's too (mkdocs's
    validation follows only Markdown's): the Play page's button on play-in-browser.md among them, which
    hooks/play_page.py builds play/ for. Without .ci/pyodide's Pyodide the hook leaves play/ out (not in CI,
    which requires it), and only links into play/ may then be dead."""
    sys.path.insert(0, str(ROOT / "tests"))
    import pyodide_support

    built = (site / "play" / "index.html").is_file()
    required = bool(os.environ.get("CI")) or os.environ.get("LANDLORD_REQUIRE_PYODIDE") == "1"
    assert built or (pyodide_support.missing() is not None and not required)
    if built:
        assert (site / "play" / "worker.js").is_file() and (site / "play" / "pyodide" / "pyodide.asm.wasm").is_file()
    button = (site / "play-in-browser" / "index.html").read_text(encoding="utf-8")
    assert 'href="../play/"' in button
    dead, followed = [], 0
    for page in sorted(site.rglob("*.html")):
        if page.relative_to(site).parts[0] == "play":
            continue  # the Play page's own files (test_play_page.py loads it)
        for address in re.findall(r'(?:href|src)="([^"#?]+)', page.read_text(encoding="utf-8")):
            if re.match(r"[a-z][a-z0-9+.-]*:|//", address):
                continue  # another host, mailto:, data:
            target = site / address.lstrip("/") if address.startswith("/") else page.parent / unquote(address)
            followed += 1
            there = (target / "index.html" if target.is_dir() else target).is_file()
            if not there and (built or "play" not in Path(address).parts):
                dead.append(f"{page.relative_to(site)}: {address}")
    assert followed > 1000 and dead == []


def _nav() -> list:
    import yaml  # (mkdocs's own dependency)

    class _Loader(yaml.SafeLoader):
        pass

    _Loader.add_constructor("!ENV", lambda loader, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)["nav"]


def _pages(entries: list) -> list[str]:
    found = []
    for entry in entries:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            found.extend(_pages(value) if isinstance(value, list) else [value])
    return found


def test_the_navigation_is_a_few_tabs_with_learning_before_reference():
    """Issue 36: a handful of top tabs (learn, editions, studies, reference, project), not a flat list; after
    Getting started comes the tour, not the reference; every studies page under Studies."""
    nav = _nav()
    tabs = [next(iter(entry)) for entry in nav]
    assert tabs == ["Home", "Learn", "Editions", "Studies", "Reference", "Project"]
    pages = _pages(nav)
    assert len(pages) == len(set(pages))
    assert pages[pages.index("getting-started.md") + 1] == "tour.md"
    studies = _pages(nav[tabs.index("Studies")]["Studies"])
    assert {"statistics.md", "scale.md", "analysis.md", "single-tax-report.md"} <= set(studies)


def test_the_home_page_opens_with_a_picture_an_install_line_and_where_to_go():
    """Issue 36: above the first section, the home page shows the board, the install command, the calls to
    action (getting started, a game to watch, the Single Tax study) and the headline finding."""
    page = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    hero = page[: page.index("\n## ")]
    assert "assets/boards/landlords-game-1906.svg" in hero
    assert "pip install ." in hero and "landlord-dsl play" in hero
    for target in ("getting-started.md", "replay.md", "single-tax-report.md"):
        assert f"]({target}){{ .md-button" in hero, target
    assert "Single Tax" in hero.split("md-button")[-1]  # the finding, after the buttons
    assert hero.count("\n# ") == 1 and "\n# landlord-dsl" not in hero  # one h1, not the site's name again


def test_the_home_page_names_every_shipped_edition_and_links_every_edition_page():
    """Issue 36: the home page's table of editions left out the speed die, and "Where to go next" 1939."""
    import landlord_dsl as ld

    page = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    table = page[page.index("| Name | Edition |") :].split("\n\n")[0]
    assert [name for name in ld.shipped_editions() if f"`{name}`" not in table] == []
    where = page[page.index("## Where to go next") :]
    for edition in sorted((ROOT / "docs" / "editions").glob("*.md")):
        assert f"(editions/{edition.name})" in where, edition.name


def test_the_language_overview_names_every_declaration_and_statement_of_the_reference():
    """Issue 36: the overview's table left out `choice`, `dice`, `extension`, `give turn`, `shuffle`/`deal`."""
    overview = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    for part in ("declarations", "statements"):
        row = next(line for line in overview.splitlines() if line.startswith(f"| [{part.title()}]"))
        reference = (ROOT / "docs" / "language" / f"{part}.md").read_text(encoding="utf-8")
        for heading in re.findall(r"^## (.+)$", reference, re.M):
            if heading in ("Idioms",) or heading.startswith("Variants"):
                continue
            words = re.findall(r"[a-z]+(?: [a-z]+)?", heading.replace(" and ", ", ").replace(" handlers", ""))
            missing = [w for w in words if w not in row and w not in ("if", "else if", "else", "borrow", "repay loans")]
            assert not missing, (part, heading, missing)


def test_the_changelog_has_the_release_entry_of_the_version_with_every_extra():
    """Issue 36 §2: the release entry says how to install the version the package says, with its extras."""
    import tomllib

    from landlord_dsl.core.version import __version__

    page = (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")
    entry = page[page.index(f"\n## {__version__} (") :]
    assert f"landlord_dsl-{__version__}-py3-none-any.whl" in entry and f"landlord-dsl {__version__}" in entry
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for extra in set(project["optional-dependencies"]) - {"docs", "test", "dev"}:
        assert f"`{extra}`" in entry.split("\n### ")[0], extra
    low, high = re.findall(r"3\.(\d+)", project["requires-python"])
    assert f"Python 3.{low} to 3.{int(high) - 1}" in entry


def test_the_architecture_page_says_where_the_shipped_files_are_found():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page[page.index("## Where the shipped files are found") :].split("\n## ")[0]
    for name in ("core/installation.py", "core/resources.py", "force-include", ".ci/installed"):
        assert name in section, name


def test_the_play_page_hook_fails_in_ci_without_pyodide_and_says_why_elsewhere(tmp_path, monkeypatch, caplog):
    """hooks/play_page.py: without .ci/pyodide's cache a CI build fails (its site's Play link would be dead);
    elsewhere the site is built without play/ and the log says why."""
    import importlib.util
    import logging

    from mkdocs.exceptions import PluginError

    sys.path.insert(0, str(ROOT / "tests"))
    import pyodide_support

    spec = importlib.util.spec_from_file_location("_play_hook", ROOT / "hooks" / "play_page.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    monkeypatch.setattr(pyodide_support, "missing", lambda: "no Pyodide 0.0 in /nowhere")
    monkeypatch.delenv("LANDLORD_DOCS_PLAY", raising=False)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(PluginError, match=re.escape("no Pyodide 0.0 in /nowhere: run bash .ci/pyodide")):
        hook.on_post_build({"site_dir": str(tmp_path)})
    monkeypatch.delenv("CI")
    monkeypatch.setenv("LANDLORD_REQUIRE_PYODIDE", "0")
    with caplog.at_level(logging.INFO, logger="mkdocs.hooks.play_page"):
        hook.on_post_build({"site_dir": str(tmp_path)})
    assert "play/ left out" in caplog.text and "no Pyodide 0.0" in caplog.text
    assert not (tmp_path / "play").exists()
