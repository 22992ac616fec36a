"""The audit of template switches: no option a vendored template reads changes the text
silently.

For every vendored template (``plugins/*/tests/templates/*.jinja``) identified as a known
format, every switch :func:`~tooletta.chat.identify` reports as ignored (one that the
template's text names and the format does not declare in ``options``) is either

* declared in the format's ``unwritten_options`` (refused when given with a value the
  template writes otherwise; each neutral value checked here on the template),
* written by the format though not an ``options`` key (:data:`WRITTEN`: the format renders,
  with each value, what the template renders), or
* listed in :data:`NO_EFFECT`, with the evidence: the template renders the same text with the
  switch given (several values) as without it, on the probe suite.

docs/concepts/refusals.md ("Template switches and message keys") holds the table.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import RenderError
from tooletta.chat import Identification, Neutral, identify
from tooletta.chat.identify.candidates import known_formats
from tooletta.chat.jinja import render_jinja
from tooletta.chat.probes import Probe, base_probes

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = sorted(
    p for p in ROOT.glob("plugins/*/tests/templates/*.jinja") if "_template" not in p.parts
)

NO_EFFECT: dict[str, list[str]] = {
    "Apriel-1.6-15b-Thinker-fixed-566059a26.jinja": ["reasoning", "thinking"],
    "Apriel-1.6-15b-Thinker-fixed.jinja": ["reasoning", "thinking"],
    "ByteDance-Seed-OSS.jinja": ["reasoning", "thinking"],
    "ServiceNow-AI-Apriel-1.6-15b-Thinker.jinja": ["reasoning", "thinking"],
    "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja": ["reasoning", "thinking"],
    "CohereLabs-North-Mini-Code-1.0.jinja": ["thinking"],
    "GigaChat3-10B-A1.8B.jinja": ["reasoning"],
    "GigaChat3.1-10B-A1.8B-2607.jinja": ["reasoning"],
    "GigaChat3.1-10B-A1.8B.jinja": ["reasoning"],
    "Kimi-K2.6.jinja": ["reasoning"],
    "Kimi-K2.7-Code.jinja": ["reasoning"],
    "Kimi-K3.jinja": ["reasoning"],
    "LFM2.5-230M-13a5383.jinja": ["reasoning", "thinking"],
    "LFM2.5-8B-A1B.jinja": ["thinking"],
    "MiniMax-M2.5.jinja": ["thinking"],
    "MiniMax-M2.7.jinja": ["thinking"],
    "MiniMax-M2.jinja": ["thinking"],
    "MiniMaxAI-MiniMax-M2.1.jinja": ["thinking"],
    "MiniMaxAI-MiniMax-M2.jinja": ["thinking"],
    "MiniMax-M3.jinja": ["reasoning", "thinking"],
    "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja": ["reasoning"],
    "NVIDIA-Nemotron-3-Super-120B-A12B-BF16.jinja": ["reasoning"],
    "NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.jinja": ["reasoning"],
    "NVIDIA-Nemotron-3.5-Lightning.jinja": ["reasoning"],
    "Nemotron-Cascade-2-30B-A3B.jinja": ["reasoning", "thinking"],
    "Llama-3_3-Nemotron-Super-49B-v1_5.jinja": ["enable_thinking"],
    "NVIDIA-Nemotron-Nano-12B-v2.jinja": ["enable_thinking"],
    "NVIDIA-Nemotron-Nano-v2.jinja": ["enable_thinking"],
    "Qwen3-Coder-30B-A3B-Instruct.jinja": ["reasoning"],
    "Qwen3-Coder-Next.jinja": ["reasoning"],
    "Qwen3-Coder.jinja": ["reasoning"],
    "Qwen3.5-2B.jinja": ["reasoning"],
    "Qwen3.5-4B.jinja": ["reasoning"],
    "Qwen-AgentWorld-35B-A3B.jinja": ["reasoning"],
    "Qwen3.6-27B.jinja": ["reasoning"],
    "deepseek-ai-DeepSeek-V3.2.jinja": ["thinking_mode"],
    "google-gemma-4-31B-it-2604.jinja": ["reasoning", "thinking"],
    "google-gemma-4-31B-it-2607.jinja": ["reasoning", "thinking"],
    "google-gemma-4-31B-it-interleaved.jinja": ["reasoning"],
    "google-gemma-4-31B-it.jinja": ["reasoning", "thinking"],
    "google-gemma-4-E4B-it.jinja": ["reasoning", "thinking"],
    "granite-3.2-instruct-2607.jinja": ["reasoning"],
    "granite-3.3-instruct-2607.jinja": ["reasoning"],
    "ibm-granite-granite-3.3-2B-Instruct.jinja": ["reasoning"],
    "inclusionAI-Ling-2.6-flash.jinja": ["thinking"],  # sets its own thinking_option
    "llama.cpp-unsloth-Apriel-1.5.jinja": ["reasoning", "thinking"],
    "meta-llama-Llama-4-Scout-17B-16E-Instruct.jinja": ["date_string"],
    "mistralai-Ministral-3-14B-Reasoning-2512.jinja": ["thinking"],
    "mistralai-Ministral-3-3B-Reasoning-2512.jinja": ["reasoning", "thinking"],
    "mistralai-Leanstral-1.5-119B-A6B.jinja": ["reasoning", "thinking"],
    "mistralai-Mistral-Large-3-675B-Instruct-2512.jinja": ["reasoning", "thinking"],
    "mistralai-Mistral-Medium-3.5-128B.jinja": ["reasoning", "thinking"],
    "mistralai-Mistral-Small-4-119B-2603.jinja": ["reasoning", "thinking"],
    "openai-gpt-oss-120b.jinja": ["reasoning", "thinking"],
    "openai-gpt-oss-safeguard-20b.jinja": ["reasoning", "thinking"],
    "tencent-Hy3.jinja": ["reasoning"],
    "tencent-Hy3-preview.jinja": ["reasoning"],
    "unsloth-Apriel-1.5.jinja": ["reasoning", "thinking"],
    "unsloth-mistral-Devstral-Small-2507.jinja": ["reasoning"],
    "upstage-Solar-Open-100B.jinja": ["reasoning"],
}
"""Per template, the ignored switches that never change its text: each is read as a message
key (``message.reasoning``, ``message.thinking``), or set by the template itself before it
is read (Llama 4's ``date_string``, DeepSeek V3.2's ``thinking_mode``, Nemotron Nano v2's
``enable_thinking``), never as a variable the caller gives."""

WRITTEN: dict[str, list[str]] = {
    "CohereLabs-North-Mini-Code-1.0.jinja": ["reasoning_effort"],
    "deepseek-ai-DeepSeek-V3.1.jinja": ["thinking"],
    "deepseek-ai-DeepSeek-V3.2.jinja": ["thinking"],
}
"""Per template, the ignored switches the format writes though they are not keys of its
``options`` (its generation prompt reads them: north_mini_code's ``reasoning_effort`` unsets
``reasoning``, DeepSeek V3.1/V3.2's ``thinking`` opens the reasoning)."""

VALUES: tuple[Any, ...] = (
    True,
    False,
    None,
    "",
    0,
    1,
    "x",
    "none",
    "high",
    "enabled",
    "required",
    {"type": "json_object"},
)
"""The values each switch is given (booleans, the falsy values, strings, an effort, a mode,
a tool choice, an object)."""

_FORMATS = {name: fmt for name, fmt, _ in known_formats()}


@cache
def _identified(path: Path) -> Identification:
    return identify(path.read_text(encoding="utf-8"))


def _jinja(path: Path, probe: Probe, **options: Any) -> str | None:
    """The template's text for ``probe`` (``None``: it raises on it)."""
    found = _identified(path)
    tokens = {k: found.tokens.get(k, "") for k in ("bos_token", "eos_token")}
    try:
        return render_jinja(
            path.read_text(encoding="utf-8"),
            found.form.messages(probe.messages),
            tools=list(probe.tools) or None,
            add_generation_prompt=probe.add_generation_prompt,
            tokens=tokens,
            **found.form.jinja_options(),
            **options,
        )
    except tooletta.ToolettaError:
        return None


def _ours(path: Path, probe: Probe, **options: Any) -> str | RenderError:
    """The identified format's text for ``probe``, or the error it refuses it with."""
    try:
        return tooletta.render_conversation(
            list(probe.messages),
            dialect=_identified(path).format,
            tools=list(probe.tools) or None,
            add_generation_prompt=probe.add_generation_prompt,
            **options,
        )
    except RenderError as exc:
        return exc


def _identified_templates() -> list[Path]:
    return [p for p in TEMPLATES if _identified(p).format is not None]


@pytest.mark.parametrize("path", _identified_templates(), ids=lambda p: p.name)
def test_every_ignored_switch_is_declared_written_or_without_effect(path: Path) -> None:
    found = _identified(path)
    fmt = _FORMATS[found.format or ""]
    for switch in found.ignored_switches:
        known = (
            switch in fmt.unwritten_options
            or switch in WRITTEN.get(path.name, ())
            or switch in NO_EFFECT.get(path.name, ())
        )
        assert known, f"{path.name}: {switch!r} ({found.format}) is not in the audit"


@pytest.mark.parametrize(
    ("path", "switch"),
    [(p, s) for p in TEMPLATES for s in NO_EFFECT.get(p.name, ())],
    ids=lambda x: x.name if isinstance(x, Path) else x,
)
def test_a_switch_without_effect_never_changes_the_text(path: Path, switch: str) -> None:
    for probe in base_probes():
        plain = _jinja(path, probe)
        if plain is None:
            continue
        for value in VALUES:
            assert _jinja(path, probe, **{switch: value}) == plain, (probe.name, value)


@pytest.mark.parametrize(
    ("path", "switch"),
    [(p, s) for p in TEMPLATES for s in WRITTEN.get(p.name, ())],
    ids=lambda x: x.name if isinstance(x, Path) else x,
)
def test_a_written_switch_renders_as_the_template(path: Path, switch: str) -> None:
    changed = False
    for probe in base_probes():
        plain = _jinja(path, probe)
        if plain is None or plain != _ours(path, probe):
            continue  # a probe the format does not write as the template (identify says)
        for value in VALUES:
            given = _jinja(path, probe, **{switch: value})
            changed = changed or given != plain
            assert _ours(path, probe, **{switch: value}) == given, (probe.name, value)
    assert changed, "the switch never changes the text: list it in NO_EFFECT"


def _declared() -> list[tuple[Path, str]]:
    return [
        (p, s)
        for p in _identified_templates()
        for s in _FORMATS[_identified(p).format or ""].unwritten_options
    ]


@pytest.mark.parametrize(
    ("path", "switch"), _declared(), ids=lambda x: x.name if isinstance(x, Path) else x
)
def test_a_declared_switch_is_neutral_as_declared_and_refused_otherwise(
    path: Path, switch: str
) -> None:
    """Each neutral value renders as the switch not given, with the template and with the
    format; some value changes the template's text, and every such value is refused."""
    fmt = _FORMATS[_identified(path).format or ""]
    declared = fmt.unwritten_options[switch]
    neutral = declared.values if isinstance(declared, Neutral) else (declared,)
    refused = 0
    for probe in base_probes():
        plain = _jinja(path, probe)
        if plain is None:
            continue
        written = plain == _ours(path, probe)
        for value in neutral:
            assert _jinja(path, probe, **{switch: value}) == plain, (probe.name, value)
            if written:
                assert _ours(path, probe, **{switch: value}) == plain, (probe.name, value)
        for value in VALUES:
            if written and _jinja(path, probe, **{switch: value}) != plain:
                refused += 1
                got = _ours(path, probe, **{switch: value})
                assert isinstance(got, RenderError), (probe.name, value)
                assert repr(switch) in str(got)
    assert refused, f"{switch!r} never changes the text of {path.name}: not to be declared"


# Message keys: a key the template reads on a message (its source names it: ``message.key``,
# ``message['key']``) and whose value changes the text is written by the format or refused.

_KEY_PROBES = ("system_prompt", "multi_turn", "tools_system_prompt", "one_call", "parallel_calls")
_KEY_VALUE = "KEYVAL"
_ROLES = ("system", "user", "assistant", "tool")
_READ_ANYWAY = frozenset(
    {"role", "content", "tool_calls", "reasoning_content", "reasoning", "thinking", "name"}
    | {"tool_call_id", "id", "type", "function", "arguments", "text"}
)
"""Keys every format reads from a message (its fields, and a reasoning key's other names
lifted into its reasoning); ``name`` and ``tool_call_id`` are checked all the same."""


def _message_keys(source: str) -> list[str]:
    """The names the template reads as an attribute or a constant item of any value."""
    import re

    import jinja2
    from jinja2 import nodes

    env = jinja2.Environment(extensions=["jinja2.ext.loopcontrols"])
    tree = env.parse(re.sub(r"\{%-?\s*(end)?generation\s*-?%\}", "", source))
    names = {n.attr for n in tree.find_all(nodes.Getattr)}
    names |= {
        n.arg.value
        for n in tree.find_all(nodes.Getitem)
        if isinstance(n.arg, nodes.Const) and isinstance(n.arg.value, str)
    }
    return sorted((names - _READ_ANYWAY) | {"name", "tool_call_id"})


def _with_key(probe: Probe, role: str, key: str, value: Any, first_only: bool) -> Probe:
    """``probe`` with ``key`` set on its messages of ``role`` (the first message only)."""
    from msgspec.structs import replace

    def set_key(at: int, message: Any) -> Any:
        if message.role != role or (first_only and at):
            return message
        if key in ("name", "tool_call_id"):
            return replace(message, **{key: value})
        return replace(message, extra={**message.extra, key: value})

    messages = tuple(set_key(at, m) for at, m in enumerate(probe.messages))
    return Probe(probe.name, messages, probe.tools, probe.add_generation_prompt)


def _key_probes() -> list[Probe]:
    return [p for p in base_probes() if p.name in _KEY_PROBES]


@pytest.mark.parametrize("path", _identified_templates(), ids=lambda p: p.name)
def test_every_message_key_that_changes_the_text_is_written_or_refused(path: Path) -> None:
    for key in _message_keys(path.read_text(encoding="utf-8")):
        for role in _ROLES:
            for probe in _key_probes():
                if not any(m.role == role for m in probe.messages):
                    continue
                if key in ("name", "tool_call_id") and any(
                    getattr(m, key) for m in probe.messages if m.role == role
                ):
                    continue  # the probe gives it already
                given = _with_key(probe, role, key, _KEY_VALUE, first_only=False)
                plain, text = _jinja(path, probe), _jinja(path, given)
                if plain is None or text is None or text == plain or _ours(path, probe) != plain:
                    continue
                got = _ours(path, given)
                assert got == text or isinstance(got, RenderError), (key, role, probe.name)


def _declared_fields() -> list[tuple[Path, str, str]]:
    return [
        (p, role, key)
        for p in _identified_templates()
        for role, keys in _FORMATS[_identified(p).format or ""].unwritten_fields.items()
        for key in keys
    ]


@pytest.mark.parametrize(
    ("path", "role", "key"),
    _declared_fields(),
    ids=lambda x: x.name if isinstance(x, Path) else x,
)
def test_a_declared_key_is_neutral_as_declared_and_refused_otherwise(
    path: Path, role: str, key: str
) -> None:
    from tooletta.chat import FirstMessageKeys

    table = _FORMATS[_identified(path).format or ""].unwritten_fields[role]
    first = isinstance(table, FirstMessageKeys)
    declared = table[key]
    neutral = declared.values if isinstance(declared, Neutral) else (declared,)
    refused = 0
    for probe in _key_probes():
        plain = _jinja(path, probe)
        if plain is None or not any(m.role == role for m in probe.messages):
            continue
        written = plain == _ours(path, probe)
        for value in neutral:
            given = _with_key(probe, role, key, value, first)
            assert _jinja(path, given) == plain, (probe.name, value)
            if written:
                assert _ours(path, given) == plain, (probe.name, value)
        given = _with_key(probe, role, key, _KEY_VALUE, first)
        if written and _jinja(path, given) != plain:
            refused += 1
            got = _ours(path, given)
            assert isinstance(got, RenderError), probe.name
            assert repr(key) in str(got)
    assert refused, f"{role}.{key} never changes the text of {path.name}: not to be declared"


def _doc_rows() -> dict[str, set[str]]:
    """docs/concepts/refusals.md's audit table: per format named in its first column (a row
    with that column empty continues the row above), the names in its second column."""
    import re

    text = (ROOT / "docs" / "concepts" / "refusals.md").read_text(encoding="utf-8")
    table = text.split("## Template switches and message keys", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, set[str]] = {}
    formats: list[str] = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0].startswith(("Format", "---")):
            continue
        if cells[0]:
            formats = re.findall(r"`([^`]+)`", cells[0].split("(")[0])
        for name in formats:
            rows.setdefault(name, set()).update(re.findall(r"`([^`]+)`", cells[1]))
    return rows


def test_the_docs_table_lists_every_declared_switch_and_key() -> None:
    rows = _doc_rows()
    for name, fmt in _FORMATS.items():
        declared = set(fmt.unwritten_options)
        declared |= {k for keys in fmt.unwritten_fields.values() for k in keys}
        assert declared <= rows.get(name, set()), (name, declared - rows.get(name, set()))
