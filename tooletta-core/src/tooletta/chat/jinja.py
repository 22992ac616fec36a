"""Render a model's own Jinja chat template with Hugging Face's semantics (optional jinja2).

For models no plugin covers, and to check the native formats against the real templates:
``render_conversation(messages, chat_template=...)``. The environment matches transformers'
``apply_chat_template``: a sandboxed, immutable jinja2 environment with ``trim_blocks`` and
``lstrip_blocks``, the ``loopcontrols`` extension, a ``tojson`` filter that keeps non-ASCII
and takes ``indent``/``separators``/``sort_keys``, the ``raise_exception`` and
``strftime_now`` globals, and the ``{% generation %}`` block (which marks the assistant's
generated text; here it only renders its body). Install jinja2 with
``pip install 'tooletta-core[jinja]'``.

One documented departure, a fallback: a template written for llama.cpp's engine that raises
with these semantics on exactly one of two constructs that engine renders (a list method
changing a list the template built; ``tojson`` of a generator) is rendered again as that
engine would (:mod:`tooletta.chat.enginefallback`; ``engine_fallback=False`` refuses it as
transformers does). A template that renders with Hugging Face's semantics never reaches it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import RenderError, ToolettaError
from ..extras import install_hint
from ..ir import Message
from .codegen import lean_code_generator
from .conversation import calling_turn
from .jinjaenv import make_environment
from .sandbox import immutable_sandbox

__all__ = ["load_chat_template", "render_jinja", "to_template_messages"]

_MISSING = install_hint("rendering a chat template", "jinja")


def load_chat_template(
    source: str | os.PathLike[str] | Mapping[str, Any], *, tools: bool = False
) -> tuple[str, dict[str, str]]:
    """The template text and its special tokens (``bos_token``, ``eos_token``) from
    ``source``: a Jinja string, a path to a ``chat_template.jinja`` file or a
    ``tokenizer_config.json``, or that config already read (a dict). A config's
    ``chat_template`` may be a list of named templates: the ``tool_use`` one is taken when
    ``tools`` is true and it exists, else ``default``."""
    if isinstance(source, Mapping):
        return _from_config(source, "the tokenizer config", tools)
    if isinstance(source, str) and ("{" in source or "\n" in source):
        return source, {}
    if not isinstance(source, (str, os.PathLike)):
        kind = type(source).__name__
        raise ToolettaError(f"a chat template is a string, a path or a dict, not {kind}")
    path = Path(source)
    try:
        stat = path.stat()
    except (OSError, ValueError):
        stat = None
    if stat is None or not path.is_file():
        raise ToolettaError(f"chat template {str(source)!r} is neither a template nor a file")
    text, tokens = _load_file(str(path), stat.st_mtime_ns, stat.st_size, tools)
    return text, dict(tokens)


@lru_cache(maxsize=32)
def _load_file(
    source: str, mtime_ns: int, size: int, tools: bool
) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A template file read once per version of it (a dataset renders thousands of
    conversations with one ``tokenizer_config.json``, which may be megabytes of JSON)."""
    path = Path(source)
    if path.suffix != ".json":
        return path.read_text(encoding="utf-8"), ()
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ToolettaError(f"{source}: not JSON ({exc})") from None
    if not isinstance(config, Mapping):
        raise ToolettaError(f"{source}: not a tokenizer config (a JSON object)")
    text, tokens = _from_config(config, source, tools)
    return text, tuple(tokens.items())


def _from_config(config: Mapping[str, Any], where: str, tools: bool) -> tuple[str, dict[str, str]]:
    template = config.get("chat_template")
    if isinstance(template, list):
        named = {t.get("name"): t.get("template") for t in template if isinstance(t, dict)}
        template = named.get("tool_use") if tools and "tool_use" in named else named.get("default")
    if not isinstance(template, str):
        raise ToolettaError(f"{where}: no chat_template found")
    tokens = {k: _token(config.get(k)) for k in ("bos_token", "eos_token")}
    return template, {k: v for k, v in tokens.items() if v}


def _token(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("content"), str):
        return str(value["content"])
    return ""


