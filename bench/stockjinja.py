"""The peer the rendering benchmarks compare with: a chat template rendered as transformers'
``apply_chat_template(tokenize=False)`` renders it, with the template compiled once (as
transformers caches it).

That is jinja2's own ``ImmutableSandboxedEnvironment`` with Hugging Face's settings, filters
and globals (:func:`tooletta.chat.jinjaenv.make_environment`) and jinja2's optimizer on, as
transformers leaves it: not :func:`tooletta.chat.jinja.render_jinja`, whose environment
tooletta made faster for probing templates (:mod:`tooletta.chat.sandbox`, the optimizer off
for a cheaper compile), which would understate what a user switching from transformers gains.
The messages are given to the template in the same form ``render_jinja`` gives them
(:func:`tooletta.chat.jinja.to_template_messages`); a test checks that both render alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=64)
def _compiled(template: str) -> Any:
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    from tooletta.chat.jinjaenv import make_environment

    env = make_environment(ImmutableSandboxedEnvironment)
    env.optimized = True  # jinja2's default, which transformers keeps
    return env.from_string(template)


def render_stock(
    template: str,
    messages: Sequence[Any],
    *,
    tools: Sequence[Mapping[str, Any]] | None = None,
    tokens: Mapping[str, str] | None = None,
    add_generation_prompt: bool = False,
    string_arguments: bool = False,
    **options: Any,
) -> str:
    """``template`` rendered for ``messages`` (tooletta ``Message`` objects) by stock jinja2."""
    from tooletta.chat.jinja import to_template_messages

    given = to_template_messages(messages, string_arguments=string_arguments)
    variables: dict[str, Any] = {"bos_token": "", "eos_token": "", **(tokens or {}), **options}
    return str(
        _compiled(template).render(
            messages=given,
            tools=list(tools) if tools else None,
            add_generation_prompt=add_generation_prompt,
            **variables,
        )
    )
