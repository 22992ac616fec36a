"""The conformance test class a plugin's tests subclass."""

from __future__ import annotations

from .accounting import AccountingTests
from .golden import GoldenTests
from .properties import PropertyTests
from .render_laws import RenderLaws
from .stream_misuse import StreamMisuseTests

__all__ = ["DialectTests"]


class DialectTests(GoldenTests, PropertyTests, StreamMisuseTests, AccountingTests, RenderLaws):
    """Subclass in a plugin's tests with ``dialect`` and ``fixtures`` set: pytest runs the
    golden cases and the four laws (hypothesis drives the properties), the render laws
    (:class:`~tooletta.testing.render_laws.RenderLaws`), plus what the subclass declares in
    ``names``, ``models`` and ``markup`` (each skipped while empty).

    The settings a subclass may change are those of
    :class:`~tooletta.testing.settings.DialectSettings`; the tests come from
    :class:`~tooletta.testing.golden.GoldenTests` (names, models, fixtures) and
    :class:`~tooletta.testing.properties.PropertyTests` (the laws as properties),
    :class:`~tooletta.testing.stream_misuse.StreamMisuseTests`,
    :class:`~tooletta.testing.accounting.AccountingTests` and
    :class:`~tooletta.testing.render_laws.RenderLaws`.
    """
