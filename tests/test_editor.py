"""Editor support (issue 34 §1): the answers of editor/features.py, and `landlord-dsl lsp` end to end over stdio.

The end-to-end tests speak JSON-RPC with Content-Length framing to the server in a child process, as an
editor does: initialize, open a document, read the diagnostics it publishes, ask for the outline, a
definition, a hover and the formatting, then shut it down.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import landlord_dsl as ld
from landlord_dsl.core.resources import editions_dir
from landlord_dsl.editor import features

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = sorted((ROOT / "tests" / "golden" / "errors").glob("*.lg"))
JACKPOT = editions_dir() / "variants" / "monopoly-1933-free-parking-jackpot.lg"


def _place(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    """Return the 1-based (line, column) of the first `needle` in the text, moved `offset` characters in."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1 + offset
    raise AssertionError(needle)


# ------------------------------------------------------------------ the answers
@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_the_problems_are_what_check_reports(path):
    """Each golden error file gets, as you type, exactly what `check` prints for it."""
    text = path.read_text(encoding="utf-8")
    assert features.problems(text, str(path)) == ld.check(text, str(path))


def test_the_outline_lists_the_declarations_with_the_board_and_decks_nested():
    path = editions_dir() / "landlords-game-1906.lg"
    symbols = features.outline(path.read_text(encoding="utf-8"), str(path))
    kinds = {s.kind for s in symbols}
    assert {"rule", "board", "deck", "const"} <= kinds
    board = next(s for s in symbols if s.kind == "board")
    assert len(board.children) == 40 and all(c.kind == "space" for c in board.children)
    assert features.outline("edition {", "broken.lg") == []


def test_a_name_used_in_a_variant_is_found_in_its_base():
    text = JACKPOT.read_text(encoding="utf-8")
    line, column = _place(text, "reroute tax", len("reroute "))
    span = features.definition(text, str(JACKPOT), line, column)
    assert span is not None and Path(span.file).name == "monopoly-1933-atlantic-city.lg"
    assert Path(span.file).read_text(encoding="utf-8").splitlines()[span.line - 1].startswith("purpose tax")
    shown = features.hover(text, str(JACKPOT), line, column)
    assert shown is not None and shown.startswith("**purpose** `tax`") and "source: anspach-1933" in shown


def test_hover_on_a_declaration_of_the_file_and_on_a_built_in():
    text = 'edition "x" {\n}\nconst wage = max(100, 2)\n'
    assert (
        features.hover(text, "x.lg", *_place(text, "wage"))
        == "**const** `wage`\n\n```lg\nconst wage = max(100, 2)\n```"
    )
    shown = features.hover(text, "x.lg", *_place(text, "max"))
    assert shown is not None and shown.startswith("**built-in** `max(int, int) -> int`")
    assert features.hover(text, "x.lg", *_place(text, "100")) is None


def test_formatting_is_what_fmt_writes():
    text = 'edition "x" {\n}\nconst   wage = 100\n'
    assert features.formatted(text, "x.lg") == ld.format_source(text, "x.lg")
    assert features.formatted("edition {", "x.lg") is None


def _labels(found: list[features.Completion], kind: str | None = None) -> list[str]:
    return [c.label for c in found if kind is None or c.kind == kind]


def test_completion_offers_names_of_the_file_and_its_base_and_built_ins():
    text = JACKPOT.read_text(encoding="utf-8")
    line, column = _place(text, "reroute tax", len("reroute "))
    found = features.completions(text, str(JACKPOT), line, column)
    assert _labels(found, "keyword") == []  # `reroute` takes a name, never a keyword
    assert "jackpot" in _labels(found, "account")  # declared in the variant
    assert "tax" in _labels(found, "purpose")  # declared in the Atlantic City edition it extends
    (max_,) = [c for c in found if c.label == "max"]
    assert max_.kind == "built-in" and max_.detail == "max(int, int) -> int"


