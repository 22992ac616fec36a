"""Learn a model's chat template: a declarative format inferred by probing, verified in a loop.

:func:`learn` renders a fixed suite of probe conversations with the template (Jinja, through
:mod:`tooletta.chat.jinja`), infers from their differences a spec of the conversation format
and of its tool calls (an installed dialect when one writes them byte for byte, else a
learned JSON-in-markers dialect), builds the :class:`~tooletta.chat.ChatFormat` and the dialect
object the spec declares, and checks them against the template on every probe (render byte for
byte, parse back, stream under every chunking). Only then is the format registered under its
name, so that ``render_conversation(dialect=name)``, ``parse_conversation``, ``render``,
``parse`` and ``stream`` work with it, without Jinja. Anything short is a
:class:`~tooletta.LearnError` naming the probe and the difference: never a silently wrong format.

A learned format is saved as a JSON spec (:meth:`~tooletta.chat.learn.Learned.save`) and registered
again by
:func:`~tooletta.chat.learn.load_learned`, without Jinja.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import LearnedSpecError, LearnError, ToolettaError
from ..jinja import load_chat_template
from .chatspec import SPEC_VERSION, SPEC_VERSIONS_READ, LearnedChat
from .dialects import make_dialect
from .infer import fit_suite, infer_spec, spec_json, switches_of, variables_of
from .oracle import Oracle
from .probes import SUITE_VERSION, Probe, empty_answer_probes
from .specschema import check_spec
from .verify import check_probe, sample_probes, verify

__all__ = ["Learned", "dialect_from_spec", "learn", "learned_formats", "load_learned"]


@dataclass
class Learned:
    """A learned chat format, registered for this process under :attr:`name`."""

    name: str
    """The name ``render_conversation(dialect=...)`` and the other functions accept."""
    dialect: str | None
    """The tool-call dialect, an installed dialect's name, this format's own name (a learned
    JSON dialect), or ``None`` when the template writes no calls."""
    spec: dict[str, Any]
    """The JSON-serialisable spec (what :meth:`save` writes)."""
    format: LearnedChat = field(repr=False)
    """The :class:`~tooletta.chat.ChatFormat` the spec declares."""
    checks: int = 0
    """How many closed-loop checks passed (0 for a format loaded from a file)."""
    handle: Any = field(default=None, repr=False, compare=False)
    """The dialect object registered under :attr:`name` (its ``chat_formats`` hold
    :attr:`format`)."""

    @property
    def deviations(self) -> list[str]:
        """Where the template contradicts itself and the learned format keeps the consistent
        form (only with ``learn(..., lenient=True)``): each a probe and its first difference."""
        return list(self.spec.get("deviations", []))

    @property
    def source(self) -> str:
        """Where the template came from (a path, or ``"template text"``)."""
        return str(self.spec.get("source", ""))

    def save(self, path: str | Path) -> None:
        """Write the spec as a JSON file (:func:`~tooletta.chat.learn.load_learned` reads it
        back)."""
        Path(path).write_text(spec_json(self.spec) + "\n", encoding="utf-8")

    def summary(self) -> str:
        """One line: the name, the tool-call dialect and the evidence."""
        calls = self.spec["calls"]
        how = {
            "installed": f"calls written by the installed dialect {calls.get('dialect')!r}"
            + (f" joined by {calls['between']!r}" if calls.get("between") is not None else ""),
            "json": f"calls learned as JSON in {calls.get('open')!r}...{calls.get('close')!r}",
            "none": "no tool calls",
        }[calls["kind"]]
        return f"learned as {self.name!r}: {how}; {self.checks} closed-loop checks passed"


_LEARNED: dict[str, Learned] = {}


def learned_formats() -> list[Learned]:
    """The formats learned or loaded in this process."""
    return list(_LEARNED.values())


def _template_of(
    template: str | Mapping[str, Any], bos_token: str | None, eos_token: str | None
) -> tuple[str, dict[str, str], str]:
    if isinstance(template, Mapping):
        text = template.get("chat_template")
        if not isinstance(text, str):
            raise LearnError("the tokenizer config holds no chat_template text")
        tokens = {
            k: str(v.get("content", "") if isinstance(v, Mapping) else v)
            for k in ("bos_token", "eos_token")
            if (v := template.get(k))
        }
        source = "tokenizer config"
    elif isinstance(template, str):
        try:
            text, tokens = load_chat_template(template, tools=True)
        except ToolettaError as exc:
            raise LearnError(str(exc)) from None
        source = "template text" if text == template else template
    else:
        raise LearnError(f"template must be text, a path or a dict, not {type(template).__name__}")
    if bos_token is not None:
        tokens["bos_token"] = bos_token
    if eos_token is not None:
        tokens["eos_token"] = eos_token
    return text, tokens, source


def learn(
    template: str | Mapping[str, Any],
    *,
    bos_token: str | None = None,
    eos_token: str | None = None,
    name: str | None = None,
    lenient: bool = False,
    **options: Any,
) -> Learned:
    """Learn ``template`` (Jinja text, a ``chat_template.jinja`` / ``tokenizer_config.json``
    path, or a tokenizer config dict) and register the learned format under ``name``
    (default: ``learned-`` and the start of a SHA-256 of the template, its special tokens and
    ``options``).

    ``lenient=True`` accepts a template that contradicts itself on a variant probe (Bielik's
    writes grouped tool results differently after a system message, an off-by-one in its
    loop): the learned format keeps the consistent form and the differences are listed in
    :attr:`~tooletta.chat.learn.Learned.deviations` (and the spec). ``options`` are template
    switches fixed while
    learning (``enable_thinking=True``...);
    other switches the template reads are probed: one that changes only the generation
    prompt is learned as a prompt switch, one that changes more is fixed at the values that
    render as learned (rendering with another value is refused, naming it); so is every
    other variable the template reads (SmolLM3's ``custom_instructions``), at the values
    (``None``, ``False``, ``""``...) under which it writes what it writes without it.

    Raises :class:`~tooletta.LearnError` (with ``.reason``) when the template cannot be
    learned or the learned format fails the closed loop. Needs jinja2 (``pip install
    'tooletta-core[jinja]'``).
    """
    text, tokens, source = _template_of(template, bos_token, eos_token)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if name is None:  # the template, its tokens and the options fixed: one format
        key = json.dumps([digest, tokens, options], sort_keys=True, default=repr)
        name = "learned-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:10]
    known = _LEARNED.get(name)
    if (
        known is not None
        and known.spec.get("template_sha256") == digest
        and known.checks
        and known.spec["chat"]["options"] == options
        and bool(known.spec.get("deviations")) <= lenient
        and _registered(known)
    ):
        return known
    oracle = Oracle(text, tokens, options)
    switches = [s for s in switches_of(text) if s not in options]
    others = [v for v in variables_of(text) if v not in options and v not in switches]
    spec, suite = infer_spec(oracle, tokens.get("bos_token", ""), switches, others)
    spec.update(
        name=name,
        source=source,
        template_sha256=digest,
        spec_version=SPEC_VERSION,
        probe_suite=SUITE_VERSION,
        tokens=tokens,
    )
    fmt, dialect = _build(spec)
    if spec["chat"]["late_system"]:
        late = [p for p in suite if p.name == "system-late"]
        try:
            check_probe(fmt, dialect, oracle, late[0])
        except LearnError:  # written elsewhere (moved to the start...): refused at render
            spec["chat"]["late_system"] = False
            suite = [p for p in suite if p.name != "system-late"]
            fmt, dialect = _build(spec)
    suite += _empty_answers(spec, oracle)
    if spec["chat"].get("empty_answer") is False:
        fmt, dialect = _build(spec)
    suite = [
        *suite,
        *fit_suite(
            spec["chat"],
            sample_probes(
                spec["calls"]["kind"] != "none" or spec["chat"]["tools"] is not None,
                spec["chat"]["system"],
            ),
        ),
    ]
    allowed = {
        s: [v for v in (True, False) if v in spec["chat"]["fixed"].get(s, [True, False])]
        for s in switches
    }
    deviations: list[str] | None = [] if lenient else None
    checks = verify(fmt, dialect, oracle, suite, allowed, deviations)
    spec["deviations"] = deviations or []
    learned = Learned(name, _calls_dialect(spec), spec, fmt, checks)
    _register(learned, dialect)
    return learned


def _empty_answers(spec: dict[str, Any], oracle: Oracle) -> list[Probe]:
    """The empty-answer probes when the format ``spec`` declares writes them as the
    template does (then checked by the closed loop); else none, and the spec refuses empty
    answers (``chat.empty_answer``: EXAONE 4.0 writes no think block for them)."""
    probes = empty_answer_probes()
    fmt, dialect = _build(spec)
    try:
        for probe in probes:
            check_probe(fmt, dialect, oracle, probe)
    except LearnError:
        spec["chat"]["empty_answer"] = False
        return []
    return probes


def _calls_dialect(spec: Mapping[str, Any]) -> str | None:
    calls = spec["calls"]
    if calls["kind"] == "installed":
        return str(calls["dialect"])
    return str(spec["name"]) if calls["kind"] == "json" else None


def _build(spec: Mapping[str, Any], where: str = "the learned spec") -> tuple[LearnedChat, Any]:
    check_spec(spec, where)
    fmt = LearnedChat.of(spec)
    rsn = spec["chat"]["reasoning"]
    markers = (rsn["open"], rsn["close"]) if rsn else None
    calls = {**spec["calls"], "source": spec["source"]}
    dialect = make_dialect(str(spec["name"]), calls, markers, (fmt,))
    vars(dialect)["learned_spec"] = spec  # tooletta.interop.hf exports it from the spec
    return fmt, dialect


def _registered(learned: Learned) -> bool:
    """``learned`` is still the dialect registered under its name (the registry may have been
    reloaded since)."""
    from ...plugins import get_registry

    holder = get_registry().holder(learned.name)
    return holder is not None and holder.dialect is learned.handle


def _register(learned: Learned, dialect: Any) -> None:
    from ...plugins import get_registry

    registry = get_registry()
    holder = registry.holder(learned.name)
    if holder is not None:
        previous = _LEARNED.get(learned.name)
        if previous is None or holder.dialect is not previous.handle:
            raise LearnError(
                f"the name {learned.name!r} is taken by the dialect {holder.info.name!r} "
                f"({holder.plugin}); pass another name="
            )
        if previous.spec != learned.spec:
            raise LearnError(
                f"a different format was already learned as {learned.name!r} in this process; "
                "pass another name="
            )
        learned.handle = previous.handle
        learned.format = previous.format
        _LEARNED[learned.name] = learned
        return
    registry.add(dialect, plugin=f"learned ({learned.source})")
    learned.handle = dialect
    _LEARNED[learned.name] = learned


def dialect_from_spec(spec: Mapping[str, Any]) -> Any:
    """The dialect object a saved spec declares (its ``chat_formats`` hold the learned
    conversation format), not registered: what a plugin shipping a learned format registers
    from its ``register_dialects`` hook."""
    _check_version(dict(spec) if isinstance(spec, Mapping) else spec, "the learned spec")
    try:
        return _build(spec)[1]
    except (KeyError, TypeError, ValueError) as exc:
        raise LearnedSpecError(f"malformed learned spec ({type(exc).__name__}: {exc})") from None


def _check_version(spec: Any, path: str | Path) -> None:
    """Refuse what is no learned spec, or one of a layout this version does not read (a
    newer one: written by a later tooletta)."""
    version = spec.get("spec_version") if isinstance(spec, dict) else None
    if type(version) is not int:
        raise LearnedSpecError(f"{path}: not a learned spec (no integer spec_version)")
    if version not in SPEC_VERSIONS_READ:
        newer = version > SPEC_VERSION
        raise LearnedSpecError(
            f"{path}: a learned spec of version {version}; this tooletta reads versions "
            f"{', '.join(map(str, sorted(SPEC_VERSIONS_READ)))}"
            + (" (upgrade tooletta, or learn the template again)" if newer else "")
        )


def load_learned(path: str | Path) -> Learned:
    """Register the learned format saved at ``path`` (by :meth:`~tooletta.chat.learn.Learned.save`)
    for this
    process, without Jinja and without probing again (the spec names the template's hash and
    the probe suite it passed)."""
    try:
        spec = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LearnedSpecError(f"cannot read the learned spec {path}: {exc}") from None
    _check_version(spec, path)
    try:
        fmt, dialect = _build(spec, str(path))
    except (KeyError, TypeError, ValueError) as exc:
        raise LearnedSpecError(
            f"{path}: malformed learned spec ({type(exc).__name__}: {exc})"
        ) from None
    learned = Learned(str(spec["name"]), _calls_dialect(spec), spec, fmt)
    _register(learned, dialect)
    return learned
