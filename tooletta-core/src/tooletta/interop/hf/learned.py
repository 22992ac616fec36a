"""A learned format's Hugging Face ``response_template`` (transformers' ``parse_response``).

Where the spec (:mod:`tooletta.interop.hf.spec`) can express a learned format's replies, the
template is built from what was learned, never from the template's text:

* calls learned as JSON objects between markers (``calls.kind == "json"``): one repeating
  ``tool_calls`` region from the opening marker to the closing one, its value JSON, shaped by
  the learned name and arguments keys;
* calls an installed dialect writes (``"installed"``): that dialect's own export
  (:func:`tooletta.interop.hf.to_response_template`), re-anchored on the learned assistant
  header and ending its content at the learned end of turn; calls the template joins by
  other whitespace than the dialect (``between``) too, as the dialect's call region allows
  whitespace around a call (other text between calls is a gap);
* reasoning, when the format has a reasoning block, as ``reasoning_content`` between its tags.

The reply is anchored on the assistant header (stripped: the generation prompt may leave out
its trailing space) and its content ends at the learned end-of-turn token. Where the spec
cannot express the format, :func:`hf_gap` gives the one-line reason (as the dialects'
``response_template_gap`` does), and :func:`learned_response_template` raises
:class:`~tooletta.ToolettaError` with it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from ...errors import ToolettaError
from ._export import LEARNED_EXPORT, declared_export, to_response_template
from .spec import Export

__all__ = ["hf_gap", "learned_export", "learned_response_template"]

_WORD = re.compile(r"\w+")


def _anchor(chat: Mapping[str, Any]) -> str:
    """The text a reply starts after: the assistant header, else the generation prompt."""
    header = str(chat["turns"]["assistant"][0]).strip()
    if header:
        return header
    prompts = chat.get("prompts") or []
    return str(prompts[0][1]).strip() if prompts else ""


def _installed_gap(name: str) -> str:
    from ...catalog import get_dialect

    try:
        export = declared_export(get_dialect(name))
    except ToolettaError as exc:
        return f"its calls are written by {name!r}, whose response_template does not load: {exc}"
    if export is None or export.template is None:
        reason = export.gap if export is not None else "it has no response_template yet"
        return f"its calls are written by {name!r}, which has no response_template: {reason}"
    return ""


def hf_gap(spec: Mapping[str, Any]) -> str:
    """Why a learned format's replies cannot be written as a ``response_template`` (``""``:
    they can). ``spec``: the learned spec (:attr:`tooletta.chat.learn.Learned.spec`)."""
    gap = _own_gap(spec)
    if gap or spec["calls"]["kind"] != "installed":
        return gap
    return _installed_gap(str(spec["calls"]["dialect"]))


def learned_export(spec: Mapping[str, Any]) -> Export:
    """A learned format's ``response_template`` declaration
    (:class:`~tooletta.interop.hf.spec.Export`): the template, built when asked for, or the
    reason it cannot be written. :func:`~tooletta.interop.hf.to_response_template` asks it
    for a dialect that :func:`tooletta.learn` built (its ``learned_spec``)."""
    gap = _own_gap(spec)
    if gap:
        return Export(gap=gap)
    return Export(lambda: learned_response_template(spec))


def _own_gap(spec: Mapping[str, Any]) -> str:
    """:func:`hf_gap` without asking an installed dialect for its own export."""
    calls, chat = spec["calls"], spec["chat"]
    if calls["kind"] == "none":
        return "the template writes no tool calls: a template would hold content only"
    if not _anchor(chat):
        return "the assistant turn has no header to anchor the reply on"
    if calls["kind"] == "installed":
        between = calls.get("between")
        if between is not None and str(between).strip():
            return (
                f"the calls are joined by {between!r}, not as {calls['dialect']!r} joins them: "
                "its response template would read that text as content"
            )
        return ""
    if not str(calls["close"]).strip():
        return (
            "each call has no closing marker: a region ends at a pattern, and the end of a "
            "JSON value is not one"
        )
    for key in ("between", "trailer", "head", "tail"):
        if str(calls[key]).strip():
            return (
                f"the calls carry fixed text outside their JSON ({key} {calls[key]!r}), which "
                "the spec would read as content"
            )
    if not all(_WORD.fullmatch(str(calls[k])) for k in ("name_key", "args_key")):
        return "the call object's keys are not plain words, which a transform cannot name"
    return ""


def learned_response_template(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The ``response_template`` for the learned format ``spec`` declares (a fresh dict: store
    it as ``tokenizer.response_template``). Raises :class:`~tooletta.ToolettaError` with the
    reason (:func:`hf_gap`) where the spec cannot express it."""
    gap = hf_gap(spec)
    if gap:
        raise ToolettaError(f"learned format {spec.get('name')!r} has no response_template: {gap}")
    from .spec import FUNCTION, escape, region, template, think

    calls, chat = spec["calls"], spec["chat"]
    end = str(chat["end_of_turn"]).strip()
    ends = (end,) if end else ()
    rsn = chat.get("reasoning")
    reasoning = None
    if rsn and str(rsn["open"]).strip() and str(rsn["close"]).strip():
        reasoning = think(str(rsn["open"]).strip(), str(rsn["close"]).strip())
    if calls["kind"] == "installed":
        return _reanchored(str(calls["dialect"]), _anchor(chat), ends, reasoning)
    name_key, args_key = str(calls["name_key"]), str(calls["args_key"])
    transform: dict[str, Any] = FUNCTION
    if (name_key, args_key) != ("name", "arguments"):
        transform = {
            "type": "function",
            "function": {"name": f"{{content.{name_key}}}", "arguments": f"{{content.{args_key}}}"},
        }
    field = region(
        r"\s*" + escape(str(calls["open"])) + r"\s*",
        r"\s*" + escape(str(calls["close"])) + r"\s*",
        content="json",
        transform=transform,
    )
    return copy.deepcopy(template(_anchor(chat), field, ends=ends, reasoning=reasoning))


def _reanchored(
    dialect: str, anchor: str, ends: tuple[str, ...], reasoning: dict[str, Any] | None
) -> dict[str, Any]:
    """``dialect``'s own template, starting after ``anchor``, its content ending at ``ends``
    and its reasoning (when the learned format has one) between the learned tags."""
    from .spec import escape

    out = to_response_template(dialect)
    out["start_anchor"] = anchor
    out.pop("start_anchor_pattern", None)
    fields = out.setdefault("fields", {})
    content = fields.get("content")
    if ends and isinstance(content, dict):
        content.pop("close", None)
        content["close_pattern"] = r"\s*(?:" + "|".join(escape(e) for e in ends) + r")\s*"
    if reasoning is not None:
        fields["reasoning_content"] = reasoning
    return out


LEARNED_EXPORT[:] = [learned_export]