def test_completion_offers_the_keywords_the_grammar_allows_at_the_place():
    header = 'edition "x" {\n}\nconst wage = 100\n'
    # after a rule's title: what may come before its `{`, and no name
    assert _labels(features.completions(header + 'rule r "R" \n', "x.lg", 4, 12)) == [
        "after",
        "before",
        "off",
        "replaces",
        "source",
    ]
    # a statement's first word: the statements' keywords, and no names or built-ins
    statement = header + "rule r {\n  on turn {\n    p\n  }\n}\n"
    found = features.completions(statement, "x.lg", 6, 6)
    assert {"pay", "set", "if", "for", "choose", "roll"} <= set(_labels(found)) and "wage" not in _labels(found)
    assert {c.kind for c in found} == {"keyword"} and "rule" not in _labels(found)
    # in an expression: names, built-ins and the keywords an expression may start with
    expression = header + "rule r {\n  on turn {\n    pay w\n  }\n}\n"
    found = features.completions(expression, "x.lg", 6, 10)
    assert "wage" in _labels(found, "const") and "max" in _labels(found, "built-in")
    assert {"not", "if", "true", "none"} <= set(_labels(found, "keyword")) and "pay" not in _labels(found)
    # in the header: its items
    assert _labels(features.completions('edition "x" {\n  pl\n}\n', "x.lg", 2, 5)) == [
        "dice",
        "extends",
        "players",
        "source",
        "title",
        "turn",
    ]
    # where the text before does not parse, every keyword
    broken = header + "rule r {{\n  \n"
    keywords, _ = features.grammar_keywords()
    assert set(_labels(features.completions(broken, "x.lg", 5, 3), "keyword")) == keywords


def test_completion_reads_the_names_of_a_file_without_the_line_being_typed():
    text = 'edition "x" {\n}\nconst wage = 100\nconst pay2 = wa +\n'  # line 4 does not parse yet
    assert _labels(features.completions(text, "x.lg", 4, 16), "const") == ["wage"]


def test_completion_after_on_offers_the_grammar_s_events():
    text = 'edition "x" {\n}\nrule r {\n  on \n}\n'
    assert _labels(features.completions(text, "x.lg", 4, 6)) == ["setup", "turn", "land", "pass", "shortfall"]


def test_completion_in_a_source_offers_bibliography_keys_and_the_file_s_references():
    text = 'edition "x" {\n}\nreference "my-notes" "My notes"\nconst wage = 100 source "ma'
    found = features.completions(text, "x.lg", 4, len('const wage = 100 source "ma') + 1)
    assert {c.kind for c in found} == {"source"}
    assert "magie-1906" in _labels(found) and "my-notes" in _labels(found)
    assert next(c for c in found if c.label == "my-notes").detail == "My notes"
    located = 'const wage = 100 source "magie-1906, Rule '
    assert features.completions(located, "x.lg", 1, len(located) + 1) == []  # the locator is free text
    assert features.completions('const t = "ab', "x.lg", 1, 14) == []  # another string
    assert features.completions("const t = 1 # ru", "x.lg", 1, 17) == []  # a comment


_USES = 'edition "x" {\n}\nconst wage = 100\nconst pay2 = wage + 1 # wage\nconst pay3 = wage # "wage"\n'


def test_references_are_the_name_s_tokens_never_in_strings_or_comments():
    here = _place(_USES, "wage")
    found = features.references(_USES, "x.lg", *here)
    assert [(s.line, s.column, s.end_column) for s in found] == [(3, 7, 11), (4, 14, 18), (5, 14, 18)]
    without = features.references(_USES, "x.lg", 4, 15, include_declaration=False)
    assert [s.line for s in without] == [4, 5]
    assert features.references(_USES, "x.lg", 3, 14) == []  # a number, no name


def test_references_of_a_name_from_the_base_are_its_uses_in_the_variant_and_in_the_base():
    text = JACKPOT.read_text(encoding="utf-8")
    at = _place(text, "reroute tax", len("reroute "))
    found = features.references(text, str(JACKPOT), *at)
    base = editions_dir() / "monopoly-1933-atlantic-city.lg"
    assert {s.file for s in found} == {str(JACKPOT), str(base)}
    assert found[0].file == str(JACKPOT)  # the file's own places first
    for s in found:
        line = Path(s.file).read_text(encoding="utf-8").splitlines()[s.line - 1]
        assert line[s.column - 1 : s.end_column - 1] == "tax"
    declaration = features.definition(text, str(JACKPOT), *at)
    assert declaration is not None and declaration.file == str(base)
    without = features.references(text, str(JACKPOT), *at, False)
    (dropped,) = [s for s in found if s not in without]  # the base's `purpose tax`
    assert (dropped.file, dropped.line) == (declaration.file, declaration.line)


