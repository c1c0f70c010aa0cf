"""Every command the README and the documentation show is run, and the output they show is compared (issue 18).

Each fenced ```console, ```sh, ```bash or ```shell block of README.md and
docs/**/*.md is found here, whatever its page, and is one of:

* run: each `landlord-dsl` command of the block, in order, in this process,
  in a scratch folder where `editions/` and `examples/` are the repository's
  and every ```lg block of the page titled with a file name (`title="x.lg"`)
  has been written. In ```console blocks the commands are the lines after
  `$ ` and the lines up to the next `$ ` are their output, compared line by
  line (trailing blanks ignored, a line `...` standing for any lines, the
  editions' folder shown as `.../editions`). Shell syntax understood: `#`
  comments, `\\` continuations, `&&`, `> FILE`, `VAR=value` in front, and
  `*` patterns. A command must exit 0 (`diff` 0 or 1: 1 means the rule sets
  differ), or what a `<!-- run: exit=N -->` marker before the block says.
  Where no output is shown, `--games N` and `--outcomes N` above 20 are run
  with 20, so the docs may show the large runs people make.
* `<!-- not run: REASON -->` just before the block: not run, for the reason
  given (installing, a cluster, a name the reader fills in).
* `<!-- walkthrough: run ... -->` before it (docs/writing-a-variant.md):
  run by tests/test_variants.py with the rest of the walk-through.

A block of any other command without a marker fails here, so a new page
cannot show an untested command. Blocks that simulate many games, sweep,
analyse, plot or compare outcomes are slow tests. With LANDLORD_UPDATE_GOLDEN=1
(and `-n 0`) the output in ```console blocks is rewritten from what the
commands print, except outputs cut with `...`, which are kept by hand.
"""

from __future__ import annotations

import contextlib
import doctest
import glob
import io
import os
import re
import shlex
from pathlib import Path

import pytest

