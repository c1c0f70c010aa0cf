"""Editor support: what a language server offers an editor of `.lg` files (`landlord-dsl lsp`).

features.py answers the editor's questions from the text of a file (its
problems, outline, the declaration of a name, what to show on hover, its
canonical layout) with the stages below; server.py speaks the Language
Server Protocol on standard input and output (the `lsp` extra: pygls).
"""
