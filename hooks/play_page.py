"""mkdocs hook: the built site's `play/` folder is the Play page, which docs/play-in-browser.md links.

After mkdocs has written the site, `on_post_build` builds the page (examples/build_play_page.py: the
project's wheel from this working tree, npm's pyodide and the dependency wheels `.ci/pyodide` installed)
into SITE/play, so that `mkdocs build` alone makes a site whose "Open the Play page" works.

Where `.ci/pyodide` has not been run, the site is built without play/ and the log says so (INFO, so that
`mkdocs build --strict` still passes on a machine with no Node), unless CI requires the page (CI=true, or
LANDLORD_REQUIRE_PYODIDE=1 as .ci/run sets): then the build fails. LANDLORD_DOCS_PLAY=0 leaves play/ out
on purpose (a quick build for a page's wording).
"""

from __future__ import annotations

import importlib.util
import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
BUILDER = ROOT / "examples" / "build_play_page.py"
log = logging.getLogger("mkdocs.hooks.play_page")


def required() -> bool:
    """Return whether the site must have its Play page (CI=true or LANDLORD_REQUIRE_PYODIDE=1)."""
    return bool(os.environ.get("CI")) or os.environ.get("LANDLORD_REQUIRE_PYODIDE") == "1"


def on_post_build(config: Any, **kwargs: Any) -> None:
    """Build the Play page into the site's play/ folder (or say why not); returns nothing.

    :raises PluginError: CI requires the page and Pyodide is missing, or the page did not build.
    """
    if os.environ.get("LANDLORD_DOCS_PLAY") == "0":
        log.info("play/ left out (LANDLORD_DOCS_PLAY=0)")
        return
    spec = importlib.util.spec_from_file_location("_build_play_page", BUILDER)
    if spec is None or spec.loader is None:
        raise PluginError(f"{BUILDER}: cannot be loaded")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    reason = builder.pyodide_support.missing()
    if reason is not None:
        if required():
            raise PluginError(f"the Play page (play/) cannot be built: {reason}: run bash .ci/pyodide")
        log.info(f"play/ left out, so the site's Play page link is dead: {reason} (run bash .ci/pyodide)")
        return
    out = Path(config["site_dir"]) / "play"
    try:
        written = builder.build(out)
    except RuntimeError as error:
        raise PluginError(f"the Play page (play/) did not build: {error}") from error
    size = sum(p.stat().st_size for p in written)
    log.info(f"built the Play page into {out}: {len(written)} files, {size / 1e6:.1f} MB")
