"""A variant's DialectInfo is derived from its base's by one rule (toolkit.variant_info), and
every registered variant follows it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tooletta import DialectInfo
from tooletta.plugin import Model, variant_info
from tooletta.plugins import get_registry

BASE = DialectInfo(
    name="acme",
    aliases=("acme_v1",),
    priority=42,
    markers=("<call>",),
    models=("acme/*",),
    supports=("parse", "render"),
    description="the base",
    source="the base's source",
)
ROWS = (
    Model(("acme/acme-2-*",), dialect="acme2"),
    Model(("acme/acme-1-*",), dialect="acme"),
    Model(("acme/acme-2b-*", "acme-2b-*"), dialect="acme2"),
)


def test_a_variant_takes_only_what_the_rule_says_of_its_base() -> None:
    info = variant_info(BASE, "acme2", ROWS, description="two", source="src")
    assert info == DialectInfo(
        name="acme2",
        priority=42,
        models=("acme/acme-2-*", "acme/acme-2b-*", "acme-2b-*"),
        supports=("parse", "render"),
        description="two",
        source="src",
        variant_of="acme",
    )
    assert info.markers == () and info.aliases == ()


@given(
    name=st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True),
    aliases=st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True), max_size=3),
    priority=st.none() | st.integers(-100, 100),
)
def test_the_rule_holds_for_any_variant(
    name: str, aliases: list[str], priority: int | None
) -> None:
    info = variant_info(
        BASE, name, ROWS, aliases=tuple(aliases), priority=priority, description="d", source="s"
    )
    assert info.variant_of == BASE.name and info.markers == ()
    assert info.priority == (BASE.priority if priority is None else priority)
    assert info.aliases == tuple(aliases) and info.supports == BASE.supports
    assert info.models == tuple(p for r in ROWS if r.dialect == name for p in r.patterns)


def test_every_registered_variant_follows_the_rule() -> None:
    registry = get_registry()
    variants = [e.info for e in registry.entries if e.info.variant_of]
    assert len(variants) >= 14
    for info in variants:
        base = registry.get(info.variant_of).info
        assert info.markers == (), info.name
        assert info.supports == base.supports, info.name