def test_rename_replaces_every_use_of_a_name_of_the_file():
    places = features.rename(_USES, "x.lg", 4, 15, "salary")
    assert [(s.line, s.column) for s in places] == [(3, 7), (4, 14), (5, 14)]
    assert features.rename_target(_USES, "x.lg", 5, 15) == places[2]


@pytest.mark.parametrize(
    ("needle", "new", "reason"),
    [
        ("max", "top", "'max' is a built-in function"),
        ("const", "top", "'const' is a keyword of the language"),
        ("wage + 1", "pay3", "'pay3' is declared already"),
        ("wage + 1", "max", "'max' cannot be a name"),
        ("wage + 1", "two words", "'two words' cannot be a name"),
        ("100", "top", "there is no name here"),
    ],
)
def test_rename_refuses_built_ins_keywords_and_clashes(needle, new, reason):
    text = _USES.replace("= 100", "= max(100, 1)")
    with pytest.raises(features.RenameRefused, match=reason):
        features.rename(text, "x.lg", *_place(text, needle), new)


def test_rename_refuses_a_name_declared_only_in_the_shipped_base():
    text = JACKPOT.read_text(encoding="utf-8")
    with pytest.raises(features.RenameRefused, match=r"declared in monopoly-1933-atlantic-city\.lg, a shipped"):
        features.rename_target(text, str(JACKPOT), *_place(text, "reroute tax", len("reroute ")))


def test_a_did_you_mean_hint_is_a_quick_fix_replacing_the_misspelt_name():
    text = JACKPOT.read_text(encoding="utf-8").replace("reroute tax,", "reroute taxx,")
    line, column = _place(text, "taxx")
    (fix,) = features.quick_fixes(text, str(JACKPOT), line, line)
    assert fix.title == "Replace 'taxx' with 'tax'" and fix.new_text == "tax"
    assert (fix.span.line, fix.span.column, fix.span.end_column) == (line, column, column + len("taxx"))
    assert features.quick_fixes(text, str(JACKPOT), line + 1, line + 5) == []  # not on the lines asked about


