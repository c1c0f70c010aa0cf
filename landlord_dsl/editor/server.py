"""The language server for `.lg` files on standard input and output (`landlord-dsl lsp`; the `lsp` extra).

It offers what features.py answers: diagnostics as the file is edited
(exactly those of `landlord-dsl check`, notes in other files attached to
the problem they explain; saving a file checks the open files extending it
again), the outline of declarations, go to definition
(into the bases a variant extends), hover, formatting, completion (the
keywords the grammar allows at the cursor, names, fields after `.`, a
choice's values in a text), find references (into the bases too), rename
(of names declared in the file only) and quick fixes from the checker's
"did you mean" hints and its warnings of old forms (the rewrite `fmt` makes). Columns are
counted in characters; a line with characters outside the Basic
Multilingual Plane is placed as an editor counting UTF-16 units would not.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..core.errors import Diagnostic
from ..core.span import Span
from ..core.version import __version__
from . import features

_SEVERITY = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "note": lsp.DiagnosticSeverity.Information,
}
_SYMBOL_KIND = {
    "rule": lsp.SymbolKind.Event,
    "function": lsp.SymbolKind.Function,
    "action": lsp.SymbolKind.Method,
    "const": lsp.SymbolKind.Constant,
    "option": lsp.SymbolKind.Property,
    "account": lsp.SymbolKind.Object,
    "deck": lsp.SymbolKind.Array,
    "card": lsp.SymbolKind.EnumMember,
    "board": lsp.SymbolKind.Module,
    "space": lsp.SymbolKind.Field,
    "choice": lsp.SymbolKind.Enum,
    "kind": lsp.SymbolKind.Class,
    "table": lsp.SymbolKind.Struct,
}


_COMPLETION_KIND = {
    "keyword": lsp.CompletionItemKind.Keyword,
    "event": lsp.CompletionItemKind.Event,
    "built-in": lsp.CompletionItemKind.Function,
    "source": lsp.CompletionItemKind.Reference,
    "function": lsp.CompletionItemKind.Function,
    "action": lsp.CompletionItemKind.Method,
    "const": lsp.CompletionItemKind.Constant,
    "option": lsp.CompletionItemKind.Property,
    "account": lsp.CompletionItemKind.Variable,
    "deck": lsp.CompletionItemKind.Module,
    "card": lsp.CompletionItemKind.EnumMember,
    "space": lsp.CompletionItemKind.Field,
    "choice": lsp.CompletionItemKind.Enum,
    "kind": lsp.CompletionItemKind.Class,
    "table": lsp.CompletionItemKind.Struct,
    "field": lsp.CompletionItemKind.Field,
    "value": lsp.CompletionItemKind.EnumMember,
}


def _range(span: Span) -> lsp.Range:
    """Return the protocol's range (0-based, end exclusive) of a span (1-based, end exclusive)."""
    start = lsp.Position(line=span.line - 1, character=span.column - 1)
    end = lsp.Position(line=max(span.end_line, span.line) - 1, character=max(span.end_column - 1, 0))
    if (end.line, end.character) <= (start.line, start.character):
        end = lsp.Position(line=start.line, character=start.character + 1)
    return lsp.Range(start=start, end=end)


def _uri(file: str, current_uri: str, current_file: str) -> str:
    return current_uri if file == current_file else (from_fs_path(file) or file)


def lsp_diagnostics(found: list[Diagnostic], uri: str, file: str) -> list[lsp.Diagnostic]:
    """Return the diagnostics of `file` in the protocol's terms: each problem located in the file, with the notes
    that follow it (which may be in other files) as its related information; problems elsewhere with no place in
    the file are shown on its first line."""
    out: list[lsp.Diagnostic] = []
    for d in found:
        here = d.span is not None and d.span.file == file
        if d.severity == "note" and out and not here and d.span is not None:
            related = list(out[-1].related_information or [])
            related.append(
                lsp.DiagnosticRelatedInformation(
                    location=lsp.Location(uri=_uri(d.span.file, uri, file), range=_range(d.span)), message=d.message
                )
            )
            out[-1].related_information = related
            continue
        span = d.span if here and d.span is not None else Span(file, 1, 1, 1, 1)
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        if not here and d.span is not None:
            message += f"\n(at {d.span.file}:{d.span.line}:{d.span.column})"
        out.append(
            lsp.Diagnostic(
                range=_range(span),
                message=message,
                severity=_SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error),
                source="landlord-dsl",
            )
        )
    return out


def _document_symbol(symbol: features.Symbol) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(
        name=symbol.name,
        kind=_SYMBOL_KIND.get(symbol.kind, lsp.SymbolKind.Variable),
        range=_range(symbol.span),
        selection_range=_range(symbol.span),
        detail=symbol.kind,
        children=[_document_symbol(child) for child in symbol.children] or None,
    )


