"""A small regular-expression engine for response-template patterns, one that can wait.

A ``response_template`` writes its delimiters as regular expressions (``open_pattern``,
``close_pattern``, ``xml-inline``'s ``tag_pattern``). Streaming them needs one answer Python's
:mod:`re` cannot give: *could more text still change this match?* This module parses the
subset of the syntax templates use into a tree and matches it against text that may still
grow, answering a match (final: no continuation of the text changes it), a failure (final
too), or :data:`NEED` (the text ends too early to tell). Leftmost-first priority is kept: an
earlier alternative that cannot be decided yet blocks a later one that matches, so a match
that is reported is the one the whole text gives, for every way it is split.

Supported: literals and escapes, ``.`` (it matches newlines, as templates are compiled with
``DOTALL``), classes with ranges, negation and ``\\d \\w \\s`` (and their negations), groups
(capturing, ``(?P<name>...)``, ``(?:...)``), back-references ``(?P=name)``, alternation, the
quantifiers ``* + ? {m,n}`` and their lazy forms, lookaheads ``(?=...)`` / ``(?!...)``, the
anchors ``^ $ \\A \\Z \\b \\B`` and an inline ``(?s)``. Anything else (lookbehind, numbered
back-references, other flags, possessive quantifiers) raises :class:`PatternError`: such a
template is refused when it is imported, never misread.

The tree also answers the questions the importer and the renderer ask: which literal text a
pattern must start with (:func:`openers`, where the engine looks for it) and a string that a
pattern matches with given captures (:func:`invert`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = [
    "FAIL",
    "NEED",
    "Alt",
    "Anchor",
    "Any_",
    "Backref",
    "Class",
    "Group",
    "Lit",
    "Look",
    "Match",
    "Node",
    "Opener",
    "Pattern",
    "PatternError",
    "Rep",
    "Seq",
    "Starts",
    "compile_pattern",
    "group_names",
    "invert",
    "is_space",
    "literal",
    "openers",
    "parse",
]


class PatternError(ValueError):
    """A pattern this engine does not read (or that is not a valid pattern)."""


# -- the tree ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lit:
    """A literal string (adjacent literal characters are merged)."""

    text: str


@dataclass(frozen=True)
class Class:
    """A character class: single characters, ranges and categories (``d w s D W S``)."""

    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...] = ()
    categories: tuple[str, ...] = ()
    negate: bool = False

    def has(self, ch: str) -> bool:
        """Whether ``ch`` is in the class."""
        hit = ch in self.chars or any(a <= ch <= b for a, b in self.ranges)
        if not hit:
            hit = any(_category(c, ch) for c in self.categories)
        return hit != self.negate


@dataclass(frozen=True)
class Any_:
    """``.``: any character (patterns are read with ``DOTALL``)."""


@dataclass(frozen=True)
class Seq:
    """A sequence of nodes, matched one after the other."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    """Alternatives, tried in order."""

    options: tuple[Node, ...]


@dataclass(frozen=True)
class Rep:
    """``node`` repeated ``lo`` to ``hi`` times (``hi`` ``None``: no limit); lazy or greedy."""

    node: Node
    lo: int
    hi: int | None
    lazy: bool = False


@dataclass(frozen=True)
class Group:
    """A group; ``name`` is set for ``(?P<name>...)`` (numbered groups are not reported)."""

    node: Node
    name: str | None = None


@dataclass(frozen=True)
class Look:
    """A lookahead: ``(?=...)``, or ``(?!...)`` when ``negate``."""

    node: Node
    negate: bool = False


@dataclass(frozen=True)
class Anchor:
    """``start`` (``^``, ``\\A``), ``end`` (``\\Z``), ``dollar`` (``$``: the end, or before a
    final newline), ``word`` (``\\b``) or ``nonword`` (``\\B``)."""

    kind: str


@dataclass(frozen=True)
class Backref:
    """``(?P=name)``: the text the named group matched."""

    name: str


Node = Lit | Class | Any_ | Seq | Alt | Rep | Group | Look | Anchor | Backref

_EMPTY = Seq(())


def _category(cat: str, ch: str) -> bool:
    if cat == "d":
        return ch.isdecimal()
    if cat == "w":
        return ch.isalnum() or ch == "_"
    if cat == "s":
        return ch.isspace()
    if cat == "D":
        return not ch.isdecimal()
    if cat == "W":
        return not (ch.isalnum() or ch == "_")
    return not ch.isspace()  # "S"


# -- parsing ----------------------------------------------------------------------------------

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "0": "\0"}
_CATEGORIES = frozenset("dwsDWS")
_META = frozenset(".^$*+?{}[]\\|()")


class _Parser:
    def __init__(self, pattern: str):
        self.p = pattern
        self.i = 0

    def error(self, message: str) -> PatternError:
        return PatternError(f"{message} at position {self.i} in {self.p!r}")

    def peek(self) -> str:
        return self.p[self.i] if self.i < len(self.p) else ""

    def parse(self) -> Node:
        node = self.alternation()
        if self.i < len(self.p):
            raise self.error("unbalanced parenthesis")
        return node

    def alternation(self) -> Node:
        options = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            options.append(self.sequence())
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def sequence(self) -> Node:
        items: list[Node] = []
        while self.i < len(self.p) and self.peek() not in "|)":
            atom = self.atom()
            if atom is None:
                continue
            atom = self.quantified(atom)
            if isinstance(atom, Lit) and items and isinstance(items[-1], Lit):
                items[-1] = Lit(items[-1].text + atom.text)
            else:
                items.append(atom)
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def quantified(self, atom: Node) -> Node:
        ch = self.peek()
        if ch in ("*", "+", "?"):
            self.i += 1
            lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[ch]
        elif ch == "{":
            bounds = self.braces()
            if bounds is None:
                return atom
            lo, hi = bounds
        else:
            return atom
        if isinstance(atom, (Anchor, Look)):
            raise self.error("nothing to repeat")
        lazy = False
        if self.peek() == "?":
            self.i += 1
            lazy = True
        elif self.peek() == "+":
            raise self.error("possessive quantifiers are not supported")
        return Rep(atom, lo, hi, lazy)

    def braces(self) -> tuple[int, int | None] | None:
        """``{m}``, ``{m,}``, ``{,n}``, ``{m,n}``; ``None`` (a literal ``{``) otherwise."""
        j = self.p.find("}", self.i)
        if j < 0:
            return None
        body = self.p[self.i + 1 : j]
        lo_s, comma, hi_s = body.partition(",")
        if not (lo_s.isdigit() or (comma and lo_s == "")) or (hi_s and not hi_s.isdigit()):
            return None
        if not comma and not lo_s:
            return None
        lo = int(lo_s) if lo_s else 0
        hi = int(hi_s) if hi_s else (None if comma else lo)
        if hi is not None and hi < lo:
            raise self.error("min repeat greater than max repeat")
        self.i = j + 1
        return lo, hi

    def atom(self) -> Node | None:
        ch = self.p[self.i]
        if ch == "(":
            return self.group()
        if ch == "[":
            return self.klass()
        if ch == ".":
            self.i += 1
            return Any_()
        if ch == "^":
            self.i += 1
            return Anchor("start")
        if ch == "$":
            self.i += 1
            return Anchor("dollar")
        if ch == "\\":
            return self.escape(in_class=False)
        if ch in "*+?":
            raise self.error("nothing to repeat")
        if ch == "{" and self.braces_at():
            raise self.error("nothing to repeat")
        self.i += 1
        return Lit(ch)

    def braces_at(self) -> bool:
        save = self.i
        ok = self.braces() is not None
        self.i = save
        return ok

    def group(self) -> Node | None:
        self.i += 1  # "("
        name: str | None = None
        kind = "capture"
        if self.p.startswith("?", self.i):
            rest = self.p[self.i + 1 :]
            if rest.startswith(":"):
                kind, self.i = "plain", self.i + 2
            elif rest.startswith("P="):
                end = self.p.find(")", self.i)
                name = self.p[self.i + 3 : end] if end > 0 else ""
                if not name.isidentifier():
                    raise self.error("bad back-reference")
                self.i = end + 1
                return Backref(name)
            elif rest.startswith("P<"):
                end = self.p.find(">", self.i)
                if end < 0:
                    raise self.error("unterminated group name")
                name = self.p[self.i + 3 : end]
                if not name.isidentifier():
                    raise self.error(f"bad group name {name!r}")
                kind, self.i = "capture", end + 1
            elif rest.startswith("="):
                kind, self.i = "look", self.i + 2
            elif rest.startswith("!"):
                kind, self.i = "notlook", self.i + 2
            elif rest.startswith("s)"):
                self.i += 3  # (?s): templates are read with DOTALL already
                return None
            else:
                raise self.error("unsupported group syntax (only (?:, (?P<name>, (?=, (?!)")
        node = self.alternation()
        if self.peek() != ")":
            raise self.error("missing )")
        self.i += 1
        if kind == "plain":
            return node
        if kind == "look":
            return Look(node)
        if kind == "notlook":
            return Look(node, negate=True)
        return Group(node, name)

    def klass(self) -> Node:
        self.i += 1  # "["
        negate = False
        if self.peek() == "^":
            negate = True
            self.i += 1
        chars: set[str] = set()
        ranges: list[tuple[str, str]] = []
        cats: list[str] = []
        first = True
        while True:
            if self.i >= len(self.p):
                raise self.error("unterminated character set")
            ch = self.p[self.i]
            if ch == "]" and not first:
                self.i += 1
                break
            first = False
            if ch == "\\":
                item = self.escape(in_class=True)
                if isinstance(item, Class):
                    cats.extend(item.categories)
                    continue
                assert isinstance(item, Lit)
                lo = item.text
            else:
                self.i += 1
                lo = ch
            if self.peek() == "-" and self.i + 1 < len(self.p) and self.p[self.i + 1] != "]":
                self.i += 1
                if self.p[self.i] == "\\":
                    item = self.escape(in_class=True)
                    if not isinstance(item, Lit):
                        raise self.error("bad character range")
                    hi = item.text
                else:
                    hi = self.p[self.i]
                    self.i += 1
                if hi < lo:
                    raise self.error("bad character range")
                ranges.append((lo, hi))
            else:
                chars.add(lo)
        return Class(frozenset(chars), tuple(ranges), tuple(cats), negate)

    def escape(self, *, in_class: bool) -> Node:
        self.i += 1  # "\\"
        if self.i >= len(self.p):
            raise self.error("bad escape (end of pattern)")
        ch = self.p[self.i]
        self.i += 1
        if ch in _CATEGORIES:
            return Class(frozenset(), (), (ch,))
        if ch in _SIMPLE_ESCAPES:
            return Lit(_SIMPLE_ESCAPES[ch])
        if ch == "b":
            return Lit("\b") if in_class else Anchor("word")
        if not in_class and ch in "ABZ":
            return Anchor({"A": "start", "B": "nonword", "Z": "end"}[ch])
        if ch in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[ch]
            digits = self.p[self.i : self.i + width]
            if len(digits) != width or any(c not in "0123456789abcdefABCDEF" for c in digits):
                raise self.error(f"bad escape \\{ch}")
            self.i += width
            return Lit(chr(int(digits, 16)))
        if ch.isascii() and ch.isalnum():
            raise self.error(f"unsupported escape \\{ch}")
        return Lit(ch)


_CACHE: dict[str, Node] = {}


def parse(pattern: str) -> Node:
    """The tree of ``pattern``; raises :class:`PatternError` for what this engine does not read."""
    node = _CACHE.get(pattern)
    if node is None:
        node = _Parser(pattern).parse()
        if len(_CACHE) < 1024:
            _CACHE[pattern] = node
    return node


# -- matching ---------------------------------------------------------------------------------

FAIL = -1
NEED = -2
"""What :meth:`Pattern.match` returns when the text ends too early to decide."""

_Cont = Callable[[int], int]


@dataclass(frozen=True)
class Match:
    """A decided match: its span and the named groups that took part."""

    start: int
    end: int
    groups: dict[str, str]


class _Run:
    """One match attempt over ``text[origin:n]``; ``final``: nothing follows ``n``."""

    __slots__ = ("final", "groups", "n", "origin", "text")

    def __init__(self, text: str, origin: int, n: int, final: bool):
        self.text = text
        self.origin = origin
        self.n = n
        self.final = final
        self.groups: dict[str, tuple[int, int]] = {}

    def short(self) -> int:
        """The result where the text ends: undecided unless it is final."""
        return FAIL if self.final else NEED

    def m(self, node: Node, i: int, k: _Cont) -> int:
        t = type(node)
        if t is Lit:
            assert isinstance(node, Lit)
            lit = node.text
            end = i + len(lit)
            if end <= self.n:
                return k(end) if self.text.startswith(lit, i, end) else FAIL
            return self.short() if lit.startswith(self.text[i : self.n]) else FAIL
        if t is Class or t is Any_:
            if i >= self.n:
                return self.short()
            if t is Any_ or node.has(self.text[i]):  # type: ignore[union-attr]
                return k(i + 1)
            return FAIL
        if t is Seq:
            assert isinstance(node, Seq)
            return self.seq(node.items, 0, i, k)
        if t is Alt:
            assert isinstance(node, Alt)
            for option in node.options:
                r = self.m(option, i, k)
                if r != FAIL:
                    return r
            return FAIL
        if t is Rep:
            assert isinstance(node, Rep)
            return self.rep(node, i, k)
        if t is Group:
            assert isinstance(node, Group)
            return self.group(node, i, k)
        if t is Backref:
            assert isinstance(node, Backref)
            span = self.groups.get(node.name)
            if span is None:
                return FAIL
            return self.m(Lit(self.text[span[0] : span[1]]), i, k)
        if t is Look:
            assert isinstance(node, Look)
            r = self.m(node.node, i, lambda j: j)
            if r == NEED:
                return NEED
            if (r >= 0) != node.negate:
                return k(i)
            return FAIL
        assert isinstance(node, Anchor)
        return self.anchor(node.kind, i, k)

    def seq(self, items: tuple[Node, ...], at: int, i: int, k: _Cont) -> int:
        if at == len(items):
            return k(i)
        if at == len(items) - 1:
            return self.m(items[at], i, k)
        return self.m(items[at], i, lambda j: self.seq(items, at + 1, j, k))

    def group(self, node: Group, i: int, k: _Cont) -> int:
        name = node.name
        if name is None:
            return self.m(node.node, i, k)

        def done(j: int) -> int:
            old = self.groups.get(name)
            self.groups[name] = (i, j)
            r = k(j)
            if r < 0:
                if old is None:
                    del self.groups[name]
                else:
                    self.groups[name] = old
            return r

        return self.m(node.node, i, done)

    def rep(self, node: Rep, i: int, k: _Cont) -> int:
        inner = node.node
        single = type(inner) is Lit and len(inner.text) == 1
        if single or type(inner) is Class or type(inner) is Any_:
            return self.rep_char(node, i, k)
        return self.rep_any(node, i, k, 0)

    def rep_char(self, node: Rep, i: int, k: _Cont) -> int:
        """A repeated single character: the run is measured at once, then tried by priority."""
        inner = node.node
        text = self.text
        limit = self.n if node.hi is None else min(self.n, i + node.hi)
        j = i
        if type(inner) is Any_:
            j = max(i, limit)
        elif type(inner) is Lit:
            ch = inner.text
            while j < limit and text[j] == ch:
                j += 1
        else:
            has = inner.has  # type: ignore[union-attr]
            while j < limit and has(text[j]):
                j += 1
        count = j - i
        # the run stopped at the end of the text, where more could follow
        edge = j >= self.n and not self.final and (node.hi is None or count < node.hi)
        if count < node.lo:
            return NEED if edge else FAIL
        if node.lazy:
            for c in range(node.lo, count + 1):
                r = k(i + c)
                if r != FAIL:
                    return r
            return NEED if edge else FAIL
        if edge:
            return NEED  # the greedy choice (one more) is not decided yet
        for c in range(count, node.lo - 1, -1):
            r = k(i + c)
            if r != FAIL:
                return r
        return FAIL

    def rep_any(self, node: Rep, i: int, k: _Cont, count: int) -> int:
        def again(j: int) -> int:
            if j == i:
                return FAIL  # an empty iteration would repeat forever
            return self.rep_any(node, j, k, count + 1)

        if count < node.lo:
            return self.m(node.node, i, again)
        if node.hi is not None and count >= node.hi:
            return k(i)
        if node.lazy:
            r = k(i)
            if r != FAIL:
                return r
            return self.m(node.node, i, again)
        r = self.m(node.node, i, again)
        if r != FAIL:
            return r
        return k(i)

    def anchor(self, kind: str, i: int, k: _Cont) -> int:
        n = self.n
        if kind == "start":
            return k(i) if i == self.origin else FAIL
        if kind == "end":
            if i < n:
                return FAIL
            return k(i) if self.final else NEED
        if kind == "dollar":
            if i < n - 1 or (i == n - 1 and self.text[i] != "\n"):
                return FAIL
            return k(i) if self.final else NEED
        # \b, \B: a word character on one side only
        if i >= n and not self.final:
            return NEED
        before = i > self.origin and _category("w", self.text[i - 1])
        after = i < n and _category("w", self.text[i])
        if (before != after) == (kind == "word"):
            return k(i)
        return FAIL


class Pattern:
    """A parsed pattern, ready to match text that may still grow."""

    __slots__ = ("firsts", "names", "node", "nullable", "source")

    def __init__(self, node: Node, source: str = ""):
        self.node = node
        self.source = source
        self.nullable = _can_be_empty(node)
        found = None if self.nullable else _firsts(node)
        self.firsts: frozenset[str] | None = found
        """The characters every match starts with, when they are a small known set."""
        self.names: frozenset[str] = frozenset(group_names(node))

    def __repr__(self) -> str:
        return f"Pattern({self.source or self.node!r})"

    def match(
        self, text: str, pos: int, *, final: bool, origin: int = 0, end: int | None = None
    ) -> Match | int:
        """Match at ``pos``: a :class:`Match`, ``FAIL`` (-1) or :data:`NEED` (-2).

        The text is ``text[origin:end]`` (``^`` is ``origin``); ``final`` says nothing
        follows it. When it is not final, a match is reported only if no continuation of the
        text could change it (nor make a path of higher priority match).
        """
        run = _Run(text, origin, len(text) if end is None else end, final)
        try:
            stop = run.m(self.node, pos, lambda j: j)
        except RecursionError:  # pathological nesting on long text: no match
            return FAIL
        if stop < 0:
            return stop
        groups = {name: text[a:b] for name, (a, b) in run.groups.items()}
        return Match(pos, stop, groups)

    def search(
        self, text: str, pos: int, *, final: bool, origin: int = 0, end: int | None = None
    ) -> tuple[Match | None, int]:
        """The leftmost match at or after ``pos``, and where undecided text starts.

        Returns ``(match, hold)``: ``hold`` is the leftmost position where a match may still
        start once more text arrives (``end`` when nowhere). A match is returned only when it
        is decided and starts before ``hold`` (an earlier start would win).
        """
        n = len(text) if end is None else end
        firsts = self.firsts
        i = pos
        while i <= n:
            if firsts is not None:
                while i < n and text[i] not in firsts:
                    i += 1
                if i >= n:
                    break
            r = self.match(text, i, final=final, origin=origin, end=n)
            if isinstance(r, Match):
                return r, n
            if r == NEED:
                return None, i
            i += 1
        return None, n


_COMPILED: dict[str, Pattern] = {}


def compile_pattern(source: str) -> Pattern:
    """The :class:`Pattern` of ``source`` (parsed once); raises :class:`PatternError`."""
    hit = _COMPILED.get(source)
    if hit is None:
        hit = Pattern(parse(source), source)
        if len(_COMPILED) < 1024:
            _COMPILED[source] = hit
    return hit


def literal(text: str) -> Pattern:
    """The pattern matching exactly ``text``."""
    return Pattern(Lit(text), text)


def _firsts(node: Node) -> frozenset[str] | None:
    """The characters a non-empty match of ``node`` starts with (``None``: unknown/many)."""
    if isinstance(node, Lit):
        return frozenset(node.text[:1]) if node.text else None
    if isinstance(node, Class):
        if node.negate or node.ranges or node.categories:
            return None
        return node.chars
    if isinstance(node, Group):
        return _firsts(node.node)
    if isinstance(node, Alt):
        out: set[str] = set()
        for option in node.options:
            f = _firsts(option)
            if f is None:
                return None
            out |= f
        return frozenset(out)
    if isinstance(node, Seq):
        acc: set[str] = set()
        for item in node.items:
            if isinstance(item, (Anchor, Look)):
                return None
            f = _firsts(item)
            if f is None:
                return None
            acc |= f
            if not _can_be_empty(item):
                return frozenset(acc)
        return None
    if isinstance(node, Rep) and node.lo > 0:
        return _firsts(node.node)
    return None


def _can_be_empty(node: Node) -> bool:
    if isinstance(node, Lit):
        return not node.text
    if isinstance(node, (Class, Any_)):
        return False
    if isinstance(node, (Look, Anchor, Backref)):
        return True
    if isinstance(node, Group):
        return _can_be_empty(node.node)
    if isinstance(node, Alt):
        return any(_can_be_empty(o) for o in node.options)
    if isinstance(node, Seq):
        return all(_can_be_empty(i) for i in node.items)
    assert isinstance(node, Rep)
    return node.lo == 0 or _can_be_empty(node.node)


def group_names(node: Node) -> set[str]:
    """The names of the named groups in ``node``."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Group):
            if n.name:
                out.add(n.name)
            stack.append(n.node)
        elif isinstance(n, (Rep, Look)):
            stack.append(n.node)
        elif isinstance(n, Seq):
            stack.extend(n.items)
        elif isinstance(n, Alt):
            stack.extend(n.options)
    return out


# -- where a pattern starts -------------------------------------------------------------------


@dataclass(frozen=True)
class Opener:
    """One way a pattern can start: the literal ``marker`` the scanner searches for, and the
    ``pattern`` to match from the marker's position (it matches the marker itself first,
    unless the marker sits inside a lookahead and is not consumed). ``at_start``: only at
    the start of the text (``^``, ``\\A``)."""

    marker: str
    pattern: Pattern
    at_start: bool = False


@dataclass(frozen=True)
class Starts:
    """How a pattern can start (see :func:`openers`)."""

    openers: tuple[Opener, ...]
    at_end: bool
    """Some way matches at the end of the text with no marker (``$``, ``\\Z``)."""
    anywhere: bool
    """Some way matches the empty string anywhere (the pattern is empty or only spaces)."""


_MAX_WAYS = 32


def openers(node: Node, *, trim_end: bool = False) -> Starts:
    """The literal markers a match of ``node`` can start with (see :class:`Starts`).

    Whitespace a pattern allows before its marker is not part of it (the scanner drops
    whitespace before markup anyway); with ``trim_end``, neither is whitespace it allows at
    its end (a close's ``\\s*``: the scanner's whitespace rules decide about it). Raises
    :class:`PatternError` when some way of matching starts with no literal text (a name, a
    class): the scanner could not find it.
    """
    found: list[Opener] = []
    at_end = anywhere = False
    for way in _ways(node):
        items = list(way)
        while trim_end and len(items) > 1 and is_space(items[-1]):
            items.pop()
        at_start = False
        while items and is_space(items[0]):
            items.pop(0)
        if items and isinstance(items[0], Anchor) and items[0].kind == "start":
            at_start = True
            items.pop(0)
            while items and is_space(items[0]):
                items.pop(0)
        if all(is_space(i) for i in items):
            anywhere = True
            continue
        if _is_end(items[0]) and all(is_space(i) for i in items[1:]):
            at_end = True
            continue
        marker = _lead_literal(items)
        if not marker:
            raise PatternError("a way of matching starts with no literal text")
        pattern = items[0] if len(items) == 1 else Seq(tuple(items))
        found.append(Opener(marker, Pattern(pattern), at_start))
    return Starts(tuple(found), at_end, anywhere)


def is_space(node: Node) -> bool:
    """Whitespace that may be absent (``\\s*``, ``\\n?``)."""
    if not isinstance(node, Rep) or node.lo != 0:
        return False
    inner = node.node
    if isinstance(inner, Lit):
        return inner.text.isspace()
    if isinstance(inner, Class) and not inner.negate:
        return (
            all(c.isspace() for c in inner.chars)
            and not inner.ranges
            and all(c == "s" for c in inner.categories)
        )
    return False


def _is_end(node: Node) -> bool:
    return isinstance(node, Anchor) and node.kind in ("end", "dollar")


def _lead_literal(items: list[Node]) -> str:
    """The literal text every match of the sequence starts with (a lookahead's too)."""
    out: list[str] = []
    for item in items:
        if isinstance(item, Lit):
            out.append(item.text)
            continue
        if isinstance(item, Group) and not isinstance(item.node, Alt):
            inner = item.node.items if isinstance(item.node, Seq) else (item.node,)
            lead = _lead_literal(list(inner))
            out.append(lead)
            if lead != _literal_of(item.node):
                break
            continue
        if isinstance(item, Look) and not item.negate and not out:
            inner = item.node.items if isinstance(item.node, Seq) else (item.node,)
            rest = list(inner)
            while rest and is_space(rest[0]):
                rest.pop(0)
            return _lead_literal(rest)
        break
    return "".join(out)


def _literal_of(node: Node) -> str | None:
    """The text ``node`` always matches exactly, when it is fixed."""
    if isinstance(node, Lit):
        return node.text
    if isinstance(node, Seq):
        parts = [_literal_of(i) for i in node.items]
        if any(p is None for p in parts):
            return None
        return "".join(p for p in parts if p is not None)
    if isinstance(node, Group):
        return _literal_of(node.node)
    return None


def _ways(node: Node) -> Iterator[tuple[Node, ...]]:
    """The pattern as a list of sequences, with top-level alternatives and leading optional
    groups spelled out (at most a few dozen ways)."""
    out: list[tuple[Node, ...]] = []

    def expand(items: tuple[Node, ...]) -> None:
        if len(out) > _MAX_WAYS:
            raise PatternError("too many alternative starts")
        if not items:
            out.append(())
            return
        head, rest = items[0], items[1:]
        if is_space(head):
            for way in _split(rest):
                out.append((head, *way))
            return
        if isinstance(head, Alt):
            for option in head.options:
                expand((*_flat(option), *rest))
            return
        if isinstance(head, Group) and head.name is None:
            expand((*_flat(head.node), *rest))
            return
        if isinstance(head, Rep) and head.lo == 0 and head.hi == 1:
            expand((*_flat(head.node), *rest))
            expand(rest)
            return
        if isinstance(head, Seq):
            expand((*head.items, *rest))
            return
        if isinstance(head, Look) and not head.negate and isinstance(head.node, Alt):
            for option in head.node.options:  # (?=a|b) is (?=a)|(?=b)
                expand((Look(option), *rest))
            return
        out.append(items)

    def _split(items: tuple[Node, ...]) -> list[tuple[Node, ...]]:
        mark = len(out)
        expand(items)
        ways = out[mark:]
        del out[mark:]
        return ways

    expand(_flat(node))
    yield from out


def _flat(node: Node) -> tuple[Node, ...]:
    return node.items if isinstance(node, Seq) else (node,)


# -- writing text a pattern matches -----------------------------------------------------------

_SAMPLES = " \nax0_-.:,;=<>\"'{}[]()/|"


def invert(node: Node, values: dict[str, str], *, fill: bool = False) -> str | None:
    """A short string that ``node`` matches with each named group taking its value in
    ``values``; ``None`` when this cannot be worked out (the caller checks the result by
    matching it, so a wrong guess is refused, never written). Optional parts are left out,
    or, with ``fill``, written once (``\\n?`` as a newline)."""
    out = _inv(node, values, fill)
    if out is None:
        return None
    r = Pattern(node).match(out, 0, final=True)
    if not isinstance(r, Match) or r.end != len(out):
        return None
    if any(r.groups.get(k) != v for k, v in values.items() if k in group_names(node)):
        return None
    return out


def _inv(node: Node, values: dict[str, str], fill: bool) -> str | None:
    if isinstance(node, Lit):
        return node.text
    if isinstance(node, Seq):
        parts = []
        for item in node.items:
            part = _inv(item, values, fill)
            if part is None:
                return None
            parts.append(part)
        return "".join(parts)
    if isinstance(node, Group):
        if node.name is not None and node.name in values:
            return values[node.name]
        return _inv(node.node, values, fill)
    if isinstance(node, Alt):
        wanted = [o for o in node.options if group_names(o) & set(values)] or list(node.options)
        for option in wanted:
            got = _inv(option, values, fill)
            if got is not None:
                return got
        return None
    if isinstance(node, Rep):
        if node.lo == 0 and not fill and not (group_names(node.node) & set(values)):
            return ""
        one = _inv(node.node, values, fill)
        return None if one is None else one * max(node.lo, 1)
    if isinstance(node, (Look, Anchor)):
        return ""
    if isinstance(node, Backref):
        return values.get(node.name)
    if isinstance(node, Any_):
        return " "
    assert isinstance(node, Class)
    for ch in _SAMPLES:
        if node.has(ch):
            return ch
    return None
