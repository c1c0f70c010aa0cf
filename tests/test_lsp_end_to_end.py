"""`landlord-dsl lsp` end to end with pytest-lsp (issue 34 §1): a real client speaks to the server in a child
process over stdio, as an editor does.

The diagnostics of every golden error file (tests/golden/errors, tests/golden/variants) are what the golden
says `check` prints: each problem at its line and column with its severity, message and hint, each note in
another file (the base a variant breaks) as the problem's related information. The shipped editions open with
no problems; hover, go to definition and formatting answer on them.
"""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types as lsp  # noqa: E402
from pygls.uris import to_fs_path  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

import landlord_dsl as ld  # noqa: E402
from landlord_dsl.checking.builtins import BUILTINS  # noqa: E402
from landlord_dsl.core.resources import editions_dir, shipped_files  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = sorted((ROOT / "tests" / "golden" / "errors").glob("*.lg")) + sorted(
    (ROOT / "tests" / "golden" / "variants").glob("*.lg")
)
SHIPPED = sorted(shipped_files().values())
HEAD = re.compile(r"^(?P<file>[^ ].*?):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning|note): (?P<message>.*)$")
HINT = re.compile(r"^ +hint: (?P<hint>.*)$")
SEVERITY = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "note": lsp.DiagnosticSeverity.Information,  # (a note in the file itself, as at a '{' never closed)
}
TIMEOUT = 60.0

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "landlord_dsl", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, path: Path, text: str | None = None) -> list[lsp.Diagnostic]:
    """Open the file in the server (its text, or `text` in its place); return the diagnostics it publishes."""
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(
                uri=uri, language_id="lg", version=1, text=path.read_text(encoding="utf-8") if text is None else text
            )
        )
    )
    waited = 0.0
    while uri not in client.diagnostics:
        assert waited < TIMEOUT, f"no diagnostics for {path.name}"
        await asyncio.sleep(0.01)
        waited += 0.01
    return list(client.diagnostics[uri])


def _close(client: LanguageClient, path: Path) -> None:
    client.text_document_did_close(
        lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=path.as_uri()))
    )


def _problems(printed: str, path: Path) -> list[tuple]:
    """Return the problems `check` printed of `path` (under its file name alone), as (line, column, severity,
    message, related) of each problem shown in the file: 0-based places, the hint on the message's second line,
    the notes in other files as (file name, line, column, message)."""
    expected: list[tuple] = []
    lines = printed.splitlines()
    for number, line in enumerate(lines):
        head = HEAD.match(line)
        if head is None:
            continue
        hint = next((m["hint"] for rest in lines[number + 1 :] if (m := HINT.match(rest))), None)
        following = next((rest for rest in lines[number + 1 :] if HEAD.match(rest) or HINT.match(rest)), "")
        message = head["message"] + (f"\nhint: {hint}" if hint is not None and HINT.match(following) else "")
        place = (int(head["line"]) - 1, int(head["col"]) - 1)
        if head["file"] == path.name:
            expected.append((*place, SEVERITY.get(head["severity"]), message, []))
        elif head["severity"] == "note" and expected:
            expected[-1][4].append((head["file"], *place, head["message"]))
        else:
            at = f"\n(at {head['file']}:{head['line']}:{head['col']})"
            expected.append((0, 0, SEVERITY.get(head["severity"]), message + at, []))
    return expected


