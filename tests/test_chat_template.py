"""The template accepted wherever a model id is (issue 21, item 3): chat_template= /
tokenizer= / bos_token= / eos_token= in render_conversation, parse_conversation, parse,
stream, render and tokenize_conversation; drift raises TemplateMismatchError; the CLI's
--template."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import tooletta
from tooletta import Message, TemplateMismatchError, ToolCall, ToolettaError
from tooletta.chat import jinja as jinja_module
from tooletta.chat.jinja import render_jinja
from tooletta.chat.template import template_names
from tooletta.cli import cli

ROOT = Path(__file__).resolve().parent.parent
HERMES = ROOT / "plugins/tooletta-dialect-hermes/tests/templates"
QWEN3 = HERMES / "Qwen3.jinja"
QWEN25 = HERMES / "Qwen-Qwen2.5-7B-Instruct.jinja"
LLAMA4 = ROOT / (
    "plugins/tooletta-dialect-llama/tests/templates/meta-llama-Llama-4-Scout-17B-16E-Instruct.jinja"
)
QWEN3_MODEL = "Qwen/Qwen3-8B"
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]
CALL = ToolCall("get_weather", {"city": "Paris"})
MESSAGES = [
    Message("system", "Be brief."),
    Message("user", "Weather in Paris?"),
    Message("assistant", "", tool_calls=[CALL], reasoning="Call the tool."),
    Message("tool", "18 °C"),
    Message("assistant", "18 °C."),
]
SPECIALS = list(tooletta.chat.resolve_format(QWEN3_MODEL, None)[0].special_tokens)
UNKNOWN = (
    "{% for m in messages %}<<{{ m.role }}>> {{ m.content }}\n{% endfor %}"
    "{% if add_generation_prompt %}<<assistant>> {% endif %}"
)


class Tokenizer:
    """Something with a chat template and special tokens, as a transformers tokenizer."""

    def __init__(self, chat_template: Any, bos: str | None = None) -> None:
        self.chat_template = chat_template
        self.bos_token = bos
        self.eos_token = None


def test_the_error_is_public_and_typed() -> None:
    assert issubclass(TemplateMismatchError, ToolettaError)
    assert "TemplateMismatchError" in tooletta.__all__


def test_render_conversation_uses_the_identified_format(monkeypatch: pytest.MonkeyPatch) -> None:
    """An identified template renders natively (Jinja is not called), to the same text."""
    template = QWEN3.read_text(encoding="utf-8")
    expected = render_jinja(template, MESSAGES, tools=TOOLS)
    assert tooletta.render_conversation(MESSAGES, chat_template=QWEN3, tools=TOOLS) == expected

    def refuse(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("rendered with Jinja")

    monkeypatch.setattr(jinja_module, "render_jinja", refuse)
    for source in (QWEN3, str(QWEN3), template, {"chat_template": template}):
        got = tooletta.render_conversation(MESSAGES, chat_template=source, tools=TOOLS)
        assert got == expected
    assert tooletta.render_conversation(MESSAGES, tokenizer=Tokenizer(template), tools=TOOLS) == (
        expected
    )


def test_render_conversation_falls_back_to_jinja() -> None:
    """Nothing identified: the template is rendered with Jinja, as before."""
    messages = [Message("user", "Hi"), Message("assistant", "Hello")]
    text = tooletta.render_conversation(messages, chat_template=UNKNOWN, add_generation_prompt=True)
    assert text == "<<user>> Hi\n<<assistant>> Hello\n<<assistant>> "


def test_render_conversation_keeps_the_tokens_given() -> None:
    """A template whose bos nobody gave is rendered as Jinja renders it (an empty bos), not
    with the format's; given, the identified format renders it."""
    messages = [Message("user", "Hi")]
    template = LLAMA4.read_text(encoding="utf-8")
    bare = tooletta.render_conversation(messages, chat_template=template)
    assert bare == render_jinja(template, messages)
    assert not bare.startswith("<|begin_of_text|>")
    given = tooletta.render_conversation(
        messages, chat_template=template, bos_token="<|begin_of_text|>"
    )
    assert given == tooletta.render_conversation(
        messages, model="meta-llama/Llama-4-Scout-17B-16E-Instruct"
    )
    tokenizer = Tokenizer(template, bos="<|begin_of_text|>")
    assert tooletta.render_conversation(messages, tokenizer=tokenizer) == given


