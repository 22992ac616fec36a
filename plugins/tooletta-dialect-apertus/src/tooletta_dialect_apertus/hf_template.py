"""Why apertus has no ``response_template`` (:func:`tooletta.interop.hf.to_response_template`
raises, saying so)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export

__all__ = ["APERTUS"]

APERTUS = Export(
    gap=(
        'each call is an object whose only key is the tool\'s name ({"get_weather": {...}}); '
        "a transform reads fixed keys only"
    )
)
