"""jinja2's code generator with its searches of the template tree made cheap: the same
Python source, generated sooner.

Before and while it writes the source, jinja2's code generator searches the template tree
many times: the whole template for an ``{% extends %}``, for the ``{% block %}`` and
imported names and for the filters and tests it uses (to look each one up once); each
macro's body for ``caller``/``varargs``/``kwargs``, each loop's body for ``loop``, each
scope for the names it assigns. Every search goes through ``Node.iter_child_nodes``, a
generator over ``Node.iter_fields`` per node, which for a chat template of 50 kB (Kimi-K3's,
Gemma 4's: 6,000 nodes) is most of what the generation costs. Here the tree is walked once,
a plain loop over each node's fields in the order jinja2 visits them, and jinja2's own code
generator does the rest with what the walk found:

* each node's ``iter_child_nodes()`` (without arguments, as jinja2's searches call it)
  answers from the list of its children the walk made (with arguments, jinja2's own);
* jinja2's ``visit_Template`` gets the root node's ``find`` and ``find_all`` answering
  from the walk (the extends, block and imported-name nodes, in the order jinja2's search
  gives them);
* ``pull_dependencies`` (which names the filters and tests to look up) is handed, instead
  of the template's statements, one stand-in filter or test node per name the walk found
  (a search that stops at a ``{% block %}``, as jinja2's does), so jinja2 writes the same
  lookups in the same order.

jinja2 forbids subclassing its node types, so these answers are set on the nodes of the
tree itself, which tooletta's environment has just parsed for this one compile, for the
length of the generation: they are taken back after, leaving the tree as jinja2 made it.
The tree does not change while the source is generated (jinja2's optimizer, which rewrites
it, is off in tooletta's environment; with it on, only the whole-template searches are
answered).

Generating the source of Kimi-K3's template: 17.7 ms with jinja2's generator, 10.9 ms with
this one (CPU time, best of 10).

The generated source is byte for byte what jinja2's own code generator writes (a test
compares the two on every vendored template and on templates with blocks and imports).
This is jinja2's extension point for code generation (``Environment.code_generator_class``),
set on tooletta's own environment only: no jinja2 class or function is changed for anyone
else. jinja2 is imported when :func:`lean_code_generator` is called.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

__all__ = ["lean_code_generator"]


@dataclass
class _Scan:
    """What one walk of a template's tree found (see ``scan`` in :func:`lean_code_generator`)."""

    found: list[Any] = field(default_factory=list)
    filters: set[str] = field(default_factory=set)
    tests: set[str] = field(default_factory=set)
    answered: list[Any] = field(default_factory=list)


@lru_cache(maxsize=1)
def lean_code_generator() -> type[Any]:
    """jinja2's ``CodeGenerator`` with the searches of the module docs answered by one walk
    of the tree (same generated source); jinja2's own under a jinja2 other than 3.1, the
    series it is tested with (it relies on how that series' generator searches the tree)."""
    from importlib.metadata import version

    from jinja2 import nodes
    from jinja2.compiler import CodeGenerator, Frame

    if not version("jinja2").startswith("3.1."):  # pragma: no cover - the locked jinja2
        return CodeGenerator

    node_class = nodes.Node
    wanted = frozenset({nodes.Extends, nodes.Block, nodes.ImportedName})

    filter_node, test_node, block_node = nodes.Filter, nodes.Test, nodes.Block

    def answering(node: Any, children: list[Any]) -> Any:
        """``node.iter_child_nodes`` answered from ``children`` (with arguments: jinja2's)."""

        def iter_child_nodes(exclude: Any = None, only: Any = None) -> Iterator[Any]:
            if exclude is None and only is None:
                return iter(children)
            return node_class.iter_child_nodes(node, exclude, only)

        return iter_child_nodes

    def scan(statements: Iterable[Any], answer: bool) -> _Scan:
        """One walk of ``statements`` and every node below them: the extends, block and
        imported-name nodes, in the order of jinja2's ``find_all`` (depth first, each node
        before its children, the children in field order), and the names of the filters
        and of the tests used outside a ``{% block %}`` (jinja2's dependency search stops
        at blocks); ``answer``: each node walked is given its children's list to answer
        ``iter_child_nodes`` from (and listed, to take it back)."""
        out = _Scan()
        blocked: set[int] = set()  # the nodes inside a block (rare in a chat template)
        todo = list(statements)[::-1]
        while todo:
            node = todo.pop()
            kind = type(node)
            if kind in wanted:
                out.found.append(node)
            inside = bool(blocked) and id(node) in blocked
            if not inside:
                if kind is filter_node:
                    out.filters.add(node.name)
                elif kind is test_node:
                    out.tests.add(node.name)
            children = []
            for name in node.fields:
                item = getattr(node, name, None)  # jinja2 skips a field never set too
                if isinstance(item, list):
                    children += [n for n in item if isinstance(n, node_class)]
                elif isinstance(item, node_class):
                    children.append(item)
            if inside or kind is block_node:
                blocked.update(id(c) for c in children)
            if answer:
                node.iter_child_nodes = answering(node, children)
                out.answered.append(node)
            todo += children[::-1]
        return out

    class LeanCodeGenerator(CodeGenerator):
        """jinja2's code generator, its searches of the tree answered by one walk."""

        _statements: Any = None
        _dependencies: tuple[set[str], set[str]] = (set(), set())

        def visit_Template(self, node: Any, frame: Frame | None = None) -> None:
            """jinja2's, its searches of ``node`` answered by one walk (see the module
            docs)."""
            # jinja2's optimizer (off in tooletta's environment) rewrites the tree as it
            # goes: with it on, only the searches of the whole template are answered
            walked = scan(node.body, answer=self.optimizer is None)
            self._statements, self._dependencies = node.body, (walked.filters, walked.tests)
            found = walked.found

            def find_all(node_type: Any) -> Iterator[Any]:
                kinds = node_type if isinstance(node_type, tuple) else (node_type,)
                if not all(kind in wanted for kind in kinds):  # pragma: no cover - jinja2 3.1
                    # searches the root for those only; any other search is jinja2's
                    return node_class.find_all(node, node_type)
                return iter([n for n in found if isinstance(n, node_type)])

            def find(node_type: Any) -> Any:
                return next(find_all(node_type), None)

            node.find_all, node.find = find_all, find
            try:
                super().visit_Template(node, frame)
            finally:  # the tree is left as jinja2 made it
                del node.find_all, node.find
                for answered in walked.answered:
                    del answered.iter_child_nodes

        def pull_dependencies(self, nodes_: Iterable[Any]) -> None:
            """jinja2's, given one stand-in node per filter and test name the statements
            use (found by the walk, which stops at blocks as jinja2's search does)."""
            if nodes_ is self._statements:
                filters, tests = self._dependencies
            else:  # a block's body
                walked = scan(nodes_, answer=False)
                filters, tests = walked.filters, walked.tests
            stand_ins: list[Any] = [
                nodes.Filter(None, n, [], [], None, None) for n in sorted(filters)
            ]
            stand_ins += [nodes.Test(None, n, [], [], None, None) for n in sorted(tests)]
            super().pull_dependencies(stand_ins)

    return LeanCodeGenerator
