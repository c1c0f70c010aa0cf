"""The bibliography: the sources citations name, and how a citation is read.

The shipped sources live in `editions/bibliography.toml`. A citation, the text
of `source "..."`, is one or more parts separated by ';'; each part starts with
a key (`magie-1906`), then optionally ',' or ':' and a locator
(`magie-1906, Rule 4`, `none: a hint for computer players`). A rule file may
add keys of its own with `reference "KEY" "identity" [at "where"]`.
"""

from __future__ import annotations

import functools
import re
import tomllib
from typing import Any

import attrs

from ..core.errors import Diagnostic, LandlordError
from ..core.resources import editions_dir
from ..language.ast import Span

# a key has a letter: `"1906, Rule 2"`, a year and a rule, is the free text of a file older than keys
KEY = re.compile(r"(?=[a-z0-9-]*[a-z])[a-z0-9][a-z0-9-]*")
# the kinds of source, with how the sources page describes each
KINDS = {
    "primary": "primary document",
    "transcription": "transcription of a primary document",
    "code": "third-party encoding",
    "secondary": "secondary work",
    "project": "not a historical source",
}


@attrs.frozen
class Source:
    """One entry of the bibliography."""

    key: str
    section: str
    identity: str
    kind: str
    about: str
    where: tuple[tuple[str, str], ...]


@attrs.frozen
class CitationPart:
    """One ';'-separated part of a citation: its key (None if it has none) and where it starts."""

    key: str | None
    start: int  # offset of the part's first character in the citation
    text: str


def parse_citation(citation: str) -> list[CitationPart]:
    """Return the parts of a citation, each with its key, or key None where the part does not start with one."""
    parts: list[CitationPart] = []
    offset = 0
    for raw in citation.split(";"):
        start = offset + len(raw) - len(raw.lstrip())
        offset += len(raw) + 1
        text = raw.strip()
        match = KEY.match(text)
        key = match.group(0) if match and (match.end() == len(text) or text[match.end()] in ",:") else None
        parts.append(CitationPart(key, start, text))
    return parts


FIELDS = ("key", "section", "identity", "kind", "about")  # each a text, all required; `where` is optional
FIELDS_HINT = "the fields of a [[source]] are listed at the top of editions/bibliography.toml"


@functools.cache
def shipped_sources() -> dict[str, Source]:
    """Return the shipped bibliography by key, in the order of the file."""
    path = editions_dir() / "bibliography.toml"
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise LandlordError(f"cannot read the bibliography {path}: {err}") from None
    return parse_bibliography(data, text, str(path))


def parse_bibliography(data: dict[str, Any], text: str, path: str) -> dict[str, Source]:
    """Return the sources of a decoded bibliography by key; raise LandlordError at the first malformed entry.

    `text` is the file's text, used only to place an error at its entry's `[[source]]` line.
    """
    headers = [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == "[[source]]"]

    def fail(number: int | None, key: object, problem: str) -> LandlordError:
        if number is None:
            return LandlordError(f"the bibliography {path} is malformed: {problem}")
        named = f" ('{key}')" if isinstance(key, str) else ""
        message = f"entry {number}{named} of the bibliography is malformed: {problem}"
        if number <= len(headers):
            line = headers[number - 1]
            span = Span(path, line, 1, line, len("[[source]]") + 1)
            return LandlordError([Diagnostic(message, span, text.splitlines()[line - 1], FIELDS_HINT)])
        return LandlordError(f"{message} (in {path})")

    if set(data) - {"source"}:
        raise fail(None, None, f"it may hold only [[source]] entries, not '{sorted(set(data) - {'source'})[0]}'")
    entries = data.get("source", [])
    if not isinstance(entries, list):
        raise fail(None, None, "'source' must be an array of tables, each entry starting with [[source]]")
    out: dict[str, Source] = {}
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise fail(number, None, "an entry must be a table of fields, under [[source]]")
        key = entry.get("key")
        unknown = sorted(set(entry) - set(FIELDS) - {"where"})
        if unknown:
            raise fail(number, key, f"unknown field '{unknown[0]}'")
        for field in FIELDS:
            if field not in entry:
                raise fail(number, key, f"the field '{field}' is missing")
            if not isinstance(entry[field], str):
                raise fail(number, key, f"the field '{field}' must be a text")
        if KEY.fullmatch(entry["key"]) is None:
            raise fail(number, key, "the key must be lower-case letters, digits and '-', with a letter")
        if entry["key"] in out:
            raise fail(number, key, f"the key '{key}' is already an earlier entry's")
        if entry["kind"] not in KINDS:
            raise fail(number, key, f"the kind '{entry['kind']}' is not one of {', '.join(KINDS)}")
        where = entry.get("where", [])
        if not isinstance(where, list) or not all(
            isinstance(place, list) and len(place) == 2 and all(isinstance(part, str) for part in place)
            for place in where
        ):
            raise fail(number, key, 'where must be a list of [text, url] pairs of texts (url may be "")')
        out[entry["key"]] = Source(
            entry["key"],
            entry["section"],
            entry["identity"],
            entry["kind"],
            entry["about"],
            tuple((place_text, url) for place_text, url in where),
        )
    return out


def render_markdown(sources: dict[str, Source] | None = None) -> str:
    """Return the text of docs/sources.md: every source, grouped by section, in the file's order."""
    sources = shipped_sources() if sources is None else sources
    lines = [
        "# Sources",
        "",
        "<!-- Generated by `landlord-dsl sources` from editions/bibliography.toml; do not edit by hand. -->",
        "",
        'Every `source "..."` in a shipped rule file starts with one of the keys',
        'below, followed by a locator: `source "magie-1906, Rule 4"` cites Rule 4',
        "of the 1906 rules. Several citations are separated by `;`. The checker",
        "rejects a key that is not listed here; a rule file of your own can add",
        "keys with a `reference` declaration (see the",
        "[language reference](language.md#provenance)). How sure each fact is, is",
        "said separately by its confidence (see [Provenance](provenance.md)).",
    ]
    section = None
    for s in sources.values():
        if s.section != section:
            section = s.section
            lines += ["", f"## {section}"]
        lines += ["", f"### {s.key}", "", f"**{s.identity}.** *{KINDS[s.kind].capitalize()}.*", "", s.about]
        if s.where:
            lines.append("")
            # parentheses in an address would end a Markdown link early
            lines += [
                f"* [{text}]({url.replace('(', '%28').replace(')', '%29')})" if url else f"* {text}"
                for text, url in s.where
            ]
    return "\n".join(lines) + "\n"
