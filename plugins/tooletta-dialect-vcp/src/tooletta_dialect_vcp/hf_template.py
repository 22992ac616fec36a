"""The ``response_template`` export of ``vcp`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import TEXT, Export, chatml, tagged

__all__ = ["VCP"]

VCP = Export(
    chatml(
        tagged(
            r"\s*<<<\[TOOL_REQUEST\]>>>\s*tool_name:「始」(?P<name>.*?)「末」,?\s*",
            r"\s*<<<\[END_TOOL_REQUEST\]>>>\s*",
            r"(?P<key>[^\s:,「」]+):「始」(?P<value>.*?)「末」",
            value_parser=TEXT,
        ),
    ),
    note="tool_name must come first; 「始ESCAPE」 values are not unescaped",
)
