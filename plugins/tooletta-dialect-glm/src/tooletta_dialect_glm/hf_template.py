"""The GLM dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, kv_tags, template, think

__all__ = ["GLM45", "GLM45_CALLS", "GLM46"]

GLM45_CALLS = kv_tags(
    r"\s*<tool_call>\s*(?P<name>[^\s<]+)\s*",
    r"</tool_call>\s*",
    "<arg_key>",
    r"</arg_key>\s*<arg_value>",
    "</arg_value>",
)
"""The glm45 calls' region: ``<tool_call>NAME`` then
``<arg_key>K</arg_key><arg_value>V</arg_value>`` pairs (text values), for templates that
write GLM's tags after another header."""

_GLM45 = template(
    "<|assistant|>",
    GLM45_CALLS,
    ends=("<|user|>", "<|observation|>", "<|endoftext|>"),
    reasoning=think(),
)

GLM45 = Export(_GLM45, note="argument values are text: pass the request's tools to type them")
GLM46 = Export(_GLM45)
"""The glm45 template: the 4.5/4.6 newline form reads the same."""
