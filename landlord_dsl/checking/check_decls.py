"""Pass 2a (checking): the declaration pass.

`DeclarationPass` files every top-level declaration by name in the Model
(reporting names declared twice or reserved), checks citations against the
bibliography, and builds the board: each space's kind and fields, and the
members of every group and kind. It is a part of `checker.Checker`.
"""

from __future__ import annotations

from ..core.dispatch import dispatch_table, handles
from ..core.errors import Diagnostic, did_you_mean
from ..core.installation import shown_name
from ..core.types import BUILTIN_FIELDS, CONTEXT_NAMES, GROUP, SHORTFALL_NAMES, SPACE, compatible, describe
from ..language import ast
from .bibliography import KEY, parse_citation, shipped_sources
from .builtins import BUILTINS
from .check_base import PassBase
from .model import AGGREGATES, FIELD_TYPES, LITERAL_NAMES, MAX_DICE, MAX_FACES, MAX_NUMBER, Scope, declared_type
from .placement import order_rules

# names the language gives a meaning: no declaration may take them
_RESERVED = frozenset(CONTEXT_NAMES) | frozenset(SHORTFALL_NAMES) | {"card"} | frozenset(LITERAL_NAMES)


class DeclarationPass(PassBase):
    """The checker's methods that collect declarations and check the board, citations and groups."""

    def _declared(self, table: dict, name: str, decl: ast.PurposeDecl | ast.VarDecl, what: str) -> bool:
        if name in table:
            self.error(
                f"{what} '{name}' is declared twice",
                decl.span,
                f"the first declaration is at line {table[name].span.line}",
            )
            return False
        return True

    def _collect(self, decls: list[ast.Declaration]) -> None:
        """File every declaration in the Model by its node class's method, then check what needs them all."""
        m = self.m
        for d in decls:
            _DECLARATIONS[type(d)](self, d)
        m.rules[:], misplaced = order_rules(m.rules)
        for rule, message, hint, code in misplaced:
            self.error(message, rule.anchor_span, hint, code=code, subject=rule.anchor if code else None)
        for v in m.space_vars.values():
            kinds = [k.name for k in m.kinds.values() if any(f.name == v.name for f in k.fields)]
            if kinds:
                self.error(
                    f"space variable '{v.name}' has the name of a field of kind '{kinds[0]}'",
                    v.span,
                    "it would hide that field on every space: choose another name",
                )
        title_decks = [d for d in m.decks.values() if d.of_titles]
        if len(title_decks) > 1 and any(d.titles_in is None for d in title_decks):
            self.error(
                "only one deck can hold all the title deeds",
                title_decks[1].span,
                "restrict each with `of titles in GROUP`",
            )

    def _global_name(self, name: str, decl: ast.Declaration | ast.SpaceDecl) -> bool:
        """Claim a top-level name; return False (after reporting) if it cannot be had."""
        if name in _RESERVED:
            self.error(f"'{name}' is a built-in name and cannot be declared", decl.span, "choose another name")
            return False
        if name in self.names_seen:
            prev = self.names_seen[name]
            self.error(
                f"the name '{name}' is already used",
                decl.span,
                f"it is declared at {shown_name(prev.file)}:{prev.line}; every top-level name must be unique",
            )
            return False
        self.names_seen[name] = decl.span
        return True

    @handles(ast.ConstDecl, ast.TableDecl, ast.ActionDecl)
    def _collect_named(self, d: ast.ConstDecl | ast.TableDecl | ast.ActionDecl) -> None:
        """File a declaration that only claims its name."""
        filed: dict[type, dict] = {
            ast.ConstDecl: self.m.consts,
            ast.TableDecl: self.m.tables,
            ast.ActionDecl: self.m.actions,
        }
        if self._global_name(d.name, d):
            filed[type(d)][d.name] = d

    @handles(ast.OptionDecl)
    def _collect_option(self, d: ast.OptionDecl) -> None:
        m = self.m
        if not self._global_name(d.name, d):
            return
        m.options[d.name] = d
        if isinstance(d.default, int) and not isinstance(d.default, bool) and abs(d.default) > MAX_NUMBER:
            self.error(
                "this number is too large",
                d.default_span,
                f"numbers may have at most {len(str(MAX_NUMBER)) - 1} digits",
            )
        if d.choices is not None and d.choice is not None:
            self.error(
                f"option '{d.name}' takes its values from '{d.choice}' and also lists them",
                d.span,
                f"drop `choices ...`, or drop `: {d.choice}`",
            )
        elif d.choices is not None:
            m.choices[d.name] = d.choices
            self._check_default(d, d.choices)

    def _check_default(self, d: ast.OptionDecl, values: tuple[str, ...]) -> None:
        if d.default not in values:
            self.error(
                f"option '{d.name}' defaults to {d.default!r}, which is not one of its choices",
                d.default_span,
                "choices: " + ", ".join(repr(c) for c in values),
            )

    @handles(ast.ChoiceDecl)
    def _collect_choice(self, d: ast.ChoiceDecl) -> None:
        if not self._global_name(d.name, d):
            return
        if d.name in FIELD_TYPES:
            self.error(f"'{d.name}' is a built-in type", d.span, "choose another name")
        twice = sorted({v for v in d.values if d.values.count(v) > 1})
        if twice:
            self.error(f"choice '{d.name}' lists {twice[0]!r} twice", d.span, "list each value once")
        self.m.choices[d.name] = d.values
        self.choice_decls[d.name] = self.m.choice_decls[d.name] = d

    def _check_type_names(self, decls: list[ast.Declaration]) -> None:
        """Report every declared type that is neither built in nor a choice; check choice-typed options."""
        named: list[tuple[str, ast.Span]] = []
        for d in decls:
            if isinstance(d, ast.KindDecl):
                named.extend((f.type, f.span) for f in d.fields)
            elif isinstance(d, ast.VarDecl) and d.type is not None:
                named.append((d.type, d.span))
            elif isinstance(d, (ast.FunctionDecl, ast.ActionDecl)):
                named.extend((p.type, p.span) for p in d.params)
            elif isinstance(d, ast.OptionDecl) and d.choice is not None:
                if d.choice in self.choice_decls and d.choices is None:
                    self._check_default(d, self.m.choices[d.choice])
                named.append((d.choice, d.span))
        for name, span in named:
            if name not in FIELD_TYPES and name not in self.choice_decls:
                self.error(
                    f"unknown type '{name}'",
                    span,
                    did_you_mean(name, list(FIELD_TYPES) + list(self.choice_decls))
                    or "a type is int, bool, text, space, group, player, card, or the name of a `choice`",
                    code="unknown-type",
                    subject=name,
                )

    @handles(ast.AccountDecl)
    def _collect_account(self, d: ast.AccountDecl) -> None:
        m = self.m
        if not self._global_name(d.name, d):
            return
        m.accounts.append(d)

    @handles(ast.PurposeDecl)
    def _collect_purpose(self, d: ast.PurposeDecl) -> None:
        # purposes have a namespace of their own: a name is only ever one after `as` or in a `reroute`
        if self._declared(self.m.purposes, d.name, d, "purpose"):
            self.m.purposes[d.name] = d

    @handles(ast.RerouteDecl)
    def _collect_reroute(self, d: ast.RerouteDecl) -> None:
        """File a `reroute` by its purposes; it is checked once every declaration is filed (`_check_reroutes`)."""
        for purpose, span in d.located_purposes():
            if purpose in self.m.reroutes:
                first = self.m.reroutes[purpose].span
                self.error(
                    f"purpose '{purpose}' is rerouted twice",
                    span,
                    f"it is already sent to {self.m.reroutes[purpose].account} at {first.file}:{first.line}",
                )
            else:
                self.m.reroutes[purpose] = d

    def _check_reroutes(self) -> None:
        """Report a `reroute` of an undeclared purpose or to something that is not an account."""
        m = self.m
        accounts = [a.name for a in m.accounts]
        for d in {id(d): d for d in m.reroutes.values()}.values():  # each declaration once
            for purpose, span in d.located_purposes():
                if purpose not in m.purposes:
                    self.error(
                        f"unknown purpose '{purpose}'",
                        span,
                        self._purpose_hint(purpose),
                        code="unknown-purpose",
                        subject=purpose,
                    )
            if d.account not in accounts:
                bound = d.account in ("player", "here")  # (names a handler binds: a player, a space)
                what = "not an account" if bound or d.account in self.names_seen else "not declared"
                self.error(
                    f"a purpose can only be rerouted to an account: '{d.account}' is {what}",
                    d.account_span,
                    did_you_mean(d.account, accounts)
                    or f"the accounts are {', '.join(accounts) or 'none'}; declare one with `account NAME`",
                )

    @handles(ast.GroupDecl)
    def _collect_group(self, d: ast.GroupDecl) -> None:
        m = self.m
        if not self._global_name(d.name, d):
            return
        m.groups[d.name] = []
        m.group_labels[d.name] = d.label or d.name

    @handles(ast.DiceDecl)
    def _collect_dice(self, d: ast.DiceDecl) -> None:
        if not self._global_name(d.name, d):
            return
        self.m.dice_sets[d.name] = d
        if not 1 <= d.count <= MAX_DICE:
            self.error(f"a set of dice holds from 1 to {MAX_DICE} dice", d.span, f"write e.g. `dice {d.name} 1`")
        if not 1 <= len(d.faces) <= MAX_FACES:
            self.error(
                f"a die has from 1 to {MAX_FACES} faces", d.span, "write `sides N`, or list them: `faces [1, 2, 3]`"
            )
        if any(isinstance(f, int) and f > MAX_NUMBER for f in d.faces):
            self.error("a face of this die has too many pips", d.span, f"at most {MAX_NUMBER}")
        if "" in d.faces:
            self.error("a face of this die shows an empty text", d.span, 'name what it shows, e.g. "Bus"')

    @handles(ast.KindDecl)
    def _collect_kind(self, d: ast.KindDecl) -> None:
        m = self.m
        if not self._global_name(d.name, d):
            return
        m.kinds[d.name] = d
        m.groups.setdefault(d.name, [])
        m.group_labels[d.name] = d.label or d.name
        for f in d.fields:
            t = declared_type(f.type)
            if f.type == "card":
                self.error(
                    f"field '{f.name}' cannot hold a card: a space's fields are fixed values",
                    f.span,
                    "use a `space var NAME: card = none` for a card kept on a space",
                )
            elif f.name in BUILTIN_FIELDS[SPACE]:
                self.error(f"'{f.name}' is a built-in field of every space", f.span, "choose another name")
            elif m.space_fields.get(f.name, t) != t:
                self.error(
                    f"field '{f.name}' has another type in another kind",
                    f.span,
                    "a field name must mean the same thing on every kind",
                )
            else:
                m.space_fields[f.name] = t

    @handles(ast.VarDecl)
    def _collect_var(self, d: ast.VarDecl) -> None:
        m = self.m
        table = {"game": m.game_vars, "player": m.player_vars, "space": m.space_vars}[d.scope]
        if d.scope == "game" and not self._global_name(d.name, d):
            return
        builtin = BUILTIN_FIELDS.get(d.scope, {})
        if d.name in builtin:
            self.error(f"'{d.name}' is a built-in field of every {d.scope}", d.span, "choose another name")
        elif d.name in LITERAL_NAMES:
            self.error(f"'{d.name}' is a value and cannot be declared", d.span, "choose another name")
        elif self._declared(table, d.name, d, f"{d.scope} variable"):
            table[d.name] = d

    @handles(ast.BoardDecl)
    def _collect_board(self, d: ast.BoardDecl) -> None:
        m = self.m
        for s in d.spaces:
            if s.name in m.space_index:
                self.error(
                    f"space '{s.name}' is declared twice",
                    s.span,
                    f"the first is at line {m.spaces[m.space_index[s.name]].span.line}",
                )
                continue
            if not self._global_name(s.name, s):
                continue
            m.space_index[s.name] = len(m.spaces)
            m.spaces.append(s)

    @handles(ast.DeckDecl)
    def _collect_deck(self, d: ast.DeckDecl) -> None:
        m = self.m
        if not self._global_name(d.name, d):
            return
        m.decks[d.name] = d
        seen: set[str] = set()
        for c in d.cards:
            if not 1 <= c.copies <= 1000:
                self.error(f"card '{c.name}' must have 1 to 1000 copies", c.span, None)
            if c.name in seen:
                self.error(
                    f"card '{c.name}' appears twice in deck '{d.name}'",
                    c.span,
                    "use `x N` after the card text for several copies",
                )
            seen.add(c.name)
        if d.of_titles and d.cards:
            self.error(f"deck '{d.name}' is made of the title deeds and cannot list cards", d.span, None)
        count = sum(c.copies for c in d.cards)
        if d.size is not None and not d.of_titles and count != d.size:
            self.error(
                f"deck '{d.name}' declares size {d.size} but has {count} card{'s' if count != 1 else ''}",
                d.span,
                "add or remove cards, or correct the size",
            )

    @handles(ast.FunctionDecl)
    def _collect_function(self, d: ast.FunctionDecl) -> None:
        m = self.m
        if not self._global_name(d.name, d):
            return
        if d.name in BUILTINS or d.name in AGGREGATES:
            self.error(f"'{d.name}' is a built-in function", d.span, "choose another name")
        m.functions[d.name] = d

    @handles(ast.RuleDecl)
    def _collect_rule(self, d: ast.RuleDecl) -> None:
        m = self.m
        first = next((r for r in m.rules if r.name == d.name), None)
        if first is not None:
            elsewhere = first.span.file != d.span.file
            where = f"line {first.span.line}" + (f" of {shown_name(first.span.file)}" if elsewhere else "")
            self.error(
                f"rule '{d.name}' is declared twice", d.span, f"the first is at {where}; give each rule its own name"
            )
            return
        m.rules.append(d)

    @handles(ast.EndDecl)
    def _collect_end(self, d: ast.EndDecl) -> None:
        m = self.m
        if d.name is not None and any(e.name == d.name for e in m.ends):
            self.error(f"end condition '{d.name}' is declared twice", d.span, None)
            return
        m.ends.append(d)

    @handles(ast.ScoreDecl)
    def _collect_score(self, d: ast.ScoreDecl) -> None:
        m = self.m
        if m.score is not None:
            self.error("the score is declared twice", d.span, "an edition has one score formula")
        m.score = d

    @handles(ast.RemoveDecl)
    def _collect_remove(self, d: ast.RemoveDecl) -> None:
        self.error(
            f"`remove {d.what} {d.name}` only makes sense in a variant",
            d.span,
            'add `extends "edition-name"` to the header',
        )

    @handles(ast.ReplaceHandlerDecl)
    def _collect_replace_handler(self, d: ast.ReplaceHandlerDecl) -> None:
        self.error(
            "`replace handler` only makes sense in a variant",
            d.span,
            f'add `extends "edition-name"` to the header, or write the handler into rule {d.rule}',
        )

    # ------------------------------------------------------------ citations
    @handles(ast.ReferenceDecl)
    def _reference(self, d: ast.ReferenceDecl) -> None:
        shipped = shipped_sources()
        if KEY.fullmatch(d.key) is None:
            self.error(
                f"'{d.key}' cannot be a source key",
                d.span,
                "a key is lower-case letters, digits and '-', with a letter, e.g. \"club-rules-2024\"",
            )
        elif d.key in shipped:
            self.error(
                f"'{d.key}' is already a key of the shipped bibliography",
                d.span,
                "cite it as it is, or give your source another key",
            )
        elif d.key in self.references:
            self.error(
                f"reference '{d.key}' is declared twice",
                d.span,
                f"the first is at line {self.references[d.key].span.line}",
            )
        else:
            self.references[d.key] = d

    def _check_citations(self, header: ast.Header, decls: list[ast.Declaration]) -> None:
        """Report every citation part whose key is unknown; note each part that starts with no key at all.

        A part without a key (`source "house rule"`) is the author's own note and
        checks: it is kept in `self.unkeyed` (a warning only under `check --strict`,
        which the shipped files pass), unless its first word is a key written
        without its comma (`magie-1906 Rule 4`), which is warned of always.
        """
        cited: list[ast.Provenance | None] = [header.provenance]
        for d in decls:
            cited.append(getattr(d, "provenance", None))
            if isinstance(d, ast.BoardDecl):
                cited.extend(s.provenance for s in d.spaces)
            elif isinstance(d, ast.DeckDecl):
                cited.extend(c.provenance for c in d.cards)
            elif isinstance(d, ast.RuleDecl):
                cited.extend(h.provenance for h in d.handlers)
        known = list(shipped_sources()) + list(self.references)
        for prov in cited:
            if prov is None:
                continue
            for part in parse_citation(prov.source):
                if part.key in known:
                    continue
                word = part.key or part.text.split(",")[0].split(":")[0].strip()
                at = self._span_in_text(prov.span, prov.source, part.start, max(1, len(word)))
                if part.key is None:
                    first = KEY.match(part.text)
                    a_key = first is not None and first.group(0) in known
                    hint = (
                        f'write "{first.group(0)}, {part.text[first.end() :].strip()}": a comma follows the key'
                        if a_key and first is not None
                        else 'cite a source as KEY, LOCATOR ("magie-1906, Rule 4"; "house-rule: ..." for a custom '
                        "of your own); the keys are listed by `landlord-dsl sources`, and `reference` adds yours"
                    )
                    source = self.sources.get(at.file)
                    note = Diagnostic(
                        f"the citation '{part.text}' does not start with a source key",
                        at,
                        source.line(at.line) if source is not None else None,
                        hint,
                        "warning",
                    )
                    (self.warnings if a_key else self.unkeyed).append(note)
                else:
                    containing = [k for k in known if part.key in k.split("-")]
                    hint = did_you_mean(part.key, known) or (
                        f"did you mean '{containing[0]}'?"
                        if containing
                        else "the keys are listed by `landlord-dsl sources`; add "
                        'your own with `reference "KEY" "what it is"`'
                    )
                    self.error(
                        f"unknown source key '{part.key}'", at, hint, code="unknown-source-key", subject=part.key
                    )

    # --------------------------------------------------------------- board
    def _check_board(self) -> None:
        m = self.m
        for i, s in enumerate(m.spaces):
            kind = m.kinds.get(s.kind)
            if kind is None:
                self.error(
                    f"unknown kind '{s.kind}' for space '{s.name}'",
                    s.kind_span,
                    did_you_mean(s.kind, m.kinds) or "declare it with `kind NAME { ... }`",
                    code="unknown-kind",
                    subject=s.kind,
                )
            else:
                m.groups[s.kind].append(i)
                given = {name for name, _ in s.fields}
                for f in kind.fields:
                    if f.name not in given:
                        self.error(
                            f"space '{s.name}' is missing field '{f.name}' of kind '{kind.name}'",
                            s.span,
                            f"add `{f.name} = ...` to its {{ }} block",
                        )
                for (name, value), span in zip(s.fields, s.field_spans or [s.span] * len(s.fields)):
                    decl = next((f for f in kind.fields if f.name == name), None)
                    if decl is None:
                        self.error(
                            f"kind '{kind.name}' has no field '{name}'",
                            span,
                            did_you_mean(name, [f.name for f in kind.fields])
                            or f"its fields are: {', '.join(f.name for f in kind.fields) or 'none'}",
                        )
                        continue
                    t = self.expr(value, Scope([0]), constant=True)
                    want = declared_type(decl.type)
                    t = self.conform(want, value, t)
                    if not compatible(want, t):
                        self.error(
                            f"field '{name}' of '{s.name}' should be {describe(want)}, not {describe(t)}",
                            value.span,
                            None,
                        )
                    elif (
                        t == GROUP
                        and isinstance(value, ast.Name)
                        and value.name in m.groups
                        and i not in m.groups[value.name]
                    ):
                        # a group-valued field (a lot's section, say) makes the space a member
                        m.groups[value.name].append(i)
            for g in s.groups:
                if g not in m.groups or g in m.kinds:
                    self.error(
                        f"unknown group '{g}' for space '{s.name}'",
                        s.group_span,
                        did_you_mean(g, [n for n in m.groups if n not in m.kinds]) or "declare it with `group NAME`",
                        code="unknown-group",
                        subject=g,
                    )
                elif i not in m.groups[g]:  # `in` may repeat what a group-valued field says
                    m.groups[g].append(i)

    def _check_title_decks(self) -> None:
        m = self.m
        for d in m.decks.values():
            if d.of_titles and d.size is not None:
                members = m.groups.get(d.titles_in, []) if d.titles_in else range(len(m.spaces))
                count = sum(1 for i in members if m.spaces[i].kind in m.kinds and m.kinds[m.spaces[i].kind].titled)
                if count != d.size:
                    self.error(
                        f"deck '{d.name}' declares size {d.size} but the board has {count} title deeds for it",
                        d.span,
                        "correct the size or the board",
                    )

    def _check_groups(self, decls: list[ast.Declaration]) -> None:
        reported: set[str] = set()
        for d in decls:
            if isinstance(d, ast.GroupDecl) and not self.m.groups.get(d.name) and d.name not in reported:
                reported.add(d.name)
                self.error(
                    f"group '{d.name}' has no spaces",
                    d.span,
                    f"add `in {d.name}` to its spaces, or give them a group field set to {d.name}",
                )


_DECLARATIONS = dispatch_table(DeclarationPass, ast.Declaration)
