"""Stage 1, the language.

The grammar, the parser, the typed syntax tree it builds, syntax errors and
their recovery, and the formatter.

Everything here works on text and syntax trees; nothing checks names or types.
"""