def test_an_option_the_format_does_not_declare_goes_to_jinja() -> None:
    """A switch the template reads and the identified format does not declare: Jinja."""
    template = QWEN3.read_text(encoding="utf-8").replace(
        "{%- if tools %}", "{%- if shout %}LOUD{% endif %}{%- if tools %}", 1
    )
    messages = [Message("user", "Hi")]
    got = tooletta.render_conversation(messages, chat_template=template, shout=True)
    assert got.startswith("LOUD")


def test_a_pinned_clock_stays_native(monkeypatch: pytest.MonkeyPatch) -> None:
    """``strftime_now`` is read by every format as by the template: no fallback for it."""
    path = ROOT / "plugins/tooletta-dialect-apertus/tests/templates/Apertus-8B-Instruct.jinja"
    template = path.read_text(encoding="utf-8")
    messages = [Message("user", "Hi")]

    def day(fmt: str) -> str:
        return "2026-01-02"

    tokens = {"bos_token": "<s>"}
    expected = render_jinja(template, messages, tokens=tokens, strftime_now=day)
    monkeypatch.setattr(jinja_module, "render_jinja", None)
    got = tooletta.render_conversation(
        messages, chat_template=template, bos_token="<s>", strftime_now=day
    )
    assert got == expected and "2026-01-02" in got


def test_model_and_its_own_template() -> None:
    text = tooletta.render_conversation(
        MESSAGES, model=QWEN3_MODEL, chat_template=QWEN3, tools=TOOLS
    )
    assert text == tooletta.render_conversation(MESSAGES, model=QWEN3_MODEL, tools=TOOLS)


LLAMA31 = (
    ROOT / "plugins/tooletta-dialect-llama/tests/templates/meta-llama-Llama-3.1-8B-Instruct.jinja"
)
LLAMA31_MODEL = "meta-llama/Llama-3.1-8B-Instruct"


def test_model_and_its_own_template_known_by_heart() -> None:
    """Llama 3.1's own template drops the content beside a call, so its format does not
    reproduce it; a row declares the template's text verified, so every entry point accepts
    it with ``model=`` and answers as ``model=`` alone."""
    with_content = [*MESSAGES[:2], Message("assistant", "Checking.", tool_calls=[CALL])]
    both: dict[str, Any] = {"model": LLAMA31_MODEL, "chat_template": LLAMA31}
    text = tooletta.render_conversation(with_content, tools=TOOLS, **both)
    assert text == tooletta.render_conversation(with_content, model=LLAMA31_MODEL, tools=TOOLS)
    assert "Checking." in text
    assert tooletta.parse_conversation(text, tools=TOOLS, **both) == (
        tooletta.parse_conversation(text, model=LLAMA31_MODEL, tools=TOOLS)
    )
    call_text = tooletta.render([CALL], **both)
    assert call_text == tooletta.render([CALL], model=LLAMA31_MODEL)
    assert tooletta.parse(call_text, **both).calls[0].name == "get_weather"
    assert tooletta.stream(**both) is not None
    with pytest.raises(TemplateMismatchError, match="differs on probe"):  # another model's
        tooletta.render_conversation(MESSAGES, model=QWEN3_MODEL, chat_template=LLAMA31)


@pytest.mark.parametrize(
    "call",
    [
        lambda: tooletta.render_conversation(MESSAGES, model=QWEN3_MODEL, chat_template=QWEN25),
        lambda: tooletta.parse_conversation("x", model=QWEN3_MODEL, chat_template=QWEN25),
        lambda: tooletta.parse("x", model=QWEN3_MODEL, chat_template=QWEN25),
        lambda: tooletta.stream(model=QWEN3_MODEL, chat_template=QWEN25),
        lambda: tooletta.render([CALL], model=QWEN3_MODEL, chat_template=QWEN25),
    ],
    ids=["render_conversation", "parse_conversation", "parse", "stream", "render"],
)
def test_drift_raises_naming_the_difference(call: Any) -> None:
    """Qwen3's format does not reproduce Qwen2.5's template: the error says where."""
    with pytest.raises(TemplateMismatchError, match=r"qwen3.*differs on probe '\w+' at \d+"):
        call()


NO_FORMAT_MODELS = ["acme/qwen3-fine-tune-8b", "Salesforce/Llama-xLAM-2-8b-fc-r"]
"""An id no dialect knows, and one whose dialect (xlam) no row gives a template."""


