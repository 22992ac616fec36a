"""A variant dialect's :class:`~tooletta.DialectInfo`, derived from its base's.

A variant is another model generation's spelling of a format (``mistral_v13`` of
``mistral``, ``glm46`` of ``glm45``): it parses like its base, renders its own form and is
picked by its model rows or by name, never by detection. :func:`variant_info` writes that
rule once, so a variant declares only what is its own.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..ir import DialectInfo
from ..rows import Model, patterns_of

__all__ = ["variant_info"]


def variant_info(
    base: DialectInfo,
    name: str,
    rows: Iterable[Model] = (),
    *,
    description: str,
    source: str,
    aliases: tuple[str, ...] = (),
    priority: int | None = None,
) -> DialectInfo:
    """The info of the variant ``name`` of the dialect ``base`` describes.

    ``variant_of`` is ``base.name``; it has no ``markers`` (detection never picks a
    variant); its ``models`` are the patterns of the ``rows`` that name it
    (:func:`~tooletta.rows.patterns_of`; without ``rows``, those of the rows its plugin
    registers, filled in then by :func:`~tooletta.registry.derive_models`); ``priority`` and
    ``supports`` are the base's unless ``priority`` is given. ``description``, ``source``
    and ``aliases`` are its own.
    """
    return DialectInfo(
        name=name,
        aliases=aliases,
        priority=base.priority if priority is None else priority,
        models=patterns_of(rows, name),
        description=description,
        supports=base.supports,
        source=source,
        variant_of=base.name,
    )