def to_template_messages(
    messages: Sequence[Message],
    *,
    string_arguments: bool = False,
    call_content: str | None = "",
    reasoning_key: str = "reasoning_content",
    content_parts: bool = False,
    tool_results: str = "messages",
) -> list[dict[str, Any]]:
    """Messages as chat templates receive them (transformers' convention): ``content`` as
    given, ``tool_calls`` with dict arguments, ``reasoning_content`` when there is reasoning.

    ``string_arguments=True`` gives the arguments as their ``tojson`` text instead (the
    OpenAI wire form), for templates that concatenate them as a string (DeepSeek V3.1's and
    the R1 distills' own templates raise on a dict). ``call_content``: the content of an
    assistant turn that has calls and no text (``""``, or ``None`` for templates that test
    ``content is none``). ``reasoning_key``: the key the reasoning goes under
    (``reasoning_content``; ``reasoning`` or ``thinking`` for templates that read those).
    ``content_parts=True`` gives every text content as a list of one text part
    (``[{"type": "text", "text": ...}]``, the part of a tool result carrying the result's
    ``name`` too, or the name of the call it answers), for templates that read
    ``content[0]['text']`` (MiniMax-M1's own).
    ``tool_results``: ``"messages"`` (each result a ``role: tool`` message) or
    ``"tool_responses"`` (results folded into the assistant message that made the calls, as
    llama.cpp does for Gemma 4 templates: :mod:`tooletta.chat.toolresponses`)."""
    from ..jsonout import to_json

    out: list[dict[str, Any]] = []
    for m in messages:
        content = m.content
        if m.tool_calls and content == "" and m.role == "assistant":
            content = call_content
        if content_parts and isinstance(content, str):
            name = (m.name or _answered(messages, len(out))) if m.role == "tool" else None
            content = [_text_part(content, name)]
        item: dict[str, Any] = {"role": m.role, "content": content}
        if m.reasoning:
            item[reasoning_key] = m.reasoning
        if m.tool_calls:
            item["tool_calls"] = [
                {
                    **({"id": c.id} if c.id is not None else {}),
                    "type": "function",
                    "function": {
                        "name": c.name,
                        "arguments": to_json(c.arguments) if string_arguments else c.arguments,
                    },
                }
                for c in m.tool_calls
            ]
        if m.tool_call_id is not None:
            item["tool_call_id"] = m.tool_call_id
        if m.name is not None:
            item["name"] = m.name
        item.update(m.extra)
        out.append(item)
    if tool_results == "messages":
        return out
    from .toolresponses import TOOL_RESPONSES, fold_tool_responses

    if tool_results != TOOL_RESPONSES:
        raise ToolettaError(
            f"tool_results is 'messages' or {TOOL_RESPONSES!r}, not {tool_results!r}"
        )
    return fold_tool_responses(out, reasoning_key)


def _answered(messages: Sequence[Message], index: int) -> str | None:
    """The name of the call the tool result at ``index`` answers: the call with its
    ``tool_call_id``, else the one at its place after the calling turn (``None``: none)."""
    turn = calling_turn(messages, index)
    if turn is None:
        return None
    calls = messages[turn].tool_calls
    wanted = messages[index].tool_call_id
    for call in calls:
        if wanted is not None and call.id == wanted:
            return call.name
    nth = index - turn - 1
    return calls[nth].name if nth < len(calls) else None


def _text_part(text: str, name: str | None) -> dict[str, Any]:
    """A text content part (a tool result's carries its ``name``)."""
    part: dict[str, Any] = {"type": "text", "text": text}
    if name is not None:
        part["name"] = name
    return part


@lru_cache(maxsize=1)
def _environment() -> Any:
    """The one jinja2 environment every template is compiled in (Hugging Face's settings,
    its immutable sandbox with cheap lookups of plain data: :mod:`tooletta.chat.sandbox`),
    built once and set for compiling fast: a template is compiled once per process (the
    compiled template is kept) and its first render is paid in full by :func:`identify`, so
    jinja2's optimizer (constant folding, which renders nothing differently and costs about
    a third of the compile) is off, the environment keeps no template cache, and its code
    generator answers jinja2's whole-template searches by one walk of the tree
    (:mod:`tooletta.chat.codegen`: the same Python source, in 60 % of the time)."""
    try:
        sandbox = immutable_sandbox()
        generator = lean_code_generator()
    except ImportError:  # pragma: no cover - exercised without the extra
        raise ToolettaError(_MISSING) from None
    env = make_environment(sandbox)
    env.code_generator_class = generator
    return env


