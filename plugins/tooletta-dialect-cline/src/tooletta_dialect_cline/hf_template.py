"""Why cline has no ``response_template`` (:func:`tooletta.interop.hf.to_response_template`
raises, saying so)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export

__all__ = ["CLINE"]

CLINE = Export(
    gap=(
        "calls are XML elements named after the tools themselves (<read_file>): the opener "
        "depends on the request's tools, and a close pattern cannot refer back to the opener"
    )
)
