"""The GLM dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, TEXT_RAW, Export, region, template, think

__all__ = ["GLM45", "GLM46"]

_GLM45 = template(
    "<|assistant|>",
    region(
        r"\s*<tool_call>\s*(?P<name>[^\s<]+)\s*",
        r"</tool_call>\s*",
        content="xml-inline",
        content_args={
            "tag_pattern": (
                r"<arg_key>(?P<key>.*?)</arg_key>\s*<arg_value>(?P<value>.*?)</arg_value>"
            ),
            "value_parser": TEXT_RAW,
        },
        transform=NAMED,
    ),
    ends=("<|user|>", "<|observation|>", "<|endoftext|>"),
    reasoning=think(),
)

GLM45 = Export(_GLM45, note="argument values are text: pass the request's tools to type them")
GLM46 = Export(_GLM45)
"""The glm45 template: the 4.5/4.6 newline form reads the same."""
