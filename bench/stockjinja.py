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
from typing import Any, cast


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
    return render_stock_dicts(
        template,
        given,
        tools=tools,
        tokens=tokens,
        add_generation_prompt=add_generation_prompt,
        **options,
    )


def render_stock_dicts(
    template: str,
    given: list[dict[str, Any]],
    *,
    tools: Sequence[Mapping[str, Any]] | None = None,
    tokens: Mapping[str, str] | None = None,
    add_generation_prompt: bool = False,
    **options: Any,
) -> str:
    """``template`` rendered by stock jinja2 for messages already in the template's form
    (chat dicts, as a user holding them passes them)."""
    variables: dict[str, Any] = {"bos_token": "", "eos_token": "", **(tokens or {}), **options}
    return str(
        _compiled(template).render(
            messages=given,
            tools=list(tools) if tools else None,
            add_generation_prompt=add_generation_prompt,
            **variables,
        )
    )


def transformers_renderer() -> Any:
    """transformers' own renderer of a chat template
    (``transformers.utils.chat_template_utils.render_jinja_template``: what
    ``apply_chat_template(tokenize=False)`` runs for a conversation, after reading its
    arguments), or ``None`` when transformers is not installed. Besides jinja2's render it
    copies the messages and tools into plain data and names the reasoning fields, on every
    call: the cost a user of ``apply_chat_template`` pays per conversation."""
    try:
        from transformers.utils.chat_template_utils import render_jinja_template
    except ImportError:
        return None

    def render(
        template: str,
        given: list[dict[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] | None = None,
        tokens: Mapping[str, str] | None = None,
        add_generation_prompt: bool = False,
        **options: Any,
    ) -> str:
        """``template`` rendered by transformers for chat dicts (as
        :func:`render_stock_dicts` takes them)."""
        variables: dict[str, Any] = {"bos_token": "", "eos_token": "", **(tokens or {}), **options}
        found: Any = render_jinja_template(  # (rendered texts, generation indices)
            [given],
            tools=cast(Any, list(tools)) if tools else None,
            chat_template=template,
            add_generation_prompt=add_generation_prompt,
            **variables,
        )
        return str(found[0][0])

    return render
