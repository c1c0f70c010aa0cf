"""Pass 1 (parsing): syntax errors as people read them.

`syntax_error` turns one of Lark's exceptions into a Diagnostic with the
line, a caret and a hint: the keyword meant, the usual spelling of another
language's word, the '{' never closed, or the tokens that would have been
accepted. `code_of` and `blank_strings` give a line's code without its
strings and comment (the formatter uses them too).
"""

from __future__ import annotations

import re

import attrs
from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..core.errors import Diagnostic, LandlordError, RuleSyntaxError, SourceText, did_you_mean
from . import ast
from .grammar import keyword_terminals, lark_parser

# Names for grammar terminals, as a person reading an error would say them.
_TOKEN_NAMES = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted string",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "COLON": "':'",
    "EQUAL": "'='",
    "DOT": "'.'",
    "$END": "end of file",
    "VBAR": "'|'",
    "MINUS": "'-'",
    "PLUS": "'+'",
    "STAR": "'*'",
    "SLASH": "'/'",
    "PERCENT": "'%'",
    "COMPARE": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
}


def _describe(terminal: str) -> str:
    if terminal in _TOKEN_NAMES:
        return _TOKEN_NAMES[terminal]
    known = {t.name for t in lark_parser().terminals}
    pattern = lark_parser().get_terminal(terminal).pattern if terminal in known else None
    if pattern is not None and pattern.type == "str":
        return f"'{pattern.value}'"
    return terminal.lower()


# closing brackets, listed first in a cut-short list of what was expected: a missing one is the likeliest slip
_CLOSING = ("RBRACE", "RPAR", "RSQB")


def _expected_hint(expected: set[str]) -> str | None:
    """Return "expected A, B, ..." naming at most eight of the terminals `expected`, closing brackets first, or
    None if there are none."""
    closers = [_describe(t) for t in _CLOSING if t in expected]
    names = closers + sorted({_describe(t) for t in expected if t not in _CLOSING})
    if not names:
        return None
    if len(names) > 8:
        names = names[:8] + ["..."]
    return "expected " + ", ".join(names)