# ------------------------------------------------------------------ end to end
class _Editor:
    """An editor's side of the protocol, over the pipes of a `landlord-dsl lsp` child process."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "landlord_dsl", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT
        )
        self.next_id = 0
        self.notifications: list[dict[str, Any]] = []

    def send(self, method: str, params: Any, request: bool = True) -> int | None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return message.get("id")

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = None
        while True:
            line = self.proc.stdout.readline()
            assert line, "the server closed its output"
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        assert length is not None
        return json.loads(self.proc.stdout.read(length))

    def ask(self, method: str, params: Any) -> Any:
        wanted = self.send(method, params)
        while True:
            message = self.read()
            if message.get("id") == wanted and "method" not in message:
                assert "error" not in message, message
                return message.get("result")
            if "method" in message:
                self.notifications.append(message)

    def diagnostics(self, uri: str) -> list[dict[str, Any]]:
        while True:
            for message in self.notifications:
                if message["method"] == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                    self.notifications.remove(message)
                    return message["params"]["diagnostics"]
            self.notifications.append(self.read())

    def close(self) -> int:
        self.ask("shutdown", None)
        self.send("exit", None, request=False)
        return self.proc.wait(timeout=30)


@pytest.fixture
def editor():
    started = _Editor()
    started.ask("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    started.send("initialized", {}, request=False)
    yield started
    if started.proc.poll() is None:
        started.proc.kill()


def test_the_server_publishes_checks_outlines_and_answers_as_you_edit(editor, tmp_path):
    variant = tmp_path / "house.lg"
    good = JACKPOT.read_text(encoding="utf-8")
    bad = good.replace("reroute tax,", "reroute taxx,")
    uri = variant.as_uri()
    editor.send(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "lg", "version": 1, "text": bad}}, False
    )
    (problem,) = editor.diagnostics(uri)
    line, column = _place(bad, "taxx")
    assert problem["range"]["start"] == {"line": line - 1, "character": column - 1}
    assert problem["message"] == "unknown purpose 'taxx'\nhint: did you mean 'tax'?" and problem["severity"] == 1
    asked = {"textDocument": {"uri": uri}, "range": problem["range"], "context": {"diagnostics": [problem]}}
    (action,) = editor.ask("textDocument/codeAction", asked)
    assert action["kind"] == "quickfix" and action["edit"]["changes"][uri][0]["newText"] == "tax"

    change = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": good}]}
    editor.send("textDocument/didChange", change, False)
    assert editor.diagnostics(uri) == []

    outline = editor.ask("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["name"] for s in outline] == [s.name for s in features.outline(good, str(variant))]

    line, column = _place(good, "reroute tax", len("reroute "))
    where = {"textDocument": {"uri": uri}, "position": {"line": line - 1, "character": column - 1}}
    found = editor.ask("textDocument/definition", where)
    assert found["uri"].endswith("/monopoly-1933-atlantic-city.lg")
    assert editor.ask("textDocument/hover", where)["contents"]["value"].startswith("**purpose** `tax`")

    messy = good.replace("account jackpot", "account    jackpot")
    editor.send(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": messy}]},
        False,
    )
    editor.diagnostics(uri)
    (edit,) = editor.ask(
        "textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}}
    )
    assert edit["newText"] == ld.format_source(messy, str(variant))
    assert editor.close() == 0


def test_the_server_completes_finds_references_and_renames(editor, tmp_path):
    uri = (tmp_path / "house.lg").as_uri()
    text = _USES + "rule r {\n  on \n}\n"
    editor.send(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "lg", "version": 1, "text": text}}, False
    )
    editor.diagnostics(uri)
    at = {"textDocument": {"uri": uri}, "position": {"line": 6, "character": 5}}
    events = editor.ask("textDocument/completion", at)
    assert [item["label"] for item in events] == ["setup", "turn", "land", "pass", "shortfall"]
    assert events[0]["kind"] == 23  # CompletionItemKind.Event

    change = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": _USES}]}
    editor.send("textDocument/didChange", change, False)
    editor.diagnostics(uri)  # the edition has no board: it parses, which is all references need
    where = {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 14}}
    found = editor.ask("textDocument/references", {**where, "context": {"includeDeclaration": True}})
    assert [(r["uri"], r["range"]["start"]["line"], r["range"]["start"]["character"]) for r in found] == [
        (uri, 2, 6),
        (uri, 3, 13),
        (uri, 4, 13),
    ]
    assert editor.ask("textDocument/prepareRename", where) == found[1]["range"]
    edit = editor.ask("textDocument/rename", {**where, "newName": "salary"})
    assert [e["range"] for e in edit["changes"][uri]] == [r["range"] for r in found]
    assert {e["newText"] for e in edit["changes"][uri]} == {"salary"}

    refused = editor.send("textDocument/rename", {**where, "newName": "max"})
    while (answer := editor.read()).get("id") != refused:
        pass
    assert "'max' cannot be a name" in answer["error"]["message"]
    assert editor.close() == 0


def test_without_the_extra_the_command_says_what_to_install(monkeypatch, capsys):
    from landlord_dsl.cli.main import main

    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # as if pygls were not installed
    assert main(["lsp"]) == 2
    assert "pip install 'landlord-dsl[lsp]'" in capsys.readouterr().err


def _fields(text: str, file: str, line: int, column: int) -> dict[str, str | None]:
    found = features.completions(text, file, line, column)
    assert {c.kind for c in found} == {"field"}, found
    return {c.label: c.detail for c in found}


_KINDS = 'edition "x" {\n}\nplayer var in_jail: bool = false\nspace var houses = 0\nkind lot "Lot" { price: int }\n'


def test_completion_after_a_dot_offers_the_fields_of_a_player():
    text = _KINDS + "rule r {\n  on turn {\n    if player.in {\n    }\n  }\n}\n"
    fields = _fields(text, "x.lg", 8, len("    if player.in") + 1)
    assert fields["in_jail"] == "true/false" and fields["cash"] == "a number" and "price" not in fields


def test_completion_after_a_dot_follows_loops_parameters_and_fields():
    loop = _KINDS + "rule r {\n  on turn {\n    for p in players {\n      pay p.space.\n    }\n  }\n}\n"
    fields = _fields(loop, "x.lg", 9, len("      pay p.space.") + 1)
    assert fields["price"] == "a number" and fields["houses"] == "a number" and fields["owner"] == "a player or none"
    assert "cash" not in fields
    parameter = _KINDS + "function rent_of(s: space) = s.\n"
    assert "price" in _fields(parameter, "x.lg", 6, len("function rent_of(s: space) = s.") + 1)
    dice = _KINDS + "rule r {\n  on turn {\n    let d = dice.t\n  }\n}\n"
    assert set(_fields(dice, "x.lg", 8, len("    let d = dice.t") + 1)) == {
        "total",
        "double",
        "first",
        "second",
        "count",
        "face",
    }


def test_completion_after_a_dot_in_a_text_s_hole_and_on_an_unknown_value():
    hole = _KINDS + 'rule r {\n  on turn {\n    say "{here.pr\n  }\n}\n'
    assert "price" in _fields(hole, "x.lg", 8, len('    say "{here.pr') + 1)
    unknown = _KINDS + "rule r {\n  on turn {\n    let x = mystery.\n  }\n}\n"
    fields = _fields(unknown, "x.lg", 8, len("    let x = mystery.") + 1)
    assert fields["cash"] == "a field of a player" and fields["price"] == "a field of a space"


def test_completion_after_a_dot_in_a_variant_offers_the_base_s_variables():
    text = JACKPOT.read_text(encoding="utf-8")
    lines = text.splitlines()
    typed = text + "\nrule peek {\n    on turn {\n        if player.\n    }\n}\n"
    fields = _fields(typed, str(JACKPOT), len(lines) + 4, len("        if player.") + 1)
    assert fields["in_jail"] == "true/false" and fields["jail_tries"] == "a number"  # the 1933 edition's


_1906 = editions_dir() / "landlords-game-1906.lg"


def _values(added: str, typed: str) -> list[tuple[str, str | None]]:
    """Return the completions (label, detail) at the end of `typed`, a line added at the end of the 1906 edition
    inside a rule's handler after `added` (declarations added before the rule)."""
    text = _1906.read_text(encoding="utf-8") + added + "\nrule peek {\n    on turn {\n" + typed + "\n    }\n}\n"
    line = text.splitlines().index(typed) + 1
    return [(c.label, c.detail) for c in features.completions(text, str(_1906), line, len(typed) + 1)]


