"""The public functions: parse, render, convert, detect, stream, and the registry's face."""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .boundary import (
    GuardedStream,
    checked_detect,
    checked_parser,
    checked_result,
    checked_text,
)
from .catalog import (
    Model,
    dialect_for_model,
    dialects_for_model,
    get_dialect,
    list_dialects,
    resolve_format,
    unknown_model,
)
from .claims import check_model_claims
from .errors import (
    ParseError,
    PluginError,
    RenderError,
    ToolettaError,
    ToolettaWarning,
    UnknownDialectError,
)
from .expressible import check_calls, max_depth_of
from .ir import Message, ParseResult, ToolCall
from .plugins import get_registry, register_module
from .registry import DialectEntry

if TYPE_CHECKING:
    from .dialect import StreamParser

__all__ = [
    "convert",
    "detect",
    "dialect_for_model",
    "get_dialect",
    "list_dialects",
    "parse",
    "parse_conversation",
    "parse_tool_calls",
    "register_dialect",
    "render",
    "render_conversation",
    "render_tool_calls",
    "render_with_reasoning",
    "stream",
    "supports_reasoning",
]


def register_dialect(obj: Any) -> None:
    """Register a dialect object, or a :class:`~tooletta.rows.Model` row, in-process (same
    rules as the ``register_dialects`` hook; an in-process row is third-party)."""
    registry = get_registry()
    if isinstance(obj, Model):  # filed under the module that registers it
        caller = sys._getframe(1).f_globals.get("__name__", "?")
        registry.add_model(obj, plugin=str(caller))
    else:
        registry.add(obj, plugin=type(obj).__module__)
        if not obj.info.models:
            return
    check_model_claims(registry)


def register_plugin(module: Any, name: str | None = None) -> None:
    """Register a plugin module or object carrying ``@hookimpl`` functions, in-process."""
    register_module(module, name)


def detect(text: str) -> str | None:
    """The name of the dialect ``text`` is written in, or ``None`` when no dialect claims it.

    Candidates are the dialects one of whose markers occurs in the text, tried by declared
    priority (higher first, ties by name); a candidate with a ``detect(text)`` method may
    decline. The first that accepts wins.
    """
    for entry in get_registry().ordered():
        if not entry.info.variant_of and _claims(entry, text):
            return entry.info.name
    return None


def _claims(entry: DialectEntry, text: str) -> bool:
    markers = entry.info.markers
    if not markers or not any(m in text for m in markers):
        return False
    check = getattr(entry.dialect, "detect", None)
    if check is None:
        return True
    try:
        answer = check(text)
    except Exception as exc:
        raise PluginError(
            f"detect() raised {type(exc).__name__}: {exc}", plugin=entry.plugin
        ) from exc
    return checked_detect(answer, entry.info.name, entry.plugin)


def _resolve(dialect: str, text: str) -> DialectEntry | None:
    if dialect == "auto":
        name = detect(text)
        return get_registry().get(name) if name else None
    return get_registry().get(dialect)


def _call_dialect(
    model: str | None,
    dialect: str | None,
    chat_template: Any,
    tokenizer: Any,
    bos_token: str | None,
    eos_token: str | None,
    caller: str,
) -> str:
    """The dialect named by a model id or a chat template (:func:`~tooletta.chat.template.
    call_dialect`), for ``caller``; a :class:`~tooletta.ToolettaError` when none is."""
    from .chat.template import call_dialect

    given = None if dialect == "auto" else dialect
    name = call_dialect(model, given, chat_template, tokenizer, bos_token, eos_token)
    if name is None:
        raise UnknownDialectError(f"{caller}(): {unknown_model(str(model))}")
    return name