def syntax_error(err: UnexpectedInput, source: SourceText) -> LandlordError:
    """Return the error for one of Lark's syntax exceptions: where it is, what was found, and a hint."""
    line = getattr(err, "line", None) or 1
    column = getattr(err, "column", None) or 1
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        unclosed = _unclosed_brace(source.text, source.name)
        if unclosed is not None and "RBRACE" in set(err.expected):
            return RuleSyntaxError(
                [source.diagnostic("this '{' is never closed", unclosed, "the file ends before its '}'")]
            )
        last = max(1, len(source.text.rstrip("\n").split("\n")))
        line_text = source.line(last) or ""
        span = ast.Span(source.name, last, len(line_text) + 1, last, len(line_text) + 2)
        if not any(code_of(line).strip() for line in source.text.split("\n")):  # nothing but blanks and comments
            return RuleSyntaxError(
                [
                    source.diagnostic(
                        "the file holds no rules" if source.text.strip() else "the file is empty",
                        span,
                        'a rule file starts with its header, `edition "NAME" { ... }`, and then its declarations',
                    )
                ]
            )
        hint = _expected_hint(set(err.expected)) or ""
        if "RBRACE" in set(err.expected):
            hint = "a '{' is never closed" + (f"; {hint}" if hint else "")
        return RuleSyntaxError([source.diagnostic("unexpected end of file", span, hint or None)])
    if isinstance(err, UnexpectedCharacters):
        char = source.text[err.pos_in_stream] if err.pos_in_stream < len(source.text) else "?"  # type: ignore[index, operator]
        span = ast.Span(source.name, line, column, line, column + 1)
        if char == '"':
            return RuleSyntaxError(
                [
                    source.diagnostic(
                        "a string is never closed on this line", span, 'close it with " before the end of the line'
                    )
                ]
            )
        if char == "\ufeff" and err.pos_in_stream == 0:
            return RuleSyntaxError(
                [
                    source.diagnostic(
                        "the text starts with a byte-order mark (U+FEFF)",
                        span,
                        "save the file as UTF-8 without a byte-order mark",
                    )
                ]
            )
        start = _word_start(source.text, err.pos_in_stream)  # type: ignore[arg-type]
        column -= err.pos_in_stream - start  # type: ignore[operator]
        rest = source.text[start:]
        word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", rest)
        hint = _slip_hint(rest, set(err.allowed or ()), source.line(line) or "", column)  # type: ignore[assignment]
        if hint is None:
            hint = (
                "names are lower_case letters, digits and '_'"
                if char.isalpha()
                else _expected_hint(set(err.allowed or ()))
            )
        if word is not None:
            span = ast.Span(source.name, line, column, line, column + len(word.group(0)))
            return RuleSyntaxError([source.diagnostic(f"unexpected {word.group(0)!r}", span, hint)])
        return RuleSyntaxError([source.diagnostic(f"unexpected character {char!r}", span, hint)])
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    if tok.start_pos is not None:
        start = _word_start(source.text, tok.start_pos)
        whole = re.match(r"[A-Za-z_][A-Za-z0-9_]*", source.text[start:])
        if whole is not None and len(whole.group(0)) > len(str(tok)):  # a keyword read off the front or back of a word
            tok = Token("NAME", whole.group(0), start, line, column - (tok.start_pos - start))
            column = tok.column
    width = max(1, len(str(tok)))
    span = ast.Span(source.name, line, column, line, column + width)
    expected = set(err.expected)
    hint = (
        _slip_hint(  # type: ignore[assignment]
            source.text[tok.start_pos :] if tok.start_pos is not None else str(tok),
            expected,
            source.line(line) or "",
            column,
        )
        or _expected_hint(expected)
    )
    if tok.type == "RBRACE":
        message = "unexpected '}'"
        if not _braces_balance(source.text):
            hint = (hint + "; " if hint else "") + "check that every '{' and '}' pair up"
    elif (
        column == 1
        and str(tok) in keyword_terminals()
        and (unclosed := _unclosed_brace(source.text[: tok.start_pos], source.name)) is not None
    ):
        return RuleSyntaxError(
            [
                source.diagnostic(
                    "this '{' is never closed",
                    unclosed,
                    f"'{tok}' at line {line} starts a new declaration before its '}}'",
                )
            ]
        )
    elif (cut := _cut_expression(source, line, column)) is not None:
        return RuleSyntaxError([cut])
    elif (found := _statement_in_function(source.line(line) or "")) is not None:
        match, statement = found
        at = ast.Span(source.name, line, match.start(3) + 1, line, match.end(3) + 1)
        return RuleSyntaxError(
            [
                source.diagnostic(
                    f"`{statement}` is a statement, and a function only gives a value",
                    at,
                    f"write it in an action, `action {match.group(1)}({match.group(2)}) {{ {statement} ... }}`, "
                    f"and run it with `do {match.group(1)}(...)`",
                )
            ]
        )
    elif tok.type in ("NAME", "COMPARE", "ADD_OP", "MUL_OP", "INT", "STRING"):
        message = f"unexpected {str(tok)!r}"
    else:
        message = f"unexpected {_describe(tok.type)}"
    error = source.diagnostic(message, span, hint)
    opener = _unmatched_opener(source, tok.start_pos, expected) if tok.start_pos is not None else None
    return RuleSyntaxError([error] if opener is None else [error, opener])


_CLOSERS = {"(": ("RPAR", ")"), "[": ("RSQB", "]"), "{": ("RBRACE", "}")}