def test_completion_in_a_text_compared_with_a_choice_offers_its_values():
    # landlords-game-1906: `choice standing { "free", "jail", "poor_house", "opportunity" }`, var turn_state
    values = _values("", '        if turn_state == "')
    assert values == [(v, "a value of choice 'standing'") for v in ("free", "jail", "poor_house", "opportunity")]
    assert [label for label, _ in _values("", '        set turn_state = "j')] == [v for v, _ in values]
    # an option that lists its values: `option double_four ... choices "double" | "skin_game"`
    assert _values("", '        if double_four != "') == [
        ("double", "a value of option 'double_four'"),
        ("skin_game", "a value of option 'double_four'"),
    ]
    # a declaration of the choice's type
    declared = 'var mood: standing = "'
    text = _1906.read_text(encoding="utf-8") + declared + "\n"
    found = features.completions(text, str(_1906), len(text.splitlines()), len(declared) + 1)
    assert {c.kind for c in found} == {"value"} and len(found) == 4
    # any other string: nothing
    assert _values("", '        say "hello') == []
    assert _values("", '        if wages == "') == []


def test_a_warning_of_an_old_form_offers_the_rewrite_fmt_makes():
    # a citation before a rule's `{` is the old place: `check` warns, `fmt` moves it after the `}`
    path = ROOT / "tests" / "golden" / "variants" / "05-restates-a-rule-around-an-extension-point.lg"
    text = path.read_text(encoding="utf-8")
    found = features.problems(text, str(path))
    (old,) = [d for d in found if d.message.startswith("a citation before the `{`")]
    assert old.span is not None
    (fix,) = features.quick_fixes(text, str(path), old.span.line, old.span.line, found)
    assert fix.title.startswith("Rewrite the file") and (fix.span.line, fix.span.column) == (1, 1)
    assert fix.span.end_line == len(text.splitlines()) + 1 and fix.new_text == ld.format_source(text, str(path))
    assert not any(d.message.startswith("a citation before") for d in features.problems(fix.new_text, str(path)))
    # nothing to rewrite on a line without such a warning
    assert features.quick_fixes(text, str(path), 1, old.span.line - 1, found) == []


