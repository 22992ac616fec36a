"""The ``response_template`` export of ``minicpm5`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import TEXT, Export, chatml, tagged

__all__ = ["MINICPM5"]

MINICPM5 = Export(
    chatml(
        tagged(
            r"\s*<function name=[\"'](?P<name>[^\"']+)[\"']>",
            r"\s*</function>\s*",
            r"<param name=[\"'](?P<key>[^\"']+)[\"']>(?P<value>.*?)</param>",
            value_parser=TEXT,
        ),
    )
)
