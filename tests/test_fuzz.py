"""Fuzzing every installed dialect with hypothesis (issue 7): mutated real outputs through
``parse`` (lenient and strict), ``stream`` under random chunkings, ``detect`` and the
nothing-lost accounting; ``render`` of arbitrary calls whose names, keys, values and content
hold markup of any dialect.

The CI profile is bounded and deterministic (``derandomize=True``); ``TOOLETTA_FUZZ=long``
runs many more random examples (see ``fuzz/README.md``). Inputs, mutations and checks live
in ``fuzz/fuzzlib.py``, shared with the atheris targets.
"""

from __future__ import annotations

import os
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import load_fuzzlib
from tooletta import ToolCall

fuzzlib = load_fuzzlib()

PROFILE = os.environ.get("TOOLETTA_FUZZ", "ci").strip().lower() or "ci"
_ONLY = {n.strip() for n in os.environ.get("TOOLETTA_FUZZ_DIALECTS", "").split(",") if n.strip()}
DIALECTS = [d for d in fuzzlib.dialect_names() if not _ONLY or d in _ONLY]

if PROFILE == "long":
    _EXAMPLES = int(os.environ.get("TOOLETTA_FUZZ_EXAMPLES", "1500"))
    FUZZ = settings(
        max_examples=_EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=False,
    )
    RENDER = settings(FUZZ, max_examples=max(1, _EXAMPLES // 2))
else:
    FUZZ = settings(
        max_examples=int(os.environ.get("TOOLETTA_FUZZ_EXAMPLES", "30")),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
        print_blob=True,
    )
    RENDER = settings(FUZZ, max_examples=max(1, FUZZ.max_examples * 2 // 3))


EDITS = st.lists(
    st.tuples(st.integers(0, fuzzlib.OPS - 1), st.integers(0, 2**20), st.integers(0, 2**16)),
    max_size=6,
)
CUTS = st.one_of(st.none(), st.lists(st.integers(0, 2**20), max_size=30))


def _cuts(cuts: list[int] | None, text: str) -> list[int] | None:
    return None if cuts is None else [c % (len(text) + 1) for c in cuts]


BUGS = fuzzlib.known_bugs()
"""Inputs that trip a known, reported bug are left out until it is fixed (its minimal repro
is in test_regressions.py); the moment the probe says fixed, they are generated again."""
PLUGIN_BUGS: dict[str, str] = {}
"""Dialects whose render fuzzing trips a known plugin bug (reason, see test_regressions.py)."""


def _render_params() -> list[Any]:
    return [
        pytest.param(d, marks=pytest.mark.xfail(reason=PLUGIN_BUGS[d])) if d in PLUGIN_BUGS else d
        for d in DIALECTS
    ]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_fuzz_mutated_outputs(dialect: str) -> None:
    """Mutated real outputs (own and other dialects') keep every law, under any chunking."""
    own = list(fuzzlib.seeds(dialect))
    foreign = [fuzzlib.seeds(d)[0] for d in fuzzlib.dialect_names() if d != dialect]
    seed = st.one_of(st.sampled_from(own), st.sampled_from(own), st.sampled_from(foreign))

    @FUZZ
    @given(seed, EDITS, CUTS)
    def run(seed: tuple[str, Any], edits: list[tuple[int, int, int]], cuts: Any) -> None:
        text = fuzzlib.mutate(dialect, seed[0], edits)
        fuzzlib.check_text(dialect, text, _cuts(cuts, text), seed[1])

    run()


_SAFE_ID = r"[A-Za-z0-9]{9}"


def _markup_text(dialect: str) -> Any:
    tokens = [*fuzzlib.markup(dialect), *fuzzlib.all_markup(), *fuzzlib.HOSTILE[:26]]
    if BUGS["surrogate-render"]:
        tokens = [t for t in tokens if not fuzzlib.has_surrogate(t)]
    return st.lists(st.one_of(st.sampled_from(tokens), st.text(max_size=4)), max_size=5).map(
        "".join
    )


def _calls(dialect: str) -> Any:
    markup = _markup_text(dialect)
    ident = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,15}", fullmatch=True)
    scalar = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**53), 2**53),
        st.integers(),
        st.floats().filter(lambda f: not (f == 0 and str(f).startswith("-"))),  # NaN: refused
        markup,
        st.text(max_size=10),
    )
    value = st.recursive(
        scalar,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.one_of(ident, markup), inner, max_size=3),
        ),
        max_leaves=8,
    )
    call_id = st.one_of(st.none(), st.from_regex(_SAFE_ID, fullmatch=True), markup)
    call = st.builds(
        ToolCall,
        st.one_of(ident, ident, markup),
        st.dictionaries(st.one_of(ident, ident, markup), value, max_size=4),
        call_id,
    )
    return st.lists(call, min_size=1, max_size=3, unique_by=lambda c: c.name)


@pytest.mark.parametrize("dialect", _render_params())
def test_fuzz_render_arbitrary_calls(dialect: str) -> None:
    """Arbitrary calls and content: ``render`` raises ``RenderError`` or reads back exactly,
    and always refuses what no parse reads back (NaN, infinities, ``fuzzlib.must_refuse``)."""
    content = st.one_of(st.just(""), _markup_text(dialect), st.text(string.printable, max_size=20))

    @RENDER
    @given(_calls(dialect), content, CUTS)
    def run(calls: list[ToolCall], content: str, cuts: Any) -> None:
        fuzzlib.check_render_strict(dialect, calls, content, cuts)

    run()