def test_hover_on_a_constant_shows_its_value_under_the_default_options():
    # landlords-game-1906: `option faster_game ... = false`, `const wages = 100`
    text = _1906.read_text(encoding="utf-8") + "const bonus = if faster_game then wages * 3 else wages * 2\n"
    line = len(text.splitlines())
    shown = features.hover(text, str(_1906), line, 7)
    assert shown is not None and "value under the default options: `200`" in shown
    line, column = _place(text, "const wages", len("const "))
    assert "value under" not in (features.hover(text, str(_1906), line, column) or "")  # a literal is its value


def test_hover_shows_an_extension_point_and_the_bibliography_entry_of_its_citation():
    # landlords-game-1906: `extension "Replace to change how a player moves ..." action move_by_throw()`
    text = _1906.read_text(encoding="utf-8")
    line, column = _place(text, "do move_by_throw", len("do "))
    shown = features.hover(text, str(_1906), line, column)
    assert shown is not None and shown.startswith("**action** `move_by_throw`")
    assert "```lg\naction move_by_throw() {\n```" in shown
    assert "extension point: replace it in a variant. Replace to change how a player moves" in shown
    assert "source: magie-1906, Rules 2, 8 and 17 (secondary)" in shown
    assert "> The Landlord's Game, rules of play, Economic Game Company, New York, 1906" in shown


def test_references_from_an_edition_reach_the_variants_that_extend_it():
    # monopoly-1933-atlantic-city declares `purpose tax`; the free-parking-jackpot variant reroutes it
    base = editions_dir() / "monopoly-1933-atlantic-city.lg"
    text = base.read_text(encoding="utf-8")
    found = features.references(text, str(base), *_place(text, "purpose tax", len("purpose ")))
    assert {s.file for s in found} == {str(base), str(JACKPOT)}
    (used,) = [s for s in found if s.file == str(JACKPOT)]
    assert JACKPOT.read_text(encoding="utf-8").splitlines()[used.line - 1].lstrip().startswith("reroute tax")


def test_references_from_a_base_reach_a_variant_in_its_folder_and_rename_follows_them(tmp_path):
    base, variant, other = tmp_path / "base.lg", tmp_path / "house.lg", tmp_path / "other.lg"
    text = _1906.read_text(encoding="utf-8")
    base.write_text(text, encoding="utf-8")
    variant.write_text('edition "house" {\n    extends "base.lg"\n}\n\nconst bonus = wages * 2\n', encoding="utf-8")
    shipped = 'edition "other" {\n    extends "landlords-game-1906"\n}\n\nconst bonus = wages\n'
    other.write_text(shipped, encoding="utf-8")  # the shipped 1906 edition's variant, not base.lg's
    at = _place(text, "const wages", len("const "))
    found = features.references(text, str(base), *at)
    assert [(s.file, s.line, s.column) for s in found if s.file != str(base)] == [(str(variant), 5, 15)]
    # issue 34 §1: rename reaches the files that extend the declaring file, never the shipped 1906's variant
    renamed = features.rename(text, str(base), *at, "salary")
    assert renamed == found and str(other) not in {s.file for s in renamed}
    # and from the variant, a name its (user's) base declares is renamed in the base and the variant alike
    variant_text = variant.read_text(encoding="utf-8")
    from_variant = features.rename(variant_text, str(variant), 5, 16, "salary")
    assert {s.file for s in from_variant} == {str(base), str(variant)} and from_variant[0].file == str(variant)
    assert sorted((s.file, s.line, s.column) for s in from_variant) == sorted((s.file, s.line, s.column) for s in found)
    variant.write_text(variant_text + "const salary = 1\n", encoding="utf-8")  # a clash in the variant
    with pytest.raises(features.RenameRefused, match=r"'salary' is declared already in house\.lg"):
        features.rename(text, str(base), *at, "salary")
