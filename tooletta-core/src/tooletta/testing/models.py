"""Checks of a plugin's model rows (:class:`tooletta.rows.Model`): what a row names exists.

Use it from a plugin's tests::

    from pathlib import Path
    from tooletta.testing.models import ModelRowTests
    from tooletta_dialect_glm.models import MODELS

    class TestModelRows(ModelRowTests):
        rows = MODELS
        root = Path(__file__).parent.parent  # the plugin's folder

A row fails when one of its dialects is not installed, when its conversation format is not
one of its default dialect's ``chat_formats``, or when its ``template`` is not a file under
the plugin's folder, or not a template that a
:class:`~tooletta.testing.conversations.ConversationTests` class of the plugin's tests
verifies for that format (the kit imports the plugin's ``tests/test_*.py`` modules to find
them), or when one of its ``template_sha256``
digests is not the digest (:func:`tooletta.rows.template_digest`) of a fixture those tests
verify for the format, or ``template``'s own digest is not among them (a fixture edited, or a
digest copied wrong, fails here: the declared digests cannot drift from the files), or when
another row's longer pattern takes its models (the id each pattern spells, ``*`` read as
``x``, resolves elsewhere).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import ClassVar

from ..catalog import chat_formats_of, dialect_for_model, find_format, get_dialect
from ..errors import ToolettaError
from ..rows import Model, pattern_score, template_digest
from .conversations import ConversationTests

__all__ = ["ModelRowTests", "check_model_rows", "check_patterns_verified", "verified_templates"]


def _subclasses(cls: type) -> Iterator[type]:
    sub: type
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _import_tests(root: Path) -> None:
    """Import the plugin's test modules (once each), so that their conversation test
    classes exist."""
    for path in sorted((root / "tests").glob("test_*.py")):
        name = f"_tooletta_rows_{abs(hash(str(path.resolve()))):x}_{path.stem}"
        if name in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        sys.path.insert(0, str(path.parent))
        try:
            spec.loader.exec_module(module)
        finally:
            sys.path.remove(str(path.parent))


def verified_templates(root: Path) -> dict[str, set[str]]:
    """Per conversation format name, the templates (relative to ``root``) that the
    :class:`~tooletta.testing.conversations.ConversationTests` classes under ``root`` verify."""
    _import_tests(root)
    base = root.resolve()
    found: dict[str, set[str]] = {}
    for cls in _subclasses(ConversationTests):
        template = getattr(cls, "template", None)
        if template is None:
            continue
        path = Path(template).resolve()
        if not path.is_relative_to(base):
            continue
        fmt, _ = find_format(getattr(cls, "model", None), getattr(cls, "dialect", None))
        found.setdefault(fmt.name, set()).add(path.relative_to(base).as_posix())
    return found


def _row_problems(row: Model, root: Path, verified: dict[str, set[str]]) -> Iterator[str]:
    where = f"row {row.patterns[0]!r}"
    for name in row.dialects:
        try:
            get_dialect(name)
        except ToolettaError:
            yield f"{where}: no installed dialect is named {name!r}"
    chat = row.chat_name
    if chat is not None:
        try:
            formats = [f.name for f in chat_formats_of(get_dialect(row.dialect))]
        except ToolettaError:
            formats = []
        if chat not in formats:
            yield f"{where}: {chat!r} is not a chat format of {row.dialect!r} ({formats})"
    if row.template:
        if not (root / row.template).is_file():
            yield f"{where}: the template {row.template!r} is not a file under {root}"
        elif chat is None:
            yield f"{where}: names a template but no chat format"
        elif row.template not in verified.get(chat, set()):
            known = sorted(verified.get(chat, set())) or "none"
            yield (
                f"{where}: the template {row.template!r} is not one the {chat!r} "
                f"ConversationTests verify ({known})"
            )
        else:
            yield from _digest_problems(row, root, verified[chat])


def _digest_problems(row: Model, root: Path, verified: set[str]) -> Iterator[str]:
    """The row's ``template_sha256`` digests that no verified fixture has, and its own
    template's digest when it is missing from them (only checked when it declares any)."""
    if not row.template_sha256:
        return
    from ..chat.jinja import load_chat_template

    where = f"row {row.patterns[0]!r}"
    files = {template_digest(load_chat_template(root / t)[0]): t for t in sorted(verified)}
    for digest in row.template_sha256:
        if digest not in files:
            yield (
                f"{where}: template_sha256 {digest!r} is the digest of no template the "
                f"{row.chat_name!r} ConversationTests verify ({', '.join(sorted(verified))})"
            )
    own = template_digest(load_chat_template(root / row.template)[0])
    if own not in row.template_sha256:
        yield (
            f"{where}: the template {row.template!r} has the digest {own!r}, which "
            "template_sha256 does not declare"
        )