def _unmatched_opener(source: SourceText, pos: int, expected: set[str]) -> Diagnostic | None:
    """Return a note at the bracket left open before `pos` that the parser wanted closed there, or None.

    The innermost '(' or '[' still open is the one whose closer was expected.
    A '{' is pointed at only when the indentation says it is the one left
    open: a '}' at the start of a line closes the '{' of a line indented as
    much, and a block's lines are indented more than the line that opens it.
    """
    open_: list[tuple[str, int, int, int]] = []  # (bracket, line, column, indentation of its line)
    lines = source.text[:pos].split("\n")
    never: list[tuple[str, int, int, int]] = []
    for number, text in enumerate(lines, 1):
        code = code_of(text)
        indent = len(code) - len(code.lstrip())
        for index, ch in enumerate(code):
            if ch in _CLOSERS:
                open_.append((ch, number, index + 1, indent))
            elif ch in ")]" and open_ and open_[-1][0] == {")": "(", "]": "["}[ch]:
                open_.pop()
            elif ch == "}" and open_:
                while open_ and open_[-1][0] != "{":
                    open_.pop()  # a '(' or '[' left open inside the block: the parser reports that one
                braces = [entry for entry in open_ if entry[0] == "{"]
                if index == indent and any(entry[3] == indent for entry in braces):
                    while open_[-1][3] != indent:
                        never.append(open_.pop())
                if open_:
                    open_.pop()
    if not open_ and not never:
        return None
    found: tuple[str, int, int, int] | None = None
    if open_ and open_[-1][0] in "([":
        found = open_[-1]
    elif "RBRACE" in expected:
        here = lines[-1] if lines else ""
        indent = len(here) - len(here.lstrip())
        found = never[0] if never else next((e for e in reversed(open_) if e[3] >= indent), None)
        if found is not None and found[1] == len(lines):
            found = None  # a '{' on the error's own line: what follows it is wrong, not the '{'
    if found is None or _CLOSERS[found[0]][0] not in expected:
        return None
    bracket, line, column, _ = found
    note = source.diagnostic(
        f"this '{bracket}' may be the one never closed",
        ast.Span(source.name, line, column, line, column + 1),
        f"add its '{_CLOSERS[bracket][1]}' where it should end",
    )
    return attrs.evolve(note, severity="note")


# the words that start a statement, none of which starts an expression
_STATEMENT_WORDS = frozenset(
    {"pay", "set", "let", "for", "choose", "offer", "roll", "move", "send", "draw", "give", "return"}
    | {"shuffle", "deal", "auction", "borrow", "repay", "end", "eliminate", "do"}
)
_FUNCTION_OF_STATEMENT = re.compile(r"\s*function\s+([a-z_][a-z0-9_]*)\s*\((.*)\)\s*=\s*([a-z_]+)\b")


def _statement_in_function(line_text: str) -> tuple[re.Match[str], str] | None:
    """Return the match of a function whose `=` is followed by a statement (`function f() = pay ...`) and that
    statement's word, or None: the function's name, parameters and statement word are its groups 1 to 3."""
    match = _FUNCTION_OF_STATEMENT.match(code_of(line_text))
    return (match, match.group(3)) if match is not None and match.group(3) in _STATEMENT_WORDS else None


_OPEN_ENDED = re.compile(r"(?:[-+*/%=<>(\[,]|\b(?:and|or|not|in))\s*$")


def _cut_expression(source: SourceText, line: int, column: int) -> Diagnostic | None:
    """Return the error for a line that ends inside an expression, when that is why `line` fails, else None.

    Then the keyword that starts the next declaration was read as a name,
    and the parser fails just after it: the slip is on the line before.
    """
    text = source.line(line) or ""
    match = re.fullmatch(r"([a-z_]+)\s+", text[: column - 1])
    if match is None or match.group(1) not in keyword_terminals():
        return None
    previous = next((n for n in range(line - 1, 0, -1) if code_of(source.line(n) or "").strip()), None)
    if previous is None:
        return None
    code = code_of(source.line(previous) or "").rstrip()
    if not _OPEN_ENDED.search(code):
        return None
    span = ast.Span(source.name, previous, len(code), previous, len(code) + 1)
    return source.diagnostic(
        "this line ends in the middle of an expression",
        span,
        f"'{match.group(1)}' on line {line} was read as part of it",
    )


