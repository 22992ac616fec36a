"""A model's own chat template, given wherever a model id is: which format it is.

``chat_template=`` (Jinja text, a ``chat_template.jinja`` / ``tokenizer_config.json`` path,
or that config as a dict) or ``tokenizer=`` (anything with a ``.chat_template``; its
``bos_token`` / ``eos_token`` are read too) name the template; ``bos_token=`` /
``eos_token=`` override its special tokens. :func:`template_format` resolves it:

1. the known format that reproduces it byte for byte (:func:`~tooletta.chat.identify`);
2. else a format learned from it (``tooletta.learn``);
3. else a :class:`~tooletta.ToolettaError` saying what came closest.

With a ``model=`` (or ``dialect=``) too, the model's format must reproduce the template, or
the template's exact text must be one the format is verified against (a model row's
``template_sha256``: the model's own template, known by heart with its documented
differences, see :func:`~tooletta.chat.identify`): otherwise
:class:`~tooletta.TemplateMismatchError` names the first difference (the template is the
model's truth; an older format is never used in its place silently). A model id that no
installed format is known to be the template of (a new model, or a new release of a family
whose rows do not claim it yet) adds nothing to check: the template resolves as it does
alone (steps 1-3), so ``model=`` beside a tokenizer's template never stands in the way.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import TemplateMismatchError, ToolettaError, ToolettaWarning
from .format import ChatFormat
from .identify import Identification, check_format, identify
from .jinja import load_chat_template

__all__ = [
    "Template",
    "call_dialect",
    "check_template_options",
    "read_template",
    "reads_option",
    "render_template_conversation",
    "template_format",
    "template_names",
]


_EVERY_FORMAT = frozenset({"strftime_now"})
"""Options every format reads as the template does, declared or not (the clock)."""


@dataclass(frozen=True)
class Template:
    """A chat template's text and the special tokens given with it (``bos_token`` /
    ``eos_token``; absent when nobody gave them). ``source`` is what it was read from when
    that holds more than one template (a tokenizer config with named templates): the probes
    read it as transformers does (``tool_use`` with tools, ``default`` without)."""

    text: str
    tokens: Mapping[str, str]
    source: Any = None

    @property
    def probed(self) -> Any:
        """What :func:`~tooletta.chat.identify` reads: ``source``, else ``text``."""
        return self.text if self.source is None else self.source

    def identify(self, *, strict_tokens: bool = False) -> Identification:
        """:func:`~tooletta.chat.identify` of this template with its tokens; with
        ``strict_tokens``, a token nobody gave counts as ``""`` (what a Jinja render of the
        template writes for it) rather than being found per candidate."""
        default = "" if strict_tokens else None
        return identify(
            self.probed,
            bos_token=self.tokens.get("bos_token", default),
            eos_token=self.tokens.get("eos_token", default),
        )


def read_template(
    chat_template: Any = None,
    tokenizer: Any = None,
    bos_token: str | None = None,
    eos_token: str | None = None,
    *,
    tools: bool = False,
) -> Template | None:
    """The template ``chat_template`` or ``tokenizer`` names (``None``: neither is given).
    ``chat_template`` wins over the tokenizer's own; ``bos_token`` / ``eos_token`` over the
    config's or the tokenizer's. Raises :class:`~tooletta.ToolettaError` for a tokenizer
    without a chat template or a template that cannot be read."""
    tokens: dict[str, str] = {}
    source = chat_template
    named: Any = None
    if tokenizer is not None:
        for key in ("bos_token", "eos_token"):
            value = getattr(tokenizer, key, None)
            if isinstance(value, str) and value:
                tokens[key] = value
        if source is None:
            source = getattr(tokenizer, "chat_template", None)
            if isinstance(source, Mapping):  # transformers' named templates
                named = {"chat_template": [{"name": k, "template": v} for k, v in source.items()]}
                name = "tool_use" if tools and "tool_use" in source else "default"
                source = source.get(name)
            if not isinstance(source, str):
                kind = type(tokenizer).__name__
                raise ToolettaError(f"the tokenizer ({kind}) has no chat_template")
    if source is None:
        if bos_token is not None or eos_token is not None:
            raise ToolettaError("bos_token= / eos_token= need chat_template= or tokenizer=")
        return None
    text, found = load_chat_template(source, tools=tools)
    tokens = {**tokens, **found} if chat_template is not None else {**found, **tokens}
    for key, value in (("bos_token", bos_token), ("eos_token", eos_token)):
        if value is not None:
            tokens[key] = value
    if named is None and chat_template is not None and _named(chat_template):
        named = chat_template
    return Template(text, tokens, named)


def _named(source: Any) -> bool:
    """Whether ``source`` (a ``chat_template=`` value) is a tokenizer config holding more
    than one template."""
    if isinstance(source, str) and ("{" in source or "\n" in source):
        return False
    if not isinstance(source, Mapping) and not str(source).endswith(".json"):
        return False
    return load_chat_template(source, tools=True)[0] != load_chat_template(source)[0]


def template_format(
    template: Template, model: str | None = None, dialect: str | None = None
) -> tuple[ChatFormat, Any]:
    """The chat format and dialect object ``template`` is (see the module docs)."""
    from .lookup import resolve_format

    found = _named_format(model, dialect)
    if found is not None:
        return _checked(template, found, model or dialect or "")
    ident = template.identify()
    if ident.format is not None:
        return resolve_format(None, ident.format)
    name = _learned(template, ident)
    return resolve_format(None, name)


def _named_format(model: str | None, dialect: str | None) -> tuple[ChatFormat, Any] | None:
    """The format ``model`` / ``dialect`` name, to be checked against a template given with
    them; ``None`` when neither is given, or when only a model id is and no installed format
    is known to be its template (an id no dialect knows, or one its dialect's rows do not
    claim): the template given is then the only word on the model's format, and resolves as
    a template given alone does. A ``dialect=`` that names nothing still raises."""
    from .lookup import resolve_format

    if model is None and dialect is None:
        return None
    try:
        return resolve_format(model, dialect, warn=False)  # checked against the template
    except ToolettaError:
        if dialect is not None:
            raise
        return None


def _checked(
    template: Template, found: tuple[ChatFormat, Any], label: str
) -> tuple[ChatFormat, Any]:
    """``found`` (a format and its dialect object) once it is checked to reproduce
    ``template`` (or to be verified against its exact text); else
    :class:`~tooletta.TemplateMismatchError` naming the first difference."""
    fmt, obj = found
    checked = check_format(
        template.probed,
        fmt,
        obj,
        bos_token=template.tokens.get("bos_token"),
        eos_token=template.tokens.get("eos_token"),
    )
    if checked.format is None:
        actual = template.identify().format
        raise TemplateMismatchError(_drift(label, fmt.name, checked, actual))
    return found


def template_names(
    model: str | None,
    dialect: str | None,
    chat_template: Any = None,
    tokenizer: Any = None,
    bos_token: str | None = None,
    eos_token: str | None = None,
    *,
    tools: bool = False,
) -> tuple[str | None, str | None]:
    """``(model, dialect)`` to look a format up by: as given when no template is, else
    ``(None, the name of the template's format)`` (checked against ``model`` / ``dialect``
    when they are given too)."""
    template = read_template(chat_template, tokenizer, bos_token, eos_token, tools=tools)
    if template is None:
        return model, dialect
    fmt, _ = template_format(template, model, dialect)
    return None, fmt.name


def reads_option(template: Template, name: str) -> bool:
    """Whether ``template``'s source names ``name`` (a switch it may read)."""
    return re.search(rf"\b{re.escape(name)}\b", template.text) is not None