def parse(
    text: str,
    dialect: str = "auto",
    *,
    model: str | None = None,
    chat_template: Any = None,
    tokenizer: Any = None,
    bos_token: str | None = None,
    eos_token: str | None = None,
    tools: Any = None,
    strict: bool = False,
    prefix: str = "",
) -> ParseResult:
    """Parse a model response into content, tool calls, reasoning and unparsed blocks.

    ``dialect="auto"`` detects it (no dialect found: everything is content). ``tools`` are the
    request's tool definitions (OpenAI style), used by dialects whose values are untyped text.
    ``strict=True`` raises :class:`~tooletta.ParseError` (with dialect and position) for the
    first malformed block instead of returning it in ``unparsed``. ``prefix`` is markup the
    prompt already ended with, such as ``"<think>"`` when the chat template opened the
    reasoning: the text is read as its continuation (dialects built on the engine).

    A name that means another format elsewhere warns (:class:`~tooletta.ToolettaWarning`)
    when it finds no calls in text that carries the other format's markers: ``"openai"`` is
    the OpenAI JSON format here, while vLLM's ``openai`` parser reads gpt-oss Harmony
    (``"harmony"``).

    ``model`` (a Hugging Face model id, with ``dialect="auto"``) reads the text in a dialect
    that model is known to write (its catalog row, :mod:`tooletta.catalog`): the one whose
    markers the text holds, else the model's default; a model no plugin knows raises
    :class:`~tooletta.UnknownDialectError`. An explicit ``dialect`` wins over ``model``.
    ``chat_template=`` / ``tokenizer=`` (with ``bos_token`` / ``eos_token``) read the dialect
    of the format the model's own template is (see :func:`render_conversation`); a template
    and a ``model`` or ``dialect`` that disagree raise :class:`~tooletta.TemplateMismatchError`.
    """
    if not isinstance(text, str):
        raise ParseError(f"text must be str, not {type(text).__name__}")
    if chat_template is not None or tokenizer is not None:
        dialect = _call_dialect(
            model, dialect, chat_template, tokenizer, bos_token, eos_token, "parse"
        )
    if dialect != "auto":
        entry: DialectEntry | None = get_registry().get(dialect)
    elif model is not None:
        entry = _model_entry(model, text)
    else:
        entry = _resolve(dialect, text)
    if entry is None:
        return ParseResult(content=text, calls=[], dialect=None)
    try:
        if prefix:
            result = _with_prefix(entry, "parse")(text, tools=tools, prefix=prefix)
        else:
            result = entry.dialect.parse(text, tools=tools)
    except ToolettaError:
        raise
    except Exception as exc:
        raise PluginError(
            f"dialect {entry.info.name!r} raised {type(exc).__name__} while parsing: {exc}",
            plugin=entry.plugin,
        ) from exc
    if type(result) is not ParseResult or not entry.first_party:
        result = checked_result(result, entry.info.name, entry.plugin)  # field by field
    if strict and result.unparsed:
        bad = result.unparsed[0]
        raise ParseError(bad.error, dialect=entry.info.name, position=bad.offset)
    if not result.calls and dialect != "auto":
        from .firstparty import misnamed_hint

        hint = misnamed_hint(entry.info.name, text)
        if hint is not None:
            warnings.warn(hint, ToolettaWarning, stacklevel=2)
    return result


def _model_entries(model: str) -> list[DialectEntry]:
    """The entries of the dialects ``model`` writes, its default first."""
    names = dialects_for_model(model)
    if not names:
        raise UnknownDialectError(unknown_model(model))
    registry = get_registry()
    return [registry.get(name) for name in names]


def _claims_as_written(entry: DialectEntry, text: str) -> bool:
    """Whether ``text`` is written in ``entry``'s dialect (a variant: in its base's markup)."""
    base = entry.info.variant_of
    if base and not entry.info.markers:
        entry = get_registry().get(base)
    return _claims(entry, text)


def _model_entry(model: str, text: str) -> DialectEntry:
    """The dialect ``model`` writes ``text`` in: the first of its dialects claiming the text,
    else its default."""
    entries = _model_entries(model)
    if len(entries) > 1:
        for entry in entries:
            if _claims_as_written(entry, text):
                return entry
    return entries[0]


def _with_prefix(entry: DialectEntry, method: str) -> Any:
    """The dialect's ``method``, checked to accept ``prefix``."""
    import inspect

    fn = getattr(entry.dialect, method)
    if "prefix" not in inspect.signature(fn).parameters:
        raise ToolettaError(f"dialect {entry.info.name!r} does not support prefix")
    return fn


def parse_tool_calls(
    text: str, dialect: str = "auto", *, model: str | None = None, tools: Any = None
) -> list[ToolCall]:
    """Only the calls of :func:`parse` (``model`` as there)."""
    return parse(text, dialect, model=model, tools=tools).calls


_SURROGATE = re.compile(r"[\ud800-\udfff]")
"""A lone surrogate: a ``str`` can hold one, UTF-8 text cannot."""


def _lone_surrogate(char: str) -> str:
    return f"a lone surrogate (U+{ord(char):04X}) is not text and cannot be written"