def build_server() -> LanguageServer:
    """Return a language server for `.lg` files, its features registered (start it with `start_io()`)."""
    server = LanguageServer("landlord-dsl", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Full)

    def text_and_file(uri: str) -> tuple[str, str]:
        document = server.workspace.get_text_document(uri)
        return document.source, to_fs_path(uri) or uri

    checked: dict[str, tuple[str, list[Diagnostic]]] = {}  # by document: the text last checked, its problems

    def problems_of(uri: str) -> tuple[str, str, list[Diagnostic]]:
        """Return the document's text, file and problems, checking it only if its text changed since."""
        text, file = text_and_file(uri)
        known = checked.get(uri)
        if known is None or known[0] != text:
            known = checked[uri] = (text, features.problems(text, file))
        return text, file, known[1]

    def publish(uri: str) -> None:
        _, file, found = problems_of(uri)
        shown = lsp_diagnostics(found, uri, file)
        server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=shown))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: lsp.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        publish(uri)
        # the open files that extend this one read it from disk: saved, it may break (or mend) them
        saved = Path(to_fs_path(uri) or uri).resolve()
        for other in list(server.workspace.text_documents):
            if other != uri and saved in features.bases(*text_and_file(other)):
                checked.pop(other, None)
                publish(other)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
        checked.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        text, file = text_and_file(params.text_document.uri)
        return [_document_symbol(symbol) for symbol in features.outline(text, file)]

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(params: lsp.DefinitionParams) -> lsp.Location | None:
        uri = params.text_document.uri
        text, file = text_and_file(uri)
        span = features.definition(text, file, params.position.line + 1, params.position.character + 1)
        return None if span is None else lsp.Location(uri=_uri(span.file, uri, file), range=_range(span))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(params: lsp.HoverParams) -> lsp.Hover | None:
        text, file = text_and_file(params.text_document.uri)
        shown = features.hover(text, file, params.position.line + 1, params.position.character + 1)
        if shown is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=shown))

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
        text, file = text_and_file(params.text_document.uri)
        laid_out = features.formatted(text, file)
        if laid_out is None or laid_out == text:
            return None if laid_out is None else []
        whole = lsp.Range(
            start=lsp.Position(line=0, character=0), end=lsp.Position(line=len(text.splitlines()) + 1, character=0)
        )
        return [lsp.TextEdit(range=whole, new_text=laid_out)]

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION)
    def completion(params: lsp.CompletionParams) -> list[lsp.CompletionItem]:
        text, file = text_and_file(params.text_document.uri)
        found = features.completions(text, file, params.position.line + 1, params.position.character + 1)
        return [
            lsp.CompletionItem(
                label=c.label,
                kind=_COMPLETION_KIND.get(c.kind, lsp.CompletionItemKind.Variable),
                detail=c.detail or c.kind,
            )
            for c in found
        ]

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(params: lsp.ReferenceParams) -> list[lsp.Location]:
        uri = params.text_document.uri
        text, file = text_and_file(uri)
        line, column = params.position.line + 1, params.position.character + 1
        found = features.references(text, file, line, column, params.context.include_declaration)
        return [lsp.Location(uri=_uri(span.file, uri, file), range=_range(span)) for span in found]

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(params: lsp.PrepareRenameParams) -> lsp.Range | None:
        text, file = text_and_file(params.text_document.uri)
        try:
            return _range(features.rename_target(text, file, params.position.line + 1, params.position.character + 1))
        except features.RenameRefused as refused:
            raise JsonRpcInvalidRequest(str(refused)) from None

    @server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    def rename(params: lsp.RenameParams) -> lsp.WorkspaceEdit:
        uri = params.text_document.uri
        text, file = text_and_file(uri)
        line, column = params.position.line + 1, params.position.character + 1
        try:
            places = features.rename(text, file, line, column, params.new_name)
        except features.RenameRefused as refused:
            raise JsonRpcInvalidRequest(str(refused)) from None
        changes: dict[str, list[lsp.TextEdit]] = {}
        for span in places:  # the file's places, then the base's and the extending files'
            edit = lsp.TextEdit(range=_range(span), new_text=params.new_name)
            changes.setdefault(_uri(span.file, uri, file), []).append(edit)
        return lsp.WorkspaceEdit(changes=changes)

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix])
    )
    def code_action(params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        text, file, problems = problems_of(uri)  # (an editor asks for code actions as the cursor moves)
        found = features.quick_fixes(text, file, params.range.start.line + 1, params.range.end.line + 1, problems)
        return [
            lsp.CodeAction(
                title=fix.title,
                kind=lsp.CodeActionKind.QuickFix,
                edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=_range(fix.span), new_text=fix.new_text)]}),
            )
            for fix in found
        ]

    return server
