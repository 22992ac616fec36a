"""The Seed-OSS dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, tagged, template, think

__all__ = ["SEED_OSS", "SEED_OSS_PYSTR"]

_SEED_OSS = template(
    "<seed:bos>assistant\n",
    tagged(
        r"\s*<seed:tool_call>\s*<function=(?P<name>[^>\n]+)>",
        r"\s*</function>\s*</seed:tool_call>\s*",
        r"<parameter=(?P<key>[^>\n]+)>\n?(?P<value>.*?)\n?</parameter>",
    ),
    ends=("<seed:eos>",),
    reasoning=think("<seed:think>", "</seed:think>"),
)

SEED_OSS = Export(_SEED_OSS)
SEED_OSS_PYSTR = Export(
    _SEED_OSS, note="objects and arrays are Python str(): typed back only by the tools"
)
"""The seed_oss template: the same tags, values typed by the tools."""