def _as_calls(calls: Iterable[Any]) -> list[ToolCall]:
    out = []
    for call in calls:
        if isinstance(call, ToolCall):
            out.append(call)
        elif isinstance(call, Mapping) or hasattr(call, "function") or hasattr(call, "name"):
            try:
                out.append(ToolCall.from_openai(call))
            except ValueError as exc:
                raise RenderError(f"bad tool call {call!r}: {exc}") from None
        else:
            raise RenderError(f"not a tool call: {call!r}")
    return out


def render(
    calls: Iterable[Any],
    dialect: str | None = None,
    *,
    content: str = "",
    reasoning: str = "",
    model: str | None = None,
    end_of_turn: bool = False,
    chat_template: Any = None,
    tokenizer: Any = None,
    bos_token: str | None = None,
    eos_token: str | None = None,
) -> str:
    """Write ``content`` and ``calls`` (and ``reasoning``) as the model text of ``dialect``.

    ``calls`` are :class:`~tooletta.ToolCall` objects (OpenAI-shaped mappings are accepted
    too). With ``model=`` (a Hugging Face model id) the text is that model's own assistant
    turn, byte for byte as its chat template writes it, from after the generation prompt (what
    the model generates; a template whose generation prompt opens ``<think>`` leaves that out)
    up to its end-of-turn token, which is left out unless ``end_of_turn=True`` (the text is
    one assistant message as a parser reads it; with ``end_of_turn=True`` it ends with the
    token the model generates to end that turn, ``<|im_end|>`` for Qwen, ``<|call|>`` for a
    gpt-oss call, nothing for a template whose turns end at the next header): the model picks
    the dialect and its variant (``dialect`` may still name one). ``reasoning`` is
    written where the format puts it (:func:`supports_reasoning` tells whether it has a
    place; a dialect without one raises :class:`~tooletta.RenderError`).

    Raises :class:`~tooletta.RenderError` when the dialect cannot express the calls, and
    whatever the dialect, for what no parse reads back (see :mod:`tooletta.expressible`): an
    empty function name, NaN or an infinity in the arguments, an integer too long to decode,
    arguments nested deeper than the dialect reads (its ``max_depth``, default
    :data:`tooletta.engine.MAX_DEPTH`), and text that would hold a lone surrogate
    (``"\\ud800"``, from a name, key, value or the content): that is not Unicode text; and
    when ``content`` is not text (a list of content blocks must be joined first).

    ``chat_template=`` / ``tokenizer=`` (with ``bos_token`` / ``eos_token``) write the turn
    as the model's own template does, through the format it is (see
    :func:`render_conversation`); with ``model`` too, the model's format must reproduce the
    template (:class:`~tooletta.TemplateMismatchError`).
    """
    items = _as_calls(calls)
    if not isinstance(content, str):  # e.g. a list of content blocks: not the plugin's fault
        kind = type(content).__name__
        raise RenderError(f"content must be text, not {kind}", dialect=dialect)
    if chat_template is not None or tokenizer is not None:
        from .chat.template import read_template, template_format

        template = read_template(chat_template, tokenizer, bos_token, eos_token, tools=True)
        assert template is not None
        known, written_by = template_format(template, model, dialect)
        entry = get_registry().get(written_by.info.name)
        return _checked_render(
            entry,
            items,
            lambda: _model_turn(known, written_by, items, content, reasoning, end_of_turn),
        )
    if model is not None:
        try:
            fmt, obj = resolve_format(model, dialect)
        except UnknownDialectError:
            raise
        except ToolettaError:
            fmt = None
        if fmt is not None:
            entry = get_registry().get(obj.info.name)
            return _checked_render(
                entry,
                items,
                lambda: _model_turn(fmt, obj, items, content, reasoning, end_of_turn),
            )
        if dialect is None:
            dialect = dialect_for_model(model)
    if dialect is None:
        raise ToolettaError("render() needs a dialect name or model=")
    entry = get_registry().get(dialect)
    if reasoning:
        return _checked_render(
            entry, items, lambda: _with_reasoning(entry, items, content, reasoning)
        )
    return _checked_render(entry, items, lambda: entry.dialect.render(items, content=content))


