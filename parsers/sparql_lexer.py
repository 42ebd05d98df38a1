"""A fast lexer for ``grammar/sparql.lark``, plugged into Lark's LALR parser.

Lark's contextual lexer matches each token against a per-state scanner and tracks line and
column for every character; on short queries that costs more than the parse itself.  This
lexer is built from the grammar's own terminal definitions (no token is defined here):

* one master regular expression tries the terminals in a fixed order (longest forms first);
* words are looked up in a table of the grammar's keywords and keyword-like terminals;
* only when a lexeme can be several terminals (``<`` or an IRI, ``DISTINCT``, ``WITH``,
  ``*``, ``?`` ...) is the LALR parser state consulted to pick the one it accepts, exactly
  as the contextual lexer would;
* line and column are updated only when whitespace, comments or strings hold a newline.

Errors are Lark's own ``UnexpectedCharacters``, so error reporting is unchanged.
"""

from __future__ import annotations

import re
from typing import Iterator

from lark.exceptions import UnexpectedCharacters
from lark.lexer import Lexer, LexerState, PatternRE, PatternStr, Token
from lark.parsers.lalr_analysis import Shift

from verifier.resources import grammar_text

#: ``Token(type, value, start, line, column)`` without the keyword-deprecation shim of
#: ``Token.__new__`` (the lexer makes one per lexeme; this is measurably faster).
new_token = getattr(Token, "_future_new", Token)

__all__ = ["SparqlLexer"]

# Order in which regex terminals are tried (earlier wins at the same position).
_REGEX_ORDER = (
    "STRING_LONG1", "STRING_LONG2", "STRING1", "STRING2", "IRI",
    "BLANK_NODE_LABEL", "VAR", "LANGTAG", "DOUBLE", "DECIMAL", "INTEGER", "NIL", "ANON",
    "NAMED_SET",
)
# Terminals whose lexemes are words; they are matched as words and looked up.
_WORD_TERMINALS = ("UNSUPPORTED_FORM", "SELECT_MOD", "DISTINCT", "SILENT", "ASC_DESC", "TRUE",
                   "FALSE", "AGGREGATE", "BUILTIN", "IN", "NOT")
_NEWLINE_TYPES = frozenset({"STRING_LONG1", "STRING_LONG2", "WS", "COMMENT"})