def _word_start(text: str, pos: int) -> int:
    """Return where the word through `pos` starts (the lexer may have read its front as a keyword)."""
    start = pos
    while (
        start > 0
        and pos < len(text)
        and (text[pos].isalnum() or text[pos] == "_")
        and (text[start - 1].isalnum() or text[start - 1] == "_")
    ):
        start -= 1
    return start


# Other languages' spellings, and what .lg says instead.
_SLIPS = {
    "elif": "else if",
    "elsif": "else if",
    "elseif": "else if",
    "True": "true",
    "False": "false",
    "None": "none",
    "null": "none",
    "&&": "and",
    "||": "or",
    "!": "not",
    "=": "==",
}


def _slip_hint(rest: str, expected: set[str], line_text: str, column: int) -> str | None:
    """Return a hint for a common slip at the start of `rest` (the text from the error on), or None.

    Slips: another language's spelling (`elif`, `&&`, `True`, `=` to compare, `;`, 'text'),
    a misspelt keyword (did you mean), or a label left unquoted.
    """
    word = re.match(r"[A-Za-z_][A-Za-z0-9_]*|&&|\|\||!(?!=)|=(?!=)|;|'", rest)
    if word is None:
        return None
    found = word.group(0)
    if found == ";":
        return "no ';' is needed: statements and declarations are separated by spaces or new lines alone"
    if found == "'":
        return 'a text is written in double quotes: "like this"'
    if found == "=":
        return "to compare, write '=='; a single '=' only gives a value" if "COMPARE" in expected else None
    if found in _SLIPS:
        return f"write '{_SLIPS[found]}' instead of '{found}'"
    keywords = [value for value, name in keyword_terminals().items() if name in expected]
    close = did_you_mean(found, keywords) if keywords else None
    if close is not None:
        return close
    if "STRING" in expected and re.fullmatch(r"\s*[a-z_]+\s+[a-z_][a-z0-9_]*\s+", line_text[: column - 1]):
        label = code_of(line_text)[column - 1 :].split("{")[0].strip()
        return f'a label is written in quotes: "{label or found}"'
    return None


def _unclosed_brace(text: str, file: str) -> ast.Span | None:
    """Return where the '{' that is never closed in `text` is, or None if every '{' is closed.

    A '}' that starts its line closes the open '{' of a line indented as
    much; the braces opened on lines indented more and still open are the
    ones never closed. Otherwise the outermost brace left open at the end.
    """
    stack: list[tuple[int, int, int]] = []  # (line, column, indentation of its line)
    never: list[tuple[int, int, int]] = []
    for number, line in enumerate(text.split("\n"), 1):
        code = code_of(line)
        indent = len(code) - len(code.lstrip())
        for index, ch in enumerate(code):
            if ch == "{":
                stack.append((number, index + 1, indent))
            elif ch == "}" and stack:
                if index == indent and any(entry[2] == indent for entry in stack):
                    while stack[-1][2] != indent:
                        never.append(stack.pop())
                stack.pop()
    found = never[0] if never else (stack[0] if stack else None)
    if found is None:
        return None
    return ast.Span(file, found[0], found[1], found[0], found[1] + 1)


_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def blank_strings(line: str) -> str:
    """Return a source line with its string literals replaced by spaces (columns unchanged).

    What is left of a '#' in the result is code; from it on, a comment.
    """
    return _STRING.sub(lambda m: " " * len(m.group(0)), line)


def code_of(line: str) -> str:
    """Return a source line with string literals and any comment blanked out (columns unchanged)."""
    blanked = blank_strings(line)
    at = blanked.find("#")
    return blanked if at < 0 else blanked[:at] + " " * (len(blanked) - at)


def _braces_balance(text: str) -> bool:
    """Return True if the braces outside strings and comments pair up."""
    depth = 0
    for line in text.split("\n"):
        for ch in code_of(line):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth < 0:
                    return False
    return depth == 0
