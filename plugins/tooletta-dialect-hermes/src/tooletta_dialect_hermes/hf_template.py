"""The ``response_template`` export of ``hermes`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import FUNCTION, Export, chatml, region

__all__ = ["HERMES"]

HERMES = Export(
    chatml(region(r"\s*<tool_call>", r"</tool_call>\s*", content="json", transform=FUNCTION))
)