from golden_files import UPDATE
from landlord_dsl.cli.main import main
from landlord_dsl.core.resources import editions_dir
from test_variants import output_matches

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_FENCE = re.compile(r"^```([\w-]*)([^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S)
_MARKER = re.compile(r"<!-- (not run|run|walkthrough): ?(.*?) -->\s*$", re.S)
_SHELL = {"console", "sh", "bash", "shell"}
_SLOW = re.compile(r"\b(sweep|analyze)\b|--outcomes|--plot|--backend|--games [0-9]{3,}")
_FEWER = re.compile(r"(--(?:games|outcomes) )([0-9_]+)")
SMALL = 20  # games run where the page asks for more (and shows no output)


def blocks() -> list[dict]:
    """Return every shell block of the pages: page, line, lang, marker kind and arguments, and its text."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        end = 0
        for fence in _FENCE.finditer(text):
            before, end = text[end : fence.start()], fence.end()
            if fence.group(1) not in _SHELL:
                continue
            marker = _MARKER.search(before)
            found.append(
                {
                    "page": str(page.relative_to(ROOT)),
                    "line": text.count("\n", 0, fence.start()) + 1,
                    "lang": fence.group(1),
                    "marker": marker.group(1) if marker else "run",
                    "args": marker.group(2).strip() if marker else "",
                    "body": fence.group(3),
                }
            )
    return found


def titled_files(page: str) -> dict[str, str]:
    """Return the files a page shows whole: its ```lg blocks titled with a file name, by name (the last wins)."""
    text = (ROOT / page).read_text(encoding="utf-8")
    return {m.group(1): m.group(2) for m in re.finditer(r'^```lg title="([\w.+-]+\.lg)"\n(.*?)^```', text, re.M | re.S)}


def commands(block: dict) -> list[tuple[str, str | None]]:
    """Return the block's commands, each with the output shown under it (None where none is shown)."""
    lines = block["body"].replace("\\\n", " ").splitlines()
    if block["lang"] != "console":
        return [(line, None) for line in lines if shlex.split(line, comments=True)]
    out: list[tuple[str, str | None]] = []
    shown: list[str] = []
    for line in lines:
        if line.startswith("$ "):
            if out:
                out[-1] = (out[-1][0], "\n".join(shown))
            out.append((line[2:], None))
            shown = []
        else:
            shown.append(line)
    if out:
        out[-1] = (out[-1][0], "\n".join(shown))
    return out


def run_command(line: str, shown: str | None, workdir: Path) -> list[tuple[list[str], int, str]]:
    """Run one line (maybe `a && b`) in `workdir`; return each landlord-dsl command's argv, exit status and output."""
    words = shlex.split(line, comments=True)
    results = []
    while words:
        part = words[: words.index("&&")] if "&&" in words else words
        words = words[len(part) + 1 :]
        env = {}
        while part and re.fullmatch(r"[A-Z_]+=.*", part[0]):
            key, value = part.pop(0).split("=", 1)
            env[key] = value
        target = None
        if ">" in part:
            at = part.index(">")
            part, target = part[:at], part[at + 1]
        assert part and part[0] == "landlord-dsl", (
            f"`{' '.join(part)}` is not a landlord-dsl command: mark the block <!-- not run: why -->"
        )
        argv = []
        for word in part[1:]:
            matches = sorted(glob.glob(word, root_dir=workdir)) if "*" in word else []
            argv.extend(matches or [word])
        if shown is None:  # no output to compare: fewer games
            cut = _FEWER.sub(lambda m: m.group(1) + str(min(int(m.group(2).replace("_", "")), SMALL)), shlex.join(argv))
            argv = shlex.split(cut)
        out, err = io.StringIO(), io.StringIO()
        saved = {key: os.environ.get(key) for key in env}
        os.environ.update(env)
        try:
            with contextlib.redirect_stderr(err):
                try:
                    code = main(argv, out=out)
                except SystemExit as exit:  # argparse's own errors
                    code = exit.code if isinstance(exit.code, int) else 2
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        text = out.getvalue()
        if target is not None and target != "/dev/null":
            (workdir / target).parent.mkdir(parents=True, exist_ok=True)
            (workdir / target).write_text(text, encoding="utf-8")
            text = ""
        elif target == "/dev/null":
            text = ""
        results.append((argv, code, (text + err.getvalue()).replace(str(editions_dir()), ".../editions")))
    return results


ALL = blocks()
RUN = [b for b in ALL if b["marker"] == "run"]


def _param(block: dict):
    marks = [pytest.mark.slow] if _SLOW.search(block["body"]) else []
    return pytest.param(block, marks=marks, id=f"{block['page']}:{block['line']}")


def test_the_pages_show_commands_and_mark_every_block_they_do_not_run():
    assert len(RUN) >= 20, "the pages' command blocks were not found"
    for block in ALL:
        where = f"{block['page']}:{block['line']}"
        if block["marker"] == "not run":
            assert len(block["args"]) > 10, f"{where}: say why the block is not run"
        elif block["marker"] == "walkthrough":
            assert block["page"] == "docs/writing-a-variant.md", f"{where}: only that page is a walk-through"


@pytest.mark.parametrize("block", [_param(b) for b in RUN])
def test_a_command_block_runs_and_prints_what_the_page_shows(block, tmp_path, monkeypatch):
    where = f"{block['page']}:{block['line']}"
    for name in ("editions", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    for name, text in titled_files(block["page"]).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    expected = dict(a.split("=", 1) for a in block["args"].split() if "=" in a)
    printed = []
    for line, shown in commands(block):
        for argv, code, output in run_command(line, shown, tmp_path):
            allowed = {int(expected["exit"])} if "exit" in expected else ({0, 1} if argv[:1] == ["diff"] else {0})
            assert code in allowed, f"{where}: `landlord-dsl {shlex.join(argv)}` exited {code}\n{output}"
        printed.append((line, shown, output))
    if UPDATE and block["lang"] == "console" and "\\\n" not in block["body"]:
        _rewrite(block, printed)  # (run with -n 0: pages are rewritten in place)
    for _, shown, output in printed:
        if shown is not None:
            assert output_matches(output, shown), f"{where}: the page shows\n{shown}\nbut the command printed\n{output}"


def _rewrite(block: dict, printed: list[tuple[str, str | None, str]]) -> None:
    """Write what the commands printed into the page's console block (an output with `...` lines is kept)."""
    body = ""
    for line, shown, output in printed:
        keep = shown is not None and "..." in shown.splitlines()
        lines = shown.splitlines() if keep or shown is None else output.rstrip("\n").splitlines()
        body += "\n".join([f"$ {line}", *(text.rstrip() for text in lines)]) + "\n"
    page = ROOT / block["page"]
    text = page.read_text(encoding="utf-8")
    fence = f"```console\n{block['body']}```"
    assert text.count(fence) == 1, f"{block['page']}:{block['line']}: the block is not found once"
    page.write_text(text.replace(fence, f"```console\n{body}```"), encoding="utf-8")


def test_commands_and_their_output_are_read_from_a_console_block():
    block = {"lang": "console", "body": "$ landlord-dsl list\na\nb\n$ landlord-dsl x \\\n  y\n"}
    assert commands(block) == [("landlord-dsl list", "a\nb"), ("landlord-dsl x    y", "")]
    sh = {"lang": "sh", "body": "# a comment\nlandlord-dsl list   # what\n\n"}
    assert commands(sh) == [("landlord-dsl list   # what", None)]


def test_a_block_of_another_program_must_be_marked(tmp_path):
    with pytest.raises(AssertionError, match="not run"):
        run_command("pip install .", None, tmp_path)


def pycon_blocks() -> list[tuple[str, int, str]]:
    """Return (page, line, text) of every ```pycon block (a Python session with its output) of the pages."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for fence in _FENCE.finditer(text):
            if fence.group(1) == "pycon":
                found.append((str(page.relative_to(ROOT)), text.count("\n", 0, fence.start()) + 1, fence.group(3)))
    return found


@pytest.mark.parametrize("page,line,text", pycon_blocks(), ids=[f"{p}:{n}" for p, n, _ in pycon_blocks()])
def test_a_python_session_prints_what_the_page_shows(page, line, text, tmp_path, monkeypatch):
    """Sessions are run as doctests: the README's faster_game example once showed the same game as without it."""
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(text, {}, f"{page}:{line}", page, line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    runner.run(test, out=report.write)
    assert runner.failures == 0 and test.examples, report.getvalue()
