"""The foundation every stage stands on.

Errors and diagnostics, the shipped files, dispatch tables, the language's
types, terminal output.

Nothing here knows the syntax tree, a rule set or a game.
"""