@lru_cache(maxsize=16)
def _compile(template: str) -> Any:
    env = _environment()
    import jinja2

    try:
        return env.from_string(template)
    except jinja2.TemplateError as exc:
        raise ToolettaError(f"the chat template does not compile: {exc}") from None


def render_jinja(
    template: str,
    messages: Sequence[Message],
    *,
    tools: Sequence[Mapping[str, Any]] | None = None,
    add_generation_prompt: bool = False,
    tokens: Mapping[str, str] | None = None,
    string_arguments: bool = False,
    call_content: str | None = "",
    reasoning_key: str = "reasoning_content",
    content_parts: bool = False,
    tool_results: str = "messages",
    engine_fallback: bool = True,
    **options: Any,
) -> str:
    """Render ``template`` for ``messages`` as transformers' ``apply_chat_template`` would
    (``tokenize=False``). ``tokens`` are the special tokens the template reads
    (``bos_token``...); ``options`` the template's switches (a variable the model's tooling
    passes that the template cannot do without and ``options`` lacks, such as FireFunction
    v2's ``functions``, is filled in: :mod:`tooletta.chat.variables`); ``string_arguments`` passes
    call arguments as JSON text, ``call_content``, ``reasoning_key``, ``content_parts`` and
    ``tool_results`` the other forms of :func:`to_template_messages`.

    A template written for llama.cpp's engine that raises with Hugging Face's semantics on
    exactly one of the two constructs that engine renders (a list method changing a list the
    template built; ``tojson`` of a generator) is rendered again as that engine would
    (:mod:`tooletta.chat.enginefallback`); ``engine_fallback=False`` raises instead, as
    transformers does. A template that renders with Hugging Face's semantics is never
    rendered otherwise."""
    from .enginefallback import engine_construct
    from .variables import filling_variables

    compiled = _compile(template)
    variables: dict[str, Any] = {"bos_token": "", "eos_token": "", **(tokens or {}), **options}
    given = to_template_messages(
        messages,
        string_arguments=string_arguments,
        call_content=call_content,
        reasoning_key=reasoning_key,
        content_parts=content_parts,
        tool_results=tool_results,
    )
    listed = list(tools) if tools else None

    def render(values: Mapping[str, Any]) -> str:
        return str(
            compiled.render(
                messages=given, tools=listed, add_generation_prompt=add_generation_prompt, **values
            )
        )

    try:
        return filling_variables(render, template, tools, variables)
    except ToolettaError:
        raise
    except Exception as exc:
        if not engine_fallback or not engine_construct(exc):
            raise RenderError(
                f"the chat template failed: {type(exc).__name__}: {exc}{_hint(exc)}"
            ) from None
        failure = f"{type(exc).__name__}: {exc}{_hint(exc)}"
    return _render_fallback(template, given, listed, add_generation_prompt, variables, failure)


def _render_fallback(
    template: str,
    given: list[dict[str, Any]],
    listed: list[Mapping[str, Any]] | None,
    add_generation_prompt: bool,
    variables: Mapping[str, Any],
    failure: str,
) -> str:
    """The render of a template written for llama.cpp's engine, after Hugging Face's
    semantics raised ``failure`` on one of its constructs (:mod:`tooletta.chat.enginefallback`)."""
    from .enginefallback import compile_fallback, input_lists, rendering
    from .variables import filling_variables

    compiled = compile_fallback(template)

    def render(values: Mapping[str, Any]) -> str:
        return str(
            compiled.render(
                messages=given, tools=listed, add_generation_prompt=add_generation_prompt, **values
            )
        )

    try:
        with rendering(input_lists(given, listed, dict(variables))):
            return filling_variables(render, template, listed, variables)
    except ToolettaError:
        raise
    except Exception as exc:
        raise RenderError(
            f"the chat template failed: {failure}; rendered as llama.cpp's engine would, "
            f"it fails too: {type(exc).__name__}: {exc}"
        ) from None


_GENERATOR = (
    " (a filter such as map or select gives a generator, and tojson is json.dumps in "
    "transformers too, which refuses it: the template is broken under Hugging Face's "
    "semantics; llama.cpp's minja gives a list there)"
)


def _hint(exc: Exception) -> str:
    """Why a template fails where another engine renders it, when that is known."""
    if isinstance(exc, TypeError) and "type generator is not JSON serializable" in str(exc):
        return _GENERATOR
    return ""