def check_template_options(
    chat_template: Any,
    bos_token: str | None,
    eos_token: str | None,
    fmt: ChatFormat,
    obj: Any,
    read: Any,
    defs: Any,
    options: Mapping[str, Any],
) -> None:
    """For a caller writing ``read`` with ``fmt``, the format ``chat_template`` was found to
    be (the training functions): raise :class:`~tooletta.TemplateMismatchError` when an
    option the template reads that ``fmt`` does not declare changes the template's text and
    ``fmt``'s render does not follow (see :func:`render_template_conversation`)."""
    from .render import render_text

    if not options:
        return
    template = read_template(chat_template, None, bos_token, eos_token, tools=bool(defs))
    if template is None:
        return
    unread = _unread(template, fmt, options)
    if unread:
        text = render_text(fmt, obj, read, defs, False, options)
        _check_undeclared(template, fmt, text, unread, read, defs, False, options)


def _unread(template: Template, fmt: ChatFormat, options: Mapping[str, Any]) -> list[str]:
    """The names in ``options`` that ``template``'s source reads and ``fmt`` neither takes as
    a switch nor declares unwritten (those are refused by
    :func:`~tooletta.chat.switches.refuse_unwritten`)."""
    return [
        k
        for k in options
        if k not in fmt.options
        and k not in _EVERY_FORMAT
        and k not in fmt.unwritten_options
        and reads_option(template, k)
    ]


