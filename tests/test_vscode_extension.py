"""The VS Code extension (editors/vscode/, issue 34 §2): its grammar is the generated one, its files hang
together, its snippets parse, and its highlighting of the shipped editions agrees with the Pygments lexer's.

The last test tokenizes with VS Code's own TextMate engine, so it needs Node and the extension's npm
packages: `bash editors/vscode/scripts/check` installs them and runs it (CI does); without them it skips.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("pygments")

from landlord_dsl.core.resources import shipped_files
from landlord_dsl.core.version import __version__
from landlord_dsl.editor import features, textmate
from landlord_dsl.language.grammar import grammar_words, keyword_terminals
from landlord_dsl.language.parser import parse
from landlord_dsl.presentation.highlight import LandlordLexer

ROOT = Path(__file__).resolve().parents[1]
EXTENSION = ROOT / "editors" / "vscode"
PACKAGE = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))


def test_the_committed_textmate_grammar_is_the_generated_one():
    committed = (EXTENSION / "syntaxes" / "lg.tmLanguage.json").read_text(encoding="utf-8")
    assert committed == textmate.grammar_text(), (
        "run: python -m landlord_dsl.editor.textmate editors/vscode/syntaxes/lg.tmLanguage.json"
    )


def test_every_keyword_of_the_grammar_is_in_one_of_the_textmate_patterns():
    words, declarations = grammar_words()
    words &= frozenset(keyword_terminals())
    assert len(words) > 100
    patterns = json.dumps(textmate.grammar())
    for word in sorted(words):
        assert re.search(rf"[(|:]{word}[|)]", patterns), word
    declaring = textmate.grammar()["repository"]["declaration"]["patterns"]
    assert {w for p in declaring for w in re.findall(r"\\b\(([a-z_|]+)\)", p["match"])[0].split("|")} == declarations


def test_the_package_names_files_that_exist_and_the_server_the_package_installs():
    contributes = PACKAGE["contributes"]
    (language,) = contributes["languages"]
    assert language["extensions"] == [".lg"]
    (grammar,) = contributes["grammars"]
    assert grammar["language"] == language["id"] and grammar["scopeName"] == textmate.SCOPE
    for path in [language["configuration"], grammar["path"], contributes["snippets"][0]["path"], PACKAGE["main"]]:
        assert (EXTENSION / path).is_file(), path
    json.loads((EXTENSION / language["configuration"]).read_text(encoding="utf-8"))
    command = contributes["configuration"]["properties"]["landlordDsl.server.command"]["default"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert command[0] in scripts and command[1:] == ["lsp"]
    assert PACKAGE["version"] == __version__
    extension = (EXTENSION / PACKAGE["main"]).read_text(encoding="utf-8")
    assert '"landlordDsl"' in extension and 'language: "lg"' in extension


def _expanded(body: list[str]) -> str:
    """Return a snippet's text with each placeholder replaced by its default (a choice by its first value)."""
    text = "\n".join(body).replace("\t", "    ")
    text = re.sub(r"\$\{\d+\|([^,|]*)[^}]*\}", r"\1", text)
    while re.search(r"\$\{\d+:([^{}]*)\}", text):
        text = re.sub(r"\$\{\d+:([^{}]*)\}", r"\1", text)
    return re.sub(r"\$\d+", "", text)


def test_every_snippet_expands_to_text_that_parses():
    snippets = json.loads((EXTENSION / "snippets" / "lg.json").read_text(encoding="utf-8"))
    header = 'edition "e" { players 2 to 4 }\n'
    in_rule = {"on": "rule r {{\n{}\n}}\n", "choose": "rule r {{ on turn {{\n{}\n}} }}\n"}
    in_declaration = {
        "source": "const c = 1 {}\n",
        "space": "board {{\n{}\n}}\n",
        "card": "deck d returned {{\n{}\n}}\n",
    }
    for name, snippet in snippets.items():
        text = _expanded(snippet["body"])
        assert "$" not in text, name
        if name in ("edition", "variant"):
            source = text
        elif name in in_rule:
            source = header + in_rule[name].format(text)
        else:
            source = header + in_declaration.get(name, "{}\n").format(text)
        parse(source, f"<snippet {name}>")
        assert snippet["prefix"] == name


