"""Templates known by heart: the formats a model row declares verified against a template's
exact text (``template_sha256`` of :class:`tooletta.rows.Model`)."""

from __future__ import annotations

from ...rows import template_digest

__all__ = ["verified_formats"]


def verified_formats(*texts: str) -> dict[str, str]:
    """The formats some model row declares verified against every one of ``texts`` (the
    exact template texts, see :func:`tooletta.rows.template_digest`): format name -> the
    row(s) saying so (plugin, pattern, fixture, source), first-party rows first."""
    from ...plugins import get_registry

    wanted = {template_digest(t) for t in texts}
    digests: dict[str, set[str]] = {}
    rows: dict[str, list[str]] = {}
    for entry in get_registry().models:
        row = entry.row
        name = row.chat_name
        if name is None or not row.template_sha256:
            continue
        digests.setdefault(name, set()).update(row.template_sha256)
        if wanted & set(row.template_sha256):
            rows.setdefault(name, []).append(
                f"plugin {entry.plugin!r} row {row.patterns[0]!r} ({row.template}"
                + (f"; {row.source}" if row.source else "")
                + ")"
            )
    return {n: "; ".join(rows[n]) for n, d in digests.items() if wanted <= d and n in rows}