def _check_undeclared(
    template: Template,
    fmt: ChatFormat,
    text: str,
    names: list[str],
    read: Any,
    defs: Any,
    add_generation_prompt: bool,
    options: Mapping[str, Any],
) -> None:
    """Raise :class:`~tooletta.TemplateMismatchError` when ``names`` (options the template's
    source reads that ``fmt`` does not declare) change what the template writes for this
    conversation and ``text`` (the format's render) is not what it writes with them: the
    check that ``fmt`` reproduces the template probed only the switches ``fmt`` declares, so
    an option like Nemotron 3 Super's ``low_effort`` given with a Nano id would be dropped
    silently. One Jinja render or two, only when such an option is given."""
    from .identify.placeholders import placeholder_tokens, written_as
    from .jinja import render_jinja

    tokens = placeholder_tokens(template.tokens)  # a token not given: as the drift check binds it

    def jinja(given: Mapping[str, Any]) -> str:
        return render_jinja(
            template.text,
            read,
            tools=defs,
            add_generation_prompt=add_generation_prompt,
            tokens=tokens,
            **template.identify().form.jinja_options(),
            **given,
        )

    written = _or_none(jinja, options)
    if written is not None and written_as(written, text):
        return
    without = _or_none(jinja, {k: v for k, v in options.items() if k not in names})
    if written != without:  # (the template raising with them and not without counts too)
        listed = ", ".join(repr(k) for k in names)
        raise TemplateMismatchError(
            f"the chat template reads {listed}, which {fmt.name!r} does not write, and it "
            "changes what the template writes for this conversation; pass the template alone "
            "(chat_template= without model= / dialect=) to render it as the template does"
        )


def _or_none(render: Any, options: Mapping[str, Any]) -> str | None:
    """``render(options)``, or ``None`` when the template raises."""
    try:
        return str(render(options))
    except ToolettaError:
        return None


def _drift(model: str, name: str, checked: Identification, actual: str | None) -> str:
    where = checked.first_difference() or "the template raised on nearly every probe"
    own = f"(it is {actual!r})" if actual is not None else "(Jinja renders it)"
    return (
        f"the chat template given is not {model!r}'s format {name!r} (the template wins: it "
        f"is what the model was trained on): {where}. Pass the template alone to use its "
        f"own format {own}"
    )


def _learned(template: Template, ident: Identification) -> str:
    """The name of a format learned from ``template`` (``tooletta.learn``), or a
    :class:`~tooletta.ToolettaError` saying none is known and none could be learned."""
    closest = ident.first_difference() or "no known format's markers occur in its renders"
    try:
        import tooletta

        learn = getattr(tooletta, "learn", None)
    except ImportError:  # pragma: no cover - a lazy name whose module is missing
        learn = None
    if not callable(learn):
        raise ToolettaError(
            "no known chat format reproduces this template (closest: "
            f"{closest}), and learning one (tooletta.learn) is not available in this "
            "version; pass model= or dialect= for a format you know is right, or render with "
            "render_conversation(chat_template=...), which falls back to Jinja"
        )
    learned = learn(  # refused: its LearnError (a ToolettaError) says why
        template.probed,
        bos_token=template.tokens.get("bos_token"),
        eos_token=template.tokens.get("eos_token"),
    )
    return str(learned.name)