def _tokenize(files: list[Path]) -> dict[str, list]:
    """Return the tokens of each file as VS Code's TextMate engine makes them (scripts/tokenize.js)."""
    out = subprocess.run(
        ["node", str(EXTENSION / "scripts" / "tokenize.js"), *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout)


def _textmate_kind(scopes: list[str]) -> str | None:
    """Return the Pygments-like kind of a TextMate token by its innermost scopes, or None for other scopes."""
    joined = " ".join(scopes)
    if "comment." in joined:
        return "comment"
    if "meta.interpolation" in joined and not scopes[-1].startswith("punctuation.section.interpolation"):
        return None  # a hole's code: the lexer's hole state is coarser
    if "string." in joined:
        return "string"
    innermost = scopes[-1]
    for prefix, kind in [
        ("constant.numeric", "number"),
        ("storage.type", "keyword"),
        ("keyword.control", "keyword"),
        ("keyword.operator.word", "keyword"),
        ("constant.language", "keyword"),
        ("constant.other.confidence", "keyword"),
        ("support.function.builtin", "builtin"),
        ("variable.other", "name"),
        ("entity.name", "name"),
    ]:
        if innermost.startswith(prefix):
            return kind
    return None


def _pygments_kind(token) -> str | None:
    """Return the kind of a Pygments token in _textmate_kind's terms, or None for other kinds."""
    from pygments.token import Comment, Keyword, Name, Number, Operator, String

    if token in Comment:
        return "comment"
    if token in String:
        return "string"
    if token in Number:
        return "number"
    if token in Keyword or token in Operator.Word:
        return "keyword"
    if token in Name.Builtin:
        return "builtin"
    if token in Name:
        return "name"
    return None


@pytest.mark.skipif(
    shutil.which("node") is None or not (EXTENSION / "node_modules" / "vscode-textmate").is_dir(),
    reason="needs Node and the extension's npm packages: bash editors/vscode/scripts/check",
)
def test_vs_code_highlights_every_shipped_file_as_the_pygments_lexer_does():
    files = sorted(shipped_files().values())
    tokens = _tokenize(files)
    for path in files:
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        by_textmate: dict[int, str | None] = {}
        for number, start, end, scopes in tokens[str(path)]:
            for column in range(start, end):
                by_textmate[starts[number] + column] = _textmate_kind(scopes)
        differences = []
        for index, token, value in LandlordLexer().get_tokens_unprocessed(text):
            expected = _pygments_kind(token)
            for offset, char in enumerate(value):
                at = index + offset
                got = by_textmate.get(at)
                if char.strip() and expected and got and got != expected:
                    line = text.count("\n", 0, at)
                    differences.append(f"{path.name}:{line + 1}: {value!r} lexer {expected}, VS Code {got}")
                    break
        assert differences == [], "\n".join(differences[:20])
        # and no string or hole runs on past its line: every line starts outside any string
        for number, start, _, scopes in tokens[str(path)]:
            if start == 0 and lines[number].strip():
                assert not any(s.startswith("string.") for s in scopes) or lines[number].lstrip().startswith('"'), (
                    f"{path.name}:{number + 1}"
                )


def test_the_screenshots_file_has_the_one_misspelling_it_shows_fixed():
    # docs/editing.md's picture (scripts/screenshot) shows this file's problem and its quick fix
    path = EXTENSION / "media" / "demo.lg"
    text = path.read_text(encoding="utf-8")
    (problem,) = features.problems(text, str(path))
    assert problem.message == "unknown name 'tresury'" and problem.hint == "did you mean 'treasury'?"
    assert problem.span is not None
    (fix,) = features.quick_fixes(text, str(path), problem.span.line, problem.span.line, [problem])
    assert features.problems(text.replace("tresury", fix.new_text), str(path)) == []
