"""The ``response_template`` react exports (:func:`tooletta.interop.hf.to_response_template`),
checked by tooletta's tests on the dialect's golden fixtures through transformers'
``parse_response``."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, Export, region, template

__all__ = ["REACT"]

REACT = Export(
    template(
        "Thought:",
        region(
            r"\s*Action:[ \t]*(?P<name>[^\n]+?)[ \t]*\r?\nAction Input:[ \t]*",
            r"\s*(?=\n(?:Action|Observation|Thought|Final Answer)\b)|\s*\Z",
            content="json",
            transform=NAMED,
        ),
    ),
    note="JSON action inputs; content keeps the Thought: lines",
)