def call_dialect(
    model: str | None,
    dialect: str | None,
    chat_template: Any = None,
    tokenizer: Any = None,
    bos_token: str | None = None,
    eos_token: str | None = None,
) -> str | None:
    """The tool-call dialect for :func:`tooletta.parse` / :func:`tooletta.stream`: the
    template's format's (checked against ``model``), else the model's format's, else the
    dialect :func:`tooletta.dialect_for_model` names; an explicit ``dialect`` must agree with a
    template (:class:`~tooletta.TemplateMismatchError`). ``None``: nothing names one."""
    from ..catalog import dialect_for_model, get_dialect, resolve_format

    template = read_template(chat_template, tokenizer, bos_token, eos_token, tools=True)
    if template is not None:
        _, obj = template_format(template, model, None)
        name = str(obj.info.name)
        if dialect is not None and get_dialect(dialect).info.name != name:
            raise TemplateMismatchError(
                f"the chat template writes calls in {name!r}, not {dialect!r}; pass the "
                "template alone"
            )
        return name
    if model is None or dialect is not None:
        return dialect
    try:
        _, obj = resolve_format(model, None, warn=False)  # its calls only, not its template
    except ToolettaError:
        return dialect_for_model(model)
    return str(obj.info.name)


def render_template_conversation(
    messages: Any,
    model: str | None,
    dialect: str | None,
    tools: Any,
    add_generation_prompt: bool,
    chat_template: Any,
    tokenizer: Any,
    bos_token: str | None,
    eos_token: str | None,
    options: Mapping[str, Any],
    allow_markup: bool = False,
) -> str:
    """:func:`tooletta.render_conversation` given a template: with ``model`` / ``dialect``
    naming a format (see ``_named_format``), that format once it is checked to
    reproduce the template (and, for an option the template reads that the format does not
    declare, to write what the template writes with it: :class:`~tooletta.TemplateMismatchError`
    when it changes the template's text and the format does not follow); else the format the
    template is identified as (its tokens as given: a token nobody gave is written as ``""``,
    as a Jinja render writes it), unless an option is set that the template reads and that
    format does not declare; else the template itself, rendered with Jinja in the message form
    it takes. A native format checks the messages as :func:`tooletta.render_conversation` does
    (markup in text refused unless ``allow_markup``)."""
    from .checks import check_conversation, guarded
    from .dropped import dropped_parts
    from .jinja import render_jinja
    from .lookup import resolve_format
    from .messages import read_conversation, read_tool_definitions
    from .render import render_text
    from .switches import refuse_unwritten

    defs = read_tool_definitions(tools)
    template = read_template(chat_template, tokenizer, bos_token, eos_token, tools=bool(defs))
    if template is None:
        raise ToolettaError("give chat_template= or tokenizer=")
    read = read_conversation(messages)
    found = _named_format(model, dialect)
    if found is not None:
        fmt, obj = _checked(template, found, model or dialect or "")
        refuse_unwritten(fmt, options)
        check_conversation(fmt, obj, read, defs, allow_markup)
        text = guarded(lambda: render_text(fmt, obj, read, defs, add_generation_prompt, options))
        unread = _unread(template, fmt, options)
        if unread:
            prompt = add_generation_prompt
            _check_undeclared(template, fmt, text, unread, read, defs, prompt, options)
        return text
    ident = template.identify(strict_tokens=True)
    if ident.format is not None:
        fmt, obj = resolve_format(None, ident.format)
        unknown = [k for k in options if k not in fmt.options and k not in _EVERY_FORMAT]
        if not any(reads_option(template, k) for k in unknown):  # (unwritten ones: Jinja)
            check_conversation(fmt, obj, read, defs, allow_markup)
            return guarded(
                lambda: render_text(fmt, obj, read, defs, add_generation_prompt, options)
            )
    text = render_jinja(
        template.text,
        read,
        tools=defs,
        add_generation_prompt=add_generation_prompt,
        tokens=template.tokens,
        **ident.form.jinja_options(),
        **options,
    )
    missing = dropped_parts(read, defs, text)
    if missing:
        warnings.warn(
            "the chat template (rendered with Jinja: no format reproduces it) left out "
            + ", ".join(missing)
            + "; the text is what the template writes, without them",
            ToolettaWarning,
            stacklevel=3,
        )
    return text