def _model_turn(
    fmt: Any, obj: Any, calls: list[ToolCall], content: str, reasoning: str, end: bool = False
) -> str:
    from .chat.format import Conversation
    from .chat.render import prompt_tail
    from .ir import Message

    message = Message(role="assistant", content=content, tool_calls=calls, reasoning=reasoning)
    ctx = Conversation([message], [], dict(fmt.options), obj)
    body = str(fmt.turn_body(message, True, True, ctx))
    if reasoning.strip() and reasoning.strip() not in body:  # never lose it silently
        raise RenderError(
            f"the {fmt.name} chat template has no place for reasoning", dialect=obj.info.name
        )
    tail = prompt_tail(fmt, ctx)
    turn = body[len(tail) :] if tail and body.startswith(tail) else body
    return turn + str(fmt.end_token(0, ctx)) if end else turn


def supports_reasoning(dialect: str) -> bool:
    """Whether ``dialect`` has a place for reasoning in its model text (``render(...,
    reasoning=...)``): a ``reasoning_markup`` pair, a ``render`` taking ``reasoning``, or a
    conversation format of its models that writes reasoning in the assistant turn where the
    dialect's parse reads it back (:func:`tooletta.chat.place.reasoning_format`)."""
    obj = get_registry().get(dialect).dialect
    if getattr(obj, "reasoning_markup", None) or _takes_reasoning(type(obj)):
        return True
    from .chat.place import reasoning_format

    return reasoning_format(obj) is not None


_TAKES_REASONING: dict[type, bool] = {}


def _takes_reasoning(cls: type) -> bool:
    """Whether a dialect class's ``render`` has a ``reasoning`` parameter (once per class)."""
    known = _TAKES_REASONING.get(cls)
    if known is None:
        import inspect

        render = getattr(cls, "render", None)
        try:
            known = render is not None and "reasoning" in inspect.signature(render).parameters
        except (TypeError, ValueError):
            known = False
        _TAKES_REASONING[cls] = known
    return known


def _with_reasoning(
    entry: DialectEntry, calls: list[ToolCall], content: str, reasoning: str
) -> Any:
    obj = entry.dialect
    markup = getattr(obj, "reasoning_markup", None)
    if markup:
        opener, closer = markup
        return opener + reasoning + closer + obj.render(calls, content=content)
    if _takes_reasoning(type(obj)):
        return obj.render(calls, content=content, reasoning=reasoning)
    from .chat.place import reasoning_format, reasoning_turn

    fmt = reasoning_format(obj)
    if fmt is not None:  # the assistant turn as the format's models write it
        return reasoning_turn(fmt, obj, calls, content, reasoning)
    raise RenderError("the format has no place for reasoning", dialect=entry.info.name)


def _checked_render(entry: DialectEntry, calls: list[ToolCall], write: Any) -> str:
    """``write()``, the dialect's text for ``calls``: refused first when no parse could read
    them back (:func:`~tooletta.expressible.check_calls`), its faults reported as errors."""
    check_calls(calls, entry.info.name, max_depth_of(entry.dialect))
    try:
        text = write()
    except ToolettaError:
        raise
    except RecursionError:  # a renderer that recurses per level ran out of Python's stack
        message = "arguments are nested too deeply for this dialect to write"
        raise RenderError(message, dialect=entry.info.name) from None
    except Exception as exc:
        if isinstance(exc, UnicodeEncodeError) and _SURROGATE.match(exc.object, exc.start):
            bad = exc.object[exc.start]  # in a name, key, value or the content
            raise RenderError(_lone_surrogate(bad), dialect=entry.info.name) from None
        raise PluginError(
            f"dialect {entry.info.name!r} raised {type(exc).__name__} while rendering: {exc}",
            plugin=entry.plugin,
        ) from exc
    text = checked_text(text, entry.info.name, entry.plugin)
    if isinstance(text, str) and not text.isascii():
        found = _SURROGATE.search(text)
        if found is not None:
            message = f"{_lone_surrogate(found.group())} (at position {found.start()})"
            raise RenderError(message, dialect=entry.info.name)
    return text


