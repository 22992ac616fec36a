"""Issue 20 item 6: conversation formats are declarations; a hook a format overrides is one
of its template's oddities, and says which.

The declarations that both write and read (:mod:`tooletta.chat.declare`) took over what the
formats wrote by hand: the count below only goes down (``scripts/hook_overrides.py -v``
lists them), and every remaining override's docstring names the oddity it is.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_OVERRIDES = 196
"""The hook overrides of the first-party formats (383 before the declarations). 178 from 177:
Gemma 4's revised template (``gemma4-2604``) writes an opening system message given as
content parts part by part, each trimmed and followed by a space, an oddity no declaration
expresses (its ``system_text``). 179: GLM-5.1's template (``glm51``) writes a turn after the
last user message without reasoning as an empty block with thinking on but as a lone
``</think>`` with thinking off, a history rule that depends on both the option and the turn's
reasoning, which no keep rule expresses (its ``kept_in``; its blocks are declared).
184: MiniMax-M3's template (``minimax_m3``), a format of its own, writes five oddities no
declaration expresses: a lone ``</mm:think>`` for a turn without reasoning in every turn and in the
model's own turn (``reasoning_text``; read back by ``parse_turn``), three generation prompts by
``thinking_mode`` (``generation_prompt``), and call arguments with ``None`` members left out
and empty objects and arrays nested in a value written as empty elements (``calls_text``;
``expressible`` says what reads back). The calls dialect ``minimax_m3`` writes the rest of the
template's form itself (the block right after the content, an empty argument as an empty
element), but not those two: they would not read back from the dialect's own text (law 1).
190: North Mini Code's template (``north_mini_code``), a Cohere format of its own,
writes a fixed opening system turn (platform text and a fenced tool list, the system message a
turn of its own: ``system_text``, ``parse_system``), every text inside ``<|START_TEXT|>`` with the
action block right after the reasoning (``turn_body``, read back by ``parse_turn``) and each tool
result as a renumbered JSON object wrapping the text as ``{"content": ...}`` (``result_text``,
``parse_result``).
196: Gemma 4's canonical template of July 2026 (``gemma4-2607``) writes six oddities no
declaration expresses: its history rule is the union of two (every turn after the last user
message, and with ``preserve_thinking`` every turn with calls: ``kept_in``, and
``expressible_for`` carrying it under the caller's options), the model's turn closed after its
results only when a user or system message follows (``before_turn``, read back by
``skip_before_turn``), a thought cue after results that calls awaiting results do not get
(``generation_prompt``), and two answers in a row written as one text, refused
(``assistant_text``)."""


def _script() -> object:
    spec = importlib.util.spec_from_file_location(
        "hook_overrides", ROOT / "scripts" / "hook_overrides.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def overrides() -> set[tuple[type, str]]:
    found: set[tuple[type, str]] = _script().overrides()  # type: ignore[attr-defined]
    return found


def test_overrides_do_not_grow(overrides: set[tuple[type, str]]) -> None:
    assert len(overrides) <= MAX_OVERRIDES, (
        f"{len(overrides)} hook overrides (at most {MAX_OVERRIDES}): declare the piece "
        "(tooletta.chat.declare) instead of overriding its hook"
    )


def test_every_override_names_its_oddity(overrides: set[tuple[type, str]]) -> None:
    silent = sorted(
        f"{cls.__module__}.{cls.__qualname__}.{name}"
        for cls, name in overrides
        if "oddity" not in (vars(cls)[name].__doc__ or "").lower()
    )
    assert not silent, f"overrides whose docstring names no template oddity: {silent}"