def _shadowed(row: Model) -> Iterator[str]:
    """A pattern whose own id (``*`` and ``?`` read as ``x``) resolves to another dialect
    or format: a longer pattern of another row takes the row's models."""
    for pattern in row.patterns:
        if "[" in pattern:
            continue
        model = pattern.replace("*", "x").replace("?", "x")
        found = dialect_for_model(model)
        if found != row.dialect:
            yield f"row {pattern!r}: the id {model!r} resolves to {found!r}, not {row.dialect!r}"
        elif row.chat_name is not None:
            fmt, _ = find_format(model, None)
            if fmt.name != row.chat_name:
                wanted = row.chat_name
                yield f"row {pattern!r}: {model!r} has the format {fmt.name!r}, not {wanted!r}"


def check_model_rows(rows: Iterable[Model], root: Path) -> list[str]:
    """What is wrong with ``rows`` of the plugin in the folder ``root`` (empty: nothing)."""
    rows = list(rows)
    verified = verified_templates(root) if any(r.template for r in rows) else {}
    problems: list[str] = []
    for row in rows:
        if not isinstance(row, Model):
            problems.append(f"{row!r} is not a Model row")
            continue
        found = list(_row_problems(row, root, verified))
        problems.extend(found or _shadowed(row))
    return problems


def check_patterns_verified(
    name: str,
    table: Mapping[str, Sequence[type[ConversationTests]]],
    sources: Path | None = None,
) -> None:
    """Assert that format ``name`` declares exactly the ``models`` patterns ``table`` lists,
    and that each pattern claims (as the lookup matches) the model of every
    :class:`~tooletta.testing.conversations.ConversationTests` class listed for it, which
    resolves to ``name`` and tests a template file (named in ``sources``, a ``SOURCES.md``,
    when given): a pattern added without a byte-for-byte template test of an id it claims
    fails here."""
    fmt, _ = find_format(None, name)
    assert fmt.name == name
    assert set(fmt.models) == set(table)
    named = sources.read_text(encoding="utf-8") if sources is not None else None
    for pattern, tests in table.items():
        for test in tests:
            assert test.model is not None, (pattern, test)
            assert pattern_score(test.model, (pattern,)) >= 0, (pattern, test.model)
            assert find_format(test.model, None)[0].name == name, test.model
            assert test.template.is_file(), test.template
            if named is not None:
                assert test.template.name in named, test.template.name


class ModelRowTests:
    """Subclass with ``rows`` (the plugin's model rows) and ``root`` (its folder)."""

    rows: ClassVar[Sequence[Model]]
    root: ClassVar[Path]

    def test_model_rows_name_what_exists(self) -> None:
        """Every row's dialects, chat format and template exist, and the template is one
        the format's conversation tests verify."""
        problems = check_model_rows(self.rows, self.root)
        assert not problems, "\n".join(problems)

    def test_model_rows_are_registered(self) -> None:
        """The plugin registers its rows (the catalog answers from them)."""
        from ..plugins import get_registry

        registered = {e.row.plain for e in get_registry().models}
        missing = [r.patterns[0] for r in self.rows if r.plain not in registered]
        assert not missing, f"rows not registered: {missing}"
