"""Every installed first-party plugin's model rows name what exists (the kit's row checks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooletta import plugins
from tooletta.precedence import is_first_party
from tooletta.testing.models import check_model_rows

PLUGINS = Path(__file__).resolve().parent.parent / "plugins"


def _rows_by_plugin() -> dict[str, tuple[Path, list]]:  # type: ignore[type-arg]
    dists = {p.name: p.distribution for p in plugins.get_plugins()}
    out: dict[str, tuple[Path, list]] = {}  # type: ignore[type-arg]
    for entry in plugins.get_registry().models:
        dist = dists.get(entry.plugin)
        if dist is None or not is_first_party(dist) or dist == "tooletta-core":
            continue
        out.setdefault(entry.plugin, (PLUGINS / dist, []))[1].append(entry.row)
    return out


ROWS = _rows_by_plugin()


def test_first_party_plugins_declare_rows() -> None:
    assert len(ROWS) >= 25


@pytest.mark.parametrize("plugin", sorted(ROWS))
def test_rows_name_installed_dialects_formats_and_verified_templates(plugin: str) -> None:
    root, rows = ROWS[plugin]
    problems = check_model_rows(rows, root)
    assert not problems, "\n".join(problems)


def test_a_wrong_row_is_reported(tmp_path: Path) -> None:
    from tooletta.catalog import Model

    rows = [
        Model("a/*", dialect="no_such_dialect"),
        Model("b/*", dialect="hermes", chat="no_such_format"),
        Model("c/*", dialect="hermes", chat="qwen3", template="tests/templates/missing.jinja"),
    ]
    problems = check_model_rows(rows, tmp_path)
    assert len(problems) == 3, problems
    assert "no_such_dialect" in problems[0] and "no_such_format" in problems[1]
    assert "missing.jinja" in problems[2]


def test_a_shadowed_row_is_reported(tmp_path: Path) -> None:
    from tooletta.catalog import Model

    (problem,) = check_model_rows([Model("qwen/qwen3-8b*", dialect="qwen3_coder")], tmp_path)
    assert "hermes" in problem  # the id 'qwen/qwen3-8bx' is hermes' (a longer pattern)


def test_every_first_party_template_row_declares_its_digests() -> None:
    """A row naming its vendored template declares that template's SHA-256 (so that the
    template is known by heart: tooletta.chat.identify names the row's format for it)."""
    missing = [
        f"{plugin}: {row.patterns[0]!r}"
        for plugin, (_, rows) in sorted(ROWS.items())
        for row in rows
        if row.template and not row.template_sha256
    ]
    assert not missing, missing


def test_a_digest_that_no_fixture_has_is_reported() -> None:
    """A declared digest is checked against the fixture files: one that drifted (the file
    re-vendored, the digest not) is reported, and so is the fixture's own missing digest."""
    from tooletta.catalog import Model
    from tooletta.rows import template_digest

    root, rows = ROWS["hermes"]
    row = next(r for r in rows if r.chat_name == "qwen3")
    assert not check_model_rows([row], root)
    fixture = (root / row.template).read_text(encoding="utf-8")
    drifted = template_digest(fixture + "\n")  # one character more: another digest
    wrong = Model(
        row.patterns,
        dialects=row.dialects,
        chat=row.chat,
        template=row.template,
        source=row.source,
        template_sha256=drifted,
    )
    problems = check_model_rows([wrong], root)
    assert len(problems) == 2, problems
    assert drifted in problems[0] and "digest of no template" in problems[0]
    assert "does not declare" in problems[1]


def test_a_digest_is_64_hex_digits() -> None:
    from tooletta import ToolettaError
    from tooletta.catalog import Model

    with pytest.raises(ToolettaError, match="SHA-256"):
        Model("a/*", dialect="hermes", template="t.jinja", template_sha256="ab12")
    with pytest.raises(ToolettaError, match="without a template"):
        Model("a/*", dialect="hermes", template_sha256="0" * 64)
    assert Model("a/*", dialect="hermes", template="t", template_sha256="0" * 64).template_sha256