@pytest.mark.parametrize("model", NO_FORMAT_MODELS)
def test_a_model_with_no_known_format_takes_its_templates(model: str) -> None:
    """A new model's id beside its tokenizer's template: nothing about the id to check the
    template against, so the template resolves as it does alone (identified here as
    Qwen3's) rather than being refused for want of the template it was given."""
    assert template_names(model, None, QWEN3) == (None, "qwen3")
    alone = tooletta.render_conversation(MESSAGES, chat_template=QWEN3, tools=TOOLS)
    both: dict[str, Any] = {"model": model, "chat_template": QWEN3}
    text = tooletta.render_conversation(MESSAGES, tools=TOOLS, **both)
    assert text == alone
    assert (
        tooletta.render_conversation(
            MESSAGES,
            tools=TOOLS,
            tokenizer=Tokenizer(QWEN3.read_text(encoding="utf-8")),
            model=model,
        )
        == alone
    )
    assert tooletta.parse_conversation(text, tools=TOOLS, **both) == (
        tooletta.parse_conversation(text, chat_template=QWEN3, tools=TOOLS)
    )
    call_text = tooletta.render([CALL], **both)
    assert call_text == tooletta.render([CALL], chat_template=QWEN3)
    assert tooletta.parse(call_text, **both).calls == [CALL]
    assert tooletta.stream(**both) is not None


@pytest.mark.parametrize("model", NO_FORMAT_MODELS)
def test_a_model_with_no_known_format_and_an_unknown_template(model: str) -> None:
    """Jinja renders a template no format reproduces, with the id as without it."""
    both: dict[str, Any] = {"model": model, "chat_template": UNKNOWN}
    alone = tooletta.render_conversation(MESSAGES[:2], chat_template=UNKNOWN)
    assert tooletta.render_conversation(MESSAGES[:2], **both) == alone


def test_a_model_with_no_known_format_still_needs_a_template() -> None:
    """Without a template the id is refused as before, and a ``dialect=`` that names nothing
    is refused even beside a template."""
    with pytest.raises(ToolettaError, match="no installed dialect knows"):
        tooletta.render_conversation(MESSAGES, model=NO_FORMAT_MODELS[0])
    with pytest.raises(ToolettaError, match="no chat format of 'xlam'"):
        tooletta.render_conversation(MESSAGES, model=NO_FORMAT_MODELS[1])
    with pytest.raises(ToolettaError, match="named 'no-such-dialect'"):
        tooletta.render_conversation(MESSAGES, dialect="no-such-dialect", chat_template=QWEN3)


def test_drift_names_the_format_the_template_is() -> None:
    with pytest.raises(TemplateMismatchError, match="it is 'qwen25'"):
        tooletta.render_conversation(MESSAGES, model=QWEN3_MODEL, chat_template=QWEN25)


def test_edited_template_is_drift() -> None:
    """The model's own template, revised in one string: never the older text silently."""
    edited = QWEN3.read_text(encoding="utf-8").replace("<tool_call>", "<tool-call>")
    with pytest.raises(TemplateMismatchError) as caught:
        tooletta.render_conversation(MESSAGES, model=QWEN3_MODEL, chat_template=edited)
    assert "<tool-call>" in str(caught.value)


QWEN_TEMPLATES = ROOT / "plugins/tooletta-dialect-qwen/tests/templates"
DEEPSEEK_TEMPLATES = ROOT / "plugins/tooletta-dialect-deepseek/tests/templates"


def test_an_option_the_model_format_does_not_write_is_not_dropped() -> None:
    """Nemotron 3 Super's template is Nano's plus a ``low_effort`` hint: Nano's format
    reproduces it on every probe (which try only the switches Nano declares), so with a Nano
    id the hint was dropped. An option the template reads that the format does not declare
    is rendered by Jinja too: refused when it changes the text and the format's does not."""
    super_text = (QWEN_TEMPLATES / "NVIDIA-Nemotron-3-Super-120B-A12B-BF16.jinja").read_text(
        encoding="utf-8"
    )
    user = [Message(role="user", content="hi")]
    nano = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"
    with pytest.raises(TemplateMismatchError, match="reads 'low_effort', which 'nemotron3'"):
        tooletta.render_conversation(
            user, model=nano, chat_template=super_text, add_generation_prompt=True, low_effort=True
        )
    plain = render_jinja(super_text, user, add_generation_prompt=True)
    for neutral in ({}, {"low_effort": False}, {"low_effort": None}):  # the template's own text
        got = tooletta.render_conversation(
            user, model=nano, chat_template=super_text, add_generation_prompt=True, **neutral
        )
        assert got == plain
    hinted = render_jinja(super_text, user, add_generation_prompt=True, low_effort=True)
    assert "{reasoning effort: low}" in hinted
    assert (  # the model whose format writes it
        tooletta.render_conversation(
            user,
            model="nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16",
            chat_template=super_text,
            add_generation_prompt=True,
            low_effort=True,
        )
        == hinted
    )