class SparqlLexer(Lexer):
    """Lark custom lexer (``__future_interface__ = 2``) for the SPARQL grammar."""

    __future_interface__ = 2

    def __init__(self, lexer_conf) -> None:
        terms = {t.name: t for t in lexer_conf.terminals}
        self.ignore = frozenset(lexer_conf.ignore)
        self.terminals_by_name = terms
        words: dict[str, list[str]] = {}
        puncts: dict[str, list[str]] = {}
        for t in lexer_conf.terminals:
            p = t.pattern
            if isinstance(p, PatternStr):
                if re.fullmatch(r"[A-Za-z_]+", p.value):
                    key = p.value.upper() if "i" in p.flags else p.value
                    words.setdefault(key, []).append(t.name)
                else:
                    puncts.setdefault(p.value, []).append(t.name)
        # keyword-like regex terminals: enumerate their alternatives from the pattern
        for name in _WORD_TERMINALS:
            if name not in terms:
                continue
            body = re.search(r"\(\?i:([^)]*)\)", terms[name].pattern.value)
            for w in body.group(1).split("|") if body else ():
                words.setdefault(w.upper(), []).append(name)
        # punctuation-like regex terminals (REL_OP, PATH_OPT, STAR ...)
        for name, t in terms.items():
            if isinstance(t.pattern, PatternRE) and name not in _REGEX_ORDER and name not in _WORD_TERMINALS \
                    and name not in ("WS", "COMMENT", "REST"):
                for alt in re.findall(r'"([^"]+)"', _source_of(name)) or ():
                    puncts.setdefault(alt, []).append(name)
        self.words = {k: tuple(v) for k, v in words.items()}
        pref = {"PATH_MOD": 0, "PATH_BIN": 1, "BINOP": 2}
        self.puncts = {k: tuple(sorted(v, key=lambda n: pref.get(n, 3))) for k, v in puncts.items()}
        # a sign glued to a digit is a signed number where one is allowed (W3C INTEGER_POSITIVE)
        self.signed = {k: tuple(sorted(v, key=lambda n: pref.get(n, -1))) for k, v in self.puncts.items()
                       if k in ("+", "-")}
        alts = [r"(?P<WS>\s+)", r"(?P<COMMENT>#[^\n]*)"]
        for name in _REGEX_ORDER:
            if name in terms:
                alts.append(f"(?P<{name}>{terms[name].pattern.to_regexp()})")
        alts.append(r"(?P<WORD>[A-Za-z_][A-Za-z0-9_]*)")
        punct_re = "|".join(re.escape(p) for p in sorted(self.puncts, key=len, reverse=True))
        alts.append(f"(?P<PUNCT>{punct_re})")
        self.master = re.compile("|".join(alts))
        self.rest = "REST" in terms

    # ------------------------------------------------------------------
    def lex(self, lexer_state: LexerState, parser_state) -> Iterator[Token]:
        """Lark's custom-lexer entry point."""
        return self.tokens(lexer_state.text.text, parser_state)

    def tokens(self, text: str, parser_state) -> Iterator[Token]:
        """Tokens of ``text``; ``parser_state`` exposes ``position``, ``state_stack`` and
        ``parse_conf.states`` of the running LALR parser (read when a lexeme is ambiguous)."""
        end = len(text)
        pos = 0
        line, line_start = 1, 0
        match = self.master.match
        words, puncts = self.words, self.puncts
        states = parser_state.parse_conf.states
        while pos < end:
            m = match(text, pos)
            if m is None:
                accepts = {a for a in states[parser_state.position] if a.isupper()}
                raise UnexpectedCharacters(text, pos, line, pos - line_start + 1, allowed=accepts,
                                           state=parser_state, terminals_by_name=self.terminals_by_name)
            kind = m.lastgroup
            value = m.group(kind)
            start = pos
            pos = m.end()
            if kind == "WS" or kind == "COMMENT":
                if "\n" in value:
                    line += value.count("\n")
                    line_start = start + value.rindex("\n") + 1
                continue
            if kind == "WORD":
                cands = words.get(value.upper()) or words.get(value)
                if cands is None:
                    accepts = {a for a in states[parser_state.position] if a.isupper()}
                    raise UnexpectedCharacters(text, start, line, start - line_start + 1, allowed=accepts,
                                               state=parser_state, terminals_by_name=self.terminals_by_name)
                kind = cands[0] if len(cands) == 1 else _pick(cands, parser_state)
            elif kind == "PUNCT":
                cands = puncts[value]
                if value in self.signed and pos < end and text[pos].isdigit():
                    cands = self.signed[value]
                kind = cands[0] if len(cands) == 1 else _pick(cands, parser_state)
            elif kind == "IRI":
                acts = states[parser_state.position]
                if "IRI" in acts:
                    pass
                elif value[0] == "<":
                    if "IRIREF" in acts:
                        kind = "IRIREF"
                    else:
                        # not an IRI here: a comparison operator '<' or '<='
                        value = "<=" if text.startswith("<=", start) else "<"
                        pos = start + len(value)
                        cands = puncts[value]
                        kind = cands[0] if len(cands) == 1 else _pick(cands, parser_state)
                elif value[-1] == ":" and "PNAME_NS" in acts:
                    kind = "PNAME_NS"
            elif kind == "VAR" and value[0] == "?":
                acts = states[parser_state.position]
                if "VAR" not in acts and "PATH_MOD" in acts:
                    value, pos, kind = "?", start + 1, "PATH_MOD"
            tok = new_token(kind, value, start, line, start - line_start + 1)
            if kind in _NEWLINE_TYPES and "\n" in value:
                line += value.count("\n")
                line_start = start + value.rindex("\n") + 1
            yield tok
            if kind == "UNSUPPORTED_FORM" and self.rest:
                if pos < end:
                    yield Token("REST", text[pos:], pos, line, pos - line_start + 1)
                return


def _pick(cands: tuple[str, ...], parser_state) -> str:
    """The first candidate terminal the parser can shift next (after its reductions)."""
    states = parser_state.parse_conf.states
    acts = states[parser_state.position]
    ok = [c for c in cands if c in acts]
    if len(ok) <= 1:
        return ok[0] if ok else cands[0]
    for c in ok:
        if _can_shift(states, parser_state.state_stack, c):
            return c
    return ok[0]


def _can_shift(states, stack: list, terminal: str) -> bool:
    """Simulate the LALR reductions on a copy of the state stack until ``terminal`` would be
    shifted (True) or rejected (False).  Table lookups only; no callbacks run."""
    stack = list(stack)
    while True:
        act = states[stack[-1]].get(terminal)
        if act is None:
            return False
        action, arg = act
        if action is Shift:
            return True
        n = len(arg.expansion)
        if n:
            del stack[-n:]
        goto = states[stack[-1]].get(arg.origin.name)
        if goto is None:
            return False
        stack.append(goto[1])


def _source_of(name: str) -> str:
    """The grammar text of a terminal definition (to list the strings of an alternation)."""
    m = re.search(rf"^{name}(?:\.\d+)?:(.*)$", grammar_text("sparql.lark"), re.M)
    return m.group(1) if m else ""
