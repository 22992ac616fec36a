"""Why openai has no ``response_template`` (:func:`tooletta.interop.hf.to_response_template`
raises, saying so)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export

__all__ = ["OPENAI"]

OPENAI = Export(
    gap=(
        "OpenAI's JSON carries the arguments as a JSON string, which a transform cannot "
        "decode, and the content inside the same document"
    )
)