def render_conversation(
    messages: Iterable[Any],
    *,
    model: str | None = None,
    dialect: str | None = None,
    tools: Iterable[Any] | None = None,
    add_generation_prompt: bool = False,
    chat_template: Any = None,
    tokenizer: Any = None,
    bos_token: str | None = None,
    eos_token: str | None = None,
    allow_markup: bool = False,
    **options: Any,
) -> str:
    """A whole conversation as the model's own chat template writes it.

    The system prompt with the tool declarations, the user turns, the assistant turns with
    reasoning (by the template's history rule) and calls, the tool results and, with
    ``add_generation_prompt``, the prompt for the next assistant turn; the bos token where the
    template writes it. ``messages`` are :class:`~tooletta.Message` objects or chat dicts
    (OpenAI / Hugging Face style, ``reasoning_content`` read as reasoning); ``tools`` OpenAI
    tool definitions; ``options`` the template's switches (``enable_thinking``...; unknown
    ones are ignored). ``model`` (an HF model id) or ``dialect`` picks the chat format.

    ``chat_template``: the model's own Jinja template (a string, a path to a
    ``chat_template.jinja`` or ``tokenizer_config.json``, or that config as a dict), or
    ``tokenizer``: anything with a ``.chat_template`` (its ``bos_token`` / ``eos_token`` are
    read too; ``bos_token=`` / ``eos_token=`` override them). The template is the truth: when
    a known format reproduces it byte for byte (:func:`tooletta.chat.identify`), that format
    renders it natively; otherwise the template is rendered with Hugging Face's semantics
    (needs jinja2: ``pip install 'tooletta-core[jinja]'``). With ``model`` or ``dialect`` as
    well, their format renders, after checking that it reproduces the template:
    :class:`~tooletta.TemplateMismatchError` names the first difference when it does not.

    Raises :class:`~tooletta.RenderError` (naming the message, the field and the token) for
    message text the format would read as markup, such as ``<|im_end|>`` in a Qwen3 user
    message (it would read back as other messages: a forged turn); ``allow_markup=True``
    writes it as is. See the docs' "What tooletta refuses and why".
    """
    if chat_template is not None or tokenizer is not None:
        from .chat.template import render_template_conversation

        return render_template_conversation(
            messages,
            model,
            dialect,
            tools,
            add_generation_prompt,
            chat_template,
            tokenizer,
            bos_token,
            eos_token,
            options,
            allow_markup,
        )
    if bos_token is not None or eos_token is not None:
        raise ToolettaError("bos_token= / eos_token= need chat_template= or tokenizer=")
    text: str = _render_conversation_text(
        messages, model, dialect, tools, add_generation_prompt, options, allow_markup
    )
    return text


def _load_render_conversation_text(*args: Any) -> Any:
    """:func:`tooletta.chat.api.render_conversation_text`, imported on first use (``import
    tooletta`` stays fast); it then takes this function's place."""
    global _render_conversation_text
    from .chat.api import render_conversation_text

    _render_conversation_text = render_conversation_text
    return render_conversation_text(*args)


_render_conversation_text: Callable[..., Any] = _load_render_conversation_text


def parse_conversation(
    text: str,
    *,
    model: str | None = None,
    dialect: str | None = None,
    chat_template: Any = None,
    tokenizer: Any = None,
    bos_token: str | None = None,
    eos_token: str | None = None,
    tools: Any = None,
) -> list[Message]:
    """The messages of a conversation rendered in a model's chat format (the inverse of
    :func:`render_conversation`): system, user, assistant (content, reasoning, calls) and
    tool messages (named after the call they answer). Raises :class:`~tooletta.ParseError`
    with the position of text the format does not explain.

    ``chat_template`` / ``tokenizer`` (with ``bos_token`` / ``eos_token``): the model's own
    template picks the format: the known format that reproduces it, else a format learned
    from it (``tooletta.learn``), else a :class:`~tooletta.ToolettaError`; with ``model`` or
    ``dialect`` too, see :func:`render_conversation`."""
    from .chat.api import parse_conversation_text
    from .chat.template import template_names

    model, dialect = template_names(
        model, dialect, chat_template, tokenizer, bos_token, eos_token, tools=bool(tools)
    )

    return parse_conversation_text(text, model=model, dialect=dialect, tools=tools)


def render_tool_calls(calls: Iterable[Any], dialect: str) -> str:
    """Only the calls, as model text (no content)."""
    return render(calls, dialect)


def convert(
    text: str, source: str, target: str, *, tools: Any = None, drop_reasoning: bool = False
) -> str:
    """Parse ``text`` written in ``source`` (or ``"auto"``) and render it in ``target``,
    keeping the content and the reasoning. Malformed blocks raise
    :class:`~tooletta.ParseError` rather than disappear.

    Reasoning goes where ``target`` has a place for it (a dialect with ``reasoning_markup``,
    or whose ``render`` takes ``reasoning``); where it has none, it is dropped with a
    :class:`~tooletta.ToolettaWarning`, unless ``drop_reasoning=True`` says that is meant.
    """
    result = parse(text, source, tools=tools, strict=True)
    return render_with_reasoning(
        result.calls,
        target,
        content=result.content,
        reasoning=result.reasoning,
        drop_reasoning=drop_reasoning,
    )