def test_an_undeclared_option_the_format_writes_as_the_template_does_passes() -> None:
    """DeepSeek V3.1's ``thinking`` is read by its generation prompt though it is no key of
    the format's options: the format writes it as the template does (its own ``bos_token``
    bound as the drift check binds it), so nothing is refused."""
    text = (DEEPSEEK_TEMPLATES / "deepseek-ai-DeepSeek-V3.1.jinja").read_text(encoding="utf-8")
    user = [Message(role="user", content="hi")]
    for thinking in (True, False):
        got = tooletta.render_conversation(
            user,
            model="deepseek-ai/DeepSeek-V3.1",
            chat_template=text,
            add_generation_prompt=True,
            thinking=thinking,
        )
        assert got.endswith("<｜Assistant｜><think>" if thinking else "<｜Assistant｜></think>")


def test_parse_conversation_with_the_template() -> None:
    text = tooletta.render_conversation(MESSAGES, chat_template=QWEN3, tools=TOOLS)
    by_template = tooletta.parse_conversation(text, chat_template=QWEN3, tools=TOOLS)
    assert by_template == tooletta.parse_conversation(text, model=QWEN3_MODEL, tools=TOOLS)
    assert by_template[2].tool_calls[0].arguments == {"city": "Paris"}


def test_parse_and_stream_with_a_model_or_template() -> None:
    text = tooletta.render([CALL], model=QWEN3_MODEL)
    for kwargs in ({"model": QWEN3_MODEL}, {"chat_template": QWEN3}):
        assert tooletta.parse(text, **kwargs).calls == [CALL]
        parser = tooletta.stream(**kwargs)
        for i in range(0, len(text), 3):
            parser.feed(text[i : i + 3])
        parser.finish()
    with pytest.raises(ToolettaError):
        tooletta.stream()


def test_parse_with_a_dialect_that_disagrees() -> None:
    with pytest.raises(TemplateMismatchError):
        tooletta.parse("x", "mistral", chat_template=QWEN3)


def test_render_with_the_template() -> None:
    assert tooletta.render([CALL], chat_template=QWEN3, content="Ok.") == tooletta.render(
        [CALL], model=QWEN3_MODEL, content="Ok."
    )


def test_unknown_template_without_learn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing identified and nothing to learn with: a clear error, not Jinja at parse time."""
    monkeypatch.setattr(tooletta, "learn", None, raising=False)
    with pytest.raises(ToolettaError, match="no known chat format reproduces this template"):
        tooletta.parse_conversation("<<user>> Hi\n", chat_template=UNKNOWN)


def test_unknown_template_is_learned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing identified: ``tooletta.learn`` is asked, and its format is used."""
    asked: list[str] = []

    class Learned:
        name = "qwen25"

    def learn(template: str, **kwargs: Any) -> Learned:
        asked.append(template)
        return Learned()

    monkeypatch.setattr(tooletta, "learn", learn, raising=False)
    text = tooletta.render_conversation(MESSAGES[:2], dialect="qwen25")
    assert tooletta.parse_conversation(text, chat_template=UNKNOWN) == [
        Message("system", "Be brief."),
        Message("user", "Weather in Paris?"),
    ]
    assert asked == [UNKNOWN]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"tokenizer": object()}, "has no chat_template"),
        ({"chat_template": "no/such/file.jinja"}, "neither a template nor a file"),
        ({"chat_template": 3}, "not int"),
        ({"bos_token": "<s>"}, "need chat_template"),
    ],
)
def test_bad_template_arguments(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ToolettaError, match=match):
        tooletta.render_conversation(MESSAGES, **kwargs)


def test_tokenize_conversation_with_the_template() -> None:
    pytest.importorskip("tokenizers")
    from tooletta.testing.training import bpe_tokenizer
    from tooletta.training import tokenize_conversation

    text = tooletta.render_conversation(MESSAGES, model=QWEN3_MODEL, tools=TOOLS)
    tokenizer = bpe_tokenizer([text] * 3, SPECIALS)
    by_template = tokenize_conversation(MESSAGES, tokenizer, chat_template=QWEN3, tools=TOOLS)
    by_model = tokenize_conversation(MESSAGES, tokenizer, model=QWEN3_MODEL, tools=TOOLS)
    assert by_template.input_ids == by_model.input_ids
    assert by_template.weights == by_model.weights
    with pytest.raises(TemplateMismatchError):
        tokenize_conversation(MESSAGES, tokenizer, model=QWEN3_MODEL, chat_template=QWEN25)


