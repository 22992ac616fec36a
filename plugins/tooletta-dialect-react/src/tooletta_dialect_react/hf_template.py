"""The ``response_template`` export of ``react`` (:mod:`tooletta.interop.hf.spec`)."""

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