def render_with_reasoning(
    calls: Iterable[Any],
    dialect: str,
    *,
    content: str = "",
    reasoning: str = "",
    drop_reasoning: bool = False,
) -> str:
    """:func:`~tooletta.render`, with ``reasoning`` written where ``dialect`` has a place for it
    (:func:`~tooletta.supports_reasoning`); otherwise reasoning is dropped with a
    :class:`~tooletta.ToolettaWarning` (none when ``drop_reasoning``). What ``convert``,
    the CLI and dataset conversions use, so no reasoning vanishes unreported."""
    if reasoning and supports_reasoning(dialect):
        return render(calls, dialect, content=content, reasoning=reasoning)
    if reasoning and not drop_reasoning:
        name = get_registry().get(dialect).info.name
        warnings.warn(
            f"{name} has no place for reasoning: {len(reasoning)} characters of it were "
            "dropped (--drop-reasoning or drop_reasoning=True drops it without this warning)",
            ToolettaWarning,
            stacklevel=3,
        )
    return render(calls, dialect, content=content)


def stream(
    dialect: str | None = None,
    *,
    model: str | None = None,
    chat_template: Any = None,
    tokenizer: Any = None,
    bos_token: str | None = None,
    eos_token: str | None = None,
    tools: Any = None,
    prefix: str = "",
) -> StreamParser:
    """A stream parser for one response: ``feed(delta)`` per delta, then ``finish()``.

    Dialects without an incremental parser are buffered until ``finish``. ``prefix`` as in
    :func:`parse`. ``model`` (a Hugging Face model id, when no ``dialect`` is named) streams
    in the dialect that model writes; a model known to write several (its catalog row names
    them) is held back until the text shows which, then streamed in it
    (:class:`~tooletta.model_stream.ModelStream`; nothing shown, the default read, when the
    text never does). ``chat_template``, ``tokenizer``, ``bos_token`` and ``eos_token`` as in
    :func:`parse`.
    """
    if chat_template is not None or tokenizer is not None:
        dialect = _call_dialect(
            model, dialect, chat_template, tokenizer, bos_token, eos_token, "stream"
        )
    if dialect is None or dialect == "auto":
        if model is None:
            raise ToolettaError(
                "stream() needs a dialect name, model= or chat_template=; detection needs the "
                "whole text"
            )
        entries = _model_entries(model)
        if len(entries) > 1:
            from .model_stream import ModelStream

            return ModelStream(
                [e.info.name for e in entries],
                {e.info.name: _markers_of(e) for e in entries},
                lambda name, text: _claims_as_written(get_registry().get(name), text),
                lambda name: stream(name, tools=tools, prefix=prefix),
            )
        dialect = entries[0].info.name
    entry = get_registry().get(dialect)
    factory = getattr(entry.dialect, "stream", None)
    try:
        if prefix:
            if factory is None:
                raise ToolettaError(f"dialect {entry.info.name!r} does not support prefix")
            parser = _with_prefix(entry, "stream")(tools=tools, prefix=prefix)
        elif factory is None:
            from .dialect import BufferedStream  # imported when needed: a fast start

            parser = BufferedStream(entry.dialect, tools, plugin=entry.plugin)
        else:
            parser = factory(tools=tools)
    except ToolettaError:
        raise
    except Exception as exc:
        raise _plugin_error(entry, "starting a stream", exc) from exc
    from .engine import Engine

    if type(parser) is Engine:
        return parser  # the engine reports its readers' faults itself, at no cost per delta
    checked_parser(parser, entry.info.name, entry.plugin)
    return GuardedStream(parser, entry.info.name, entry.plugin)


def _markers_of(entry: DialectEntry) -> tuple[str, ...]:
    """The markers detection looks for (a variant without its own: its base's)."""
    if entry.info.variant_of and not entry.info.markers:
        return get_registry().get(entry.info.variant_of).info.markers
    return entry.info.markers


def _plugin_error(entry: DialectEntry, doing: str, exc: BaseException) -> PluginError:
    return PluginError(
        f"dialect {entry.info.name!r} raised {type(exc).__name__} while {doing}: {exc}",
        plugin=entry.plugin,
    )
