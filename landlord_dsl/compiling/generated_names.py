"""The names generated code is written with: one definition that the code generator and the pass over
its syntax tree both use.

The generator (codegen*.py, compiler.py) makes every name in the code it
writes; the AST pass (pyast_pass.py) recognises some of them by their prefix
(the game, the groups' owner getters) and adds names of its own. What each
prefix promises is written here, so neither side relies on a convention the
other may not know.
"""

from __future__ import annotations

import enum
import re

GAME = "g"  # the first parameter of every generated function: the game it runs in
# what the driven program calls in place of a choice's asking block, compiled on first use (compiling/asking.py)
ASKING = "_asking"


class Prefix(enum.StrEnum):
    """The prefixes of names in generated code. A name is its prefix followed by a number the generator
    counts (`CodeGenerator.ref`), by a name of the rules (FUNCTION, ACTION, BUILTIN), or by what the AST
    pass names (PASS_ALIAS)."""

    # values the generator binds in the program's namespace (CodeGenerator.ref)
    CONSTANT = "_k"  # a value no literal can write
    SPAN = "_sp"  # a place in the rules, for errors
    TABLE = "_t"  # a table of the rules, worked out
    BY_SPACE = "_tab"  # the values of an expression for each space a local can hold
    COLUMN = "_col"  # a board field's value, by space
    TITLE_CARDS = "_titles"  # each space's title deed
    TAGGED = "_tagged"  # the cards carrying a tag
    SPACE_SET = "_set"  # a group's spaces, as a set
    MEMBERS = "_member"  # by space: the i-th other member of its group
    OPTION_NAMES = "_names"  # a choice's option names
    CHOICE_SITE = "_site"  # a choice's ChoiceSite
    # A group's owner getter (an itemgetter of the list of owners): calling it has no effect and cannot
    # fail, so the AST pass may call it once where an expression calls it twice on the same list.
    OWNER_GETTER = "_og"
    OWNER_GETTERS = "_ogc"  # by space: the owner getter of its group (called as `_ogc3[s](g.owner)`)
    GROUP_SIZES = "_ogn"  # by space: the size of its group (never called)
    # functions the generator writes or binds, followed by the name in the rules
    FUNCTION = "_f_"  # a function of the rules
    ACTION = "_a_"  # an action of the rules
    BUILTIN = "_b_"  # a built-in function's implementation
    # names the AST pass makes: the generator makes no name that starts so
    PASS_ALIAS = "_h_"  # a local holding a game list read once (followed by the list's name)
    PASS_SHARED = "_got"  # a local holding the result of an owner getter's call, shared
    PASS_KEYED = "_key_"  # the keyed stepped pass's locals (a frame's depth, a loop's sequence and count)


# A .lg local is a Python local named by its frame slot, `v3`, or with `readable` after the .lg name
# too, `owner_v3` (`local_name`); nothing else the generator writes has that form.
_LOCAL_NAME = re.compile(r"(?:[A-Za-z_]\w*_)?v\d+")
_READABLE_LOCAL = re.compile(r"\b[A-Za-z_]\w*_(v\d+)\b")


def local_name(slot: object, name: str, readable: bool) -> str:
    """Return the Python name of the .lg local `name` held in frame slot `slot` (after `name` if `readable`)."""
    return f"{name}_v{slot}" if readable else f"v{slot}"


def is_local_name(code: str) -> bool:
    """Return True if `code` is just a name `local_name` gives."""
    return _LOCAL_NAME.fullmatch(code) is not None


def without_readable_names(code: str) -> str:
    """Return generated code with its locals named by slot alone, as without `readable` (a text literal
    that looks like such a name is shortened too)."""
    return _READABLE_LOCAL.sub(r"\1", code)


def is_owner_getter(name: str) -> bool:
    """Return True if `name` is one the generator gives an owner getter, or a list of them by space
    (Prefix.OWNER_GETTER, Prefix.OWNER_GETTERS, followed by its number)."""
    for prefix in (Prefix.OWNER_GETTERS, Prefix.OWNER_GETTER):
        if name.startswith(prefix):
            return name[len(prefix) :].isdigit()
    return False
