"""The architecture page (docs/plugins/architecture.md) draws the floors the import-graph test
keeps: the same modules on the same floors, in the same order."""

from __future__ import annotations

import re

from test_import_graph import FLOORS

from support import ROOT

PAGE = ROOT / "docs" / "plugins" / "architecture.md"
ROW = re.compile(r"^\| (\d+) \| ([^|]+) \|", re.M)


def _table() -> list[tuple[int, tuple[str, ...]]]:
    """The page's table: floor number and its modules, in the page's order."""
    text = PAGE.read_text(encoding="utf-8")
    return [
        (int(m.group(1)), tuple(re.findall(r"`([a-z_]+)`", m.group(2)))) for m in ROW.finditer(text)
    ]


def test_the_page_lists_the_floors_of_the_import_graph_test() -> None:
    assert _table() == list(enumerate(FLOORS))


def test_the_drawing_names_every_module_on_its_floor() -> None:
    text = PAGE.read_text(encoding="utf-8")
    drawing = text.split("```text\n", 1)[1].split("```", 1)[0]
    found = {
        int(m.group(1)): tuple(re.findall(r"[a-z_]+", m.group(2)))
        for m in re.finditer(r"^ (\d)  (.*?)(?: {3,}|$)", drawing, re.M)
    }
    assert found == dict(enumerate(FLOORS))