def _shown(diagnostics: list[lsp.Diagnostic], path: Path) -> list[tuple]:
    """Return the diagnostics in _golden's terms (files by their names alone, as the goldens give them)."""
    return [
        (
            d.range.start.line,
            d.range.start.character,
            d.severity,
            re.sub(r"\(at .*/([^/]+:\d+:\d+)\)$", r"(at \1)", d.message.replace(str(path), path.name)),
            [
                (Path(r.location.uri).name, r.location.range.start.line, r.location.range.start.character, r.message)
                for r in d.related_information or []
            ],
        )
        for d in diagnostics
    ]


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
async def test_the_diagnostics_of_a_golden_error_file_are_what_check_prints(client: LanguageClient, path: Path):
    shown = _shown(await _open(client, path), path)
    _close(client, path)
    text = path.read_text(encoding="utf-8")
    assert shown == _problems("\n\n".join(d.render() for d in ld.check(text, path.name)), path)
    # and the golden's problems are among them (a variant's golden leaves out the old-syntax warnings of a
    # file with other warnings, which `check` prints: tests/test_variant_errors_golden.py)
    golden = _problems(path.with_suffix(".expected").read_text(encoding="utf-8"), path)
    assert golden and all(problem in shown for problem in golden), golden


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
async def test_a_shipped_edition_opens_without_problems_and_formats_back_to_itself(client: LanguageClient, path):
    text = path.read_text(encoding="utf-8")
    assert await _open(client, path) == []
    identifier = lsp.TextDocumentIdentifier(uri=path.as_uri())
    options = lsp.FormattingOptions(tab_size=4, insert_spaces=True)
    edits = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(text_document=identifier, options=options)
    )
    assert edits is not None and list(edits) == []  # the shipped files are in the canonical layout
    _close(client, path)
    # every line's indentation lost: the formatting puts the file back as it ships
    flat = "\n".join(line.lstrip() for line in text.splitlines()) + "\n"
    assert await _open(client, path, flat) == []
    (edit,) = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(text_document=identifier, options=options)
    )
    assert (edit.range.start.line, edit.range.start.character) == (0, 0)
    assert edit.range.end.line >= len(flat.splitlines()) and edit.new_text == text
    _close(client, path)


def _position(text: str, needle: str, offset: int = 0) -> lsp.Position:
    """Return the protocol's position of the first `needle` in the text, moved `offset` characters in."""
    for number, line in enumerate(text.splitlines()):
        if needle in line:
            return lsp.Position(line=number, character=line.index(needle) + offset)
    raise AssertionError(needle)


async def _hover(client: LanguageClient, path: Path, position: lsp.Position) -> str:
    shown = await client.text_document_hover_async(
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=path.as_uri()), position=position)
    )
    assert shown is not None and isinstance(shown.contents, lsp.MarkupContent)
    assert shown.contents.kind == lsp.MarkupKind.Markdown
    return shown.contents.value


async def test_hover_in_the_1904_edition_shows_a_constant_and_a_built_in(client: LanguageClient):
    path = editions_dir() / "landlords-game-1904.lg"
    text = path.read_text(encoding="utf-8")
    await _open(client, path)
    const = re.search(r"^const (\w+) = .*$", text, re.MULTILINE)
    assert const is not None
    use = next(m for m in re.finditer(rf"\b{const[1]}\b", text) if m.start() > const.end())
    line = text.count("\n", 0, use.start())
    column = use.start() - (text.rfind("\n", 0, use.start()) + 1)
    shown = await _hover(client, path, lsp.Position(line=line, character=column))
    assert shown.startswith(f"**const** `{const[1]}`"), shown
    called = _position(text, "len(")
    shown = await _hover(client, path, called)
    builtin = BUILTINS["len"]
    assert f"`len({', '.join(builtin.params)}) -> {builtin.result}`" in shown and builtin.doc in shown, shown
    _close(client, path)


async def test_go_to_definition_from_a_variant_opens_the_edition_it_extends(client: LanguageClient):
    path = editions_dir() / "variants" / "monopoly-1933-free-parking-jackpot.lg"
    text = path.read_text(encoding="utf-8")
    await _open(client, path)
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(
            text_document=lsp.TextDocumentIdentifier(uri=path.as_uri()),
            position=_position(text, "reroute tax", len("reroute ")),
        )
    )
    assert isinstance(found, lsp.Location)
    base = editions_dir() / "monopoly-1933-atlantic-city.lg"
    assert found.uri == base.as_uri()
    declared = base.read_text(encoding="utf-8").splitlines()[found.range.start.line]
    assert declared[found.range.start.character :].startswith("purpose tax"), declared
    _close(client, path)


async def test_a_change_is_checked_again_and_a_fix_clears_the_problem(client: LanguageClient):
    path = ROOT / "tests" / "golden" / "errors" / "01-unknown-account.lg"
    text = path.read_text(encoding="utf-8")
    (problem,) = await _open(client, path)
    assert problem.message.startswith("unknown name 'tresury'")
    uri = path.as_uri()
    fixed = text.replace("tresury", "treasury")
    client.diagnostics.pop(uri)
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    waited = 0.0
    while uri not in client.diagnostics:
        assert waited < TIMEOUT
        await asyncio.sleep(0.01)
        waited += 0.01
    assert [d.message for d in client.diagnostics[uri]] == [
        d.message + (f"\nhint: {d.hint}" if d.hint else "") for d in ld.check(fixed, str(path))
    ]
    assert not any("tresury" in d.message for d in client.diagnostics[uri])
    _close(client, path)