def test_tokenize_conversation_refuses_an_option_its_format_drops() -> None:
    """Training data is not rendered without an option the template reads: Nemotron 3
    Super's ``low_effort`` with a Nano id (whose format reproduces Super's template on every
    probe) is refused; the Super id, whose format writes it, trains on the hinted text."""
    pytest.importorskip("tokenizers")
    from tooletta.testing.training import bpe_tokenizer
    from tooletta.training import tokenize_conversation

    super_text = (QWEN_TEMPLATES / "NVIDIA-Nemotron-3-Super-120B-A12B-BF16.jinja").read_text(
        encoding="utf-8"
    )
    chat = [Message(role="user", content="hi"), Message(role="assistant", content="hello")]
    super_id = "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16"
    text = tooletta.render_conversation(chat, model=super_id, low_effort=True)
    assert "{reasoning effort: low}" in text
    specials = list(tooletta.chat.resolve_format(super_id, None)[0].special_tokens)
    tokenizer = bpe_tokenizer([text] * 3, specials)
    nano = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"
    with pytest.raises(TemplateMismatchError, match="'low_effort'"):
        tokenize_conversation(chat, tokenizer, model=nano, chat_template=super_text, low_effort=1)
    tokenize_conversation(chat, tokenizer, model=nano, chat_template=super_text, low_effort=0)
    hinted = tokenize_conversation(
        chat, tokenizer, model=super_id, chat_template=super_text, low_effort=True
    )
    alone = tokenize_conversation(chat, tokenizer, model=super_id, low_effort=True)
    assert not isinstance(hinted, list) and not isinstance(alone, list)
    assert hinted.input_ids == alone.input_ids  # the hinted text, as the id alone writes it


def test_cli_template(tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]
    runner = CliRunner()
    got = runner.invoke(cli, ["render-chat", "--template", str(QWEN3)], input=json.dumps(messages))
    assert got.exit_code == 0, got.output
    assert got.output == tooletta.render_conversation(messages, model=QWEN3_MODEL)
    drift = runner.invoke(
        cli,
        ["render-chat", "--model", QWEN3_MODEL, "--template", str(QWEN25)],
        input=json.dumps(messages),
    )
    assert drift.exit_code != 0
    assert "differs on probe" in drift.output


def test_cli_tokenize_template(tmp_path: Path) -> None:
    pytest.importorskip("tokenizers")
    from tooletta.testing.training import bpe_tokenizer

    messages = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]
    text = tooletta.render_conversation(messages, model=QWEN3_MODEL)
    path = tmp_path / "tokenizer.json"
    bpe_tokenizer([text] * 3, SPECIALS).save(str(path))
    runner = CliRunner()
    args = ["tokenize", "--tokenizer", str(path)]
    by_template = runner.invoke(cli, [*args, "--template", str(QWEN3)], input=json.dumps(messages))
    by_model = runner.invoke(cli, [*args, "--model", QWEN3_MODEL], input=json.dumps(messages))
    assert by_template.exit_code == 0, by_template.output
    assert by_template.output == by_model.output


def test_a_template_file_is_read_again_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "chat_template.jinja"
    messages = [Message("user", "Hi")]
    path.write_text("{% for m in messages %}[{{ m.content }}]{% endfor %}", encoding="utf-8")
    assert tooletta.render_conversation(messages, chat_template=path) == "[Hi]"
    path.write_text("{% for m in messages %}<<{{ m.content }}>>{% endfor %}", encoding="utf-8")
    assert tooletta.render_conversation(messages, chat_template=path) == "<<Hi>>"


def test_named_templates_are_checked_whole() -> None:
    """A tokenizer's named templates (transformers' dict): the drift check reads both, as
    transformers would use them, whichever one this call renders with."""
    qwen3 = QWEN3.read_text(encoding="utf-8")
    tokenizer = Tokenizer({"default": qwen3, "tool_use": qwen3})
    text = tooletta.render_conversation(
        MESSAGES, model=QWEN3_MODEL, tokenizer=tokenizer, tools=TOOLS
    )
    assert text == tooletta.render_conversation(MESSAGES, model=QWEN3_MODEL, tools=TOOLS)
    split = Tokenizer({"default": UNKNOWN, "tool_use": qwen3})
    with pytest.raises(TemplateMismatchError, match="probe 'plain'"):
        tooletta.render_conversation(MESSAGES, model=QWEN3_MODEL, tokenizer=split, tools=TOOLS)