async def test_references_from_a_variant_reach_into_the_edition_it_extends(client: LanguageClient):
    path = editions_dir() / "variants" / "monopoly-1933-free-parking-jackpot.lg"
    text = path.read_text(encoding="utf-8")
    await _open(client, path)
    found = await client.text_document_references_async(
        lsp.ReferenceParams(
            text_document=lsp.TextDocumentIdentifier(uri=path.as_uri()),
            position=_position(text, "reroute tax", len("reroute ")),
            context=lsp.ReferenceContext(include_declaration=True),
        )
    )
    assert found is not None
    base = editions_dir() / "monopoly-1933-atlantic-city.lg"
    assert {location.uri for location in found} == {path.as_uri(), base.as_uri()}
    for location in found:
        line = Path(to_fs_path(location.uri) or "").read_text(encoding="utf-8").splitlines()
        start, end = location.range.start, location.range.end
        assert line[start.line][start.character : end.character] == "tax"
    _close(client, path)


async def test_a_quick_fix_rewrites_an_old_form_as_fmt_does(client: LanguageClient):
    path = ROOT / "tests" / "golden" / "variants" / "05-restates-a-rule-around-an-extension-point.lg"
    text = path.read_text(encoding="utf-8")
    found = await _open(client, path)
    (old,) = [d for d in found if d.message.startswith("a citation before the `{`")]
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=path.as_uri()),
            range=old.range,
            context=lsp.CodeActionContext(diagnostics=[old]),
        )
    )
    assert actions is not None
    (action,) = actions
    assert isinstance(action, lsp.CodeAction) and action.edit is not None and action.edit.changes is not None
    (edit,) = action.edit.changes[path.as_uri()]
    assert (edit.range.start.line, edit.range.start.character) == (0, 0)
    assert edit.new_text == ld.format_source(text, str(path))
    _close(client, path)


_BASE = (ROOT / "tests" / "golden" / "errors" / "01-unknown-account.lg").read_text(encoding="utf-8")
_BASE = _BASE.replace("tresury", "treasury").replace("price: int rent: int", "price: int, rent: int")
_VARIANT = (
    'edition "house" {\n    extends "base.lg"\n}\n\n'
    'const extra = 5\n\nrule more "More rent" {\n'
    "    on land lot {\n        pay extra from player to treasury\n    }\n}\n"
)


async def _republished(client: LanguageClient, uri: str) -> list[lsp.Diagnostic]:
    waited = 0.0
    while uri not in client.diagnostics:
        assert waited < TIMEOUT, f"no diagnostics for {uri}"
        await asyncio.sleep(0.01)
        waited += 0.01
    return list(client.diagnostics[uri])


async def test_saving_a_base_checks_the_open_files_that_extend_it_again(client: LanguageClient, tmp_path):
    base, variant = tmp_path / "base.lg", tmp_path / "house.lg"
    base.write_text(_BASE, encoding="utf-8")
    variant.write_text(_VARIANT, encoding="utf-8")
    assert await _open(client, base) == []
    assert await _open(client, variant) == []
    # the base renames the account the variant pays into, and is saved
    renamed = _BASE.replace("treasury", "public_purse")
    base.write_text(renamed, encoding="utf-8")
    client.diagnostics.pop(variant.as_uri(), None)
    client.diagnostics.pop(base.as_uri(), None)
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=base.as_uri(), version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=renamed)],
        )
    )
    assert await _republished(client, base.as_uri()) == []
    assert variant.as_uri() not in client.diagnostics  # a change alone is not on disk: the variant is left be
    client.text_document_did_save(
        lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=base.as_uri()))
    )
    (problem,) = await _republished(client, variant.as_uri())
    assert problem.message.startswith("unknown name 'treasury'") and problem.range.start.line == 8
    _close(client, base)
    _close(client, variant)
