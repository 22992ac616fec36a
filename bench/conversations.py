"""Conversations: native ``render_conversation`` against the model's own Jinja template, and
``tokenize_conversation`` against transformers' ``apply_chat_template``.

    uv run --no-sync python bench/conversations.py          # every format with a template
    uv run --no-sync python bench/conversations.py -n 200   # more rounds

The formats and their templates are the ones the plugins' conversation tests pin
(``ConversationTests`` subclasses in ``plugins/*/tests/test_*chat*.py``). Jinja is timed with the
template compiled once (as transformers caches it), so both sides pay only for rendering.
Reported per format: µs per conversation (the sample conversations of
``tooletta.testing.conversations``, rendered in turn) and the ratio jinja / native (the
issue's target: ≥ 10). The tokenization part trains a byte-level BPE offline and compares
tokenized conversations per second with transformers' ``apply_chat_template(tokenize=True,
return_assistant_tokens_mask=True, return_dict=True)`` on a template with
``{% generation %}`` tags (needs transformers; skipped without it).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

from stockjinja import render_stock

ROOT = Path(__file__).resolve().parent.parent


def chat_test_classes() -> Iterator[Any]:
    """Every ``ConversationTests`` subclass of the installed plugins' ``tests/test_*chat*.py``
    (not the copy-me ``plugins/_template``'s: it is not installed)."""
    from tooletta.testing.conversations import ConversationTests

    for path in sorted(ROOT.glob("plugins/*/tests/test_*chat*.py")):
        if "_template" in path.parts:
            continue
        spec = importlib.util.spec_from_file_location(f"_bench_{path.parent.parent.name}", path)
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, ConversationTests)
                and value is not ConversationTests
            ):
                yield value


def best_of(fn: Callable[[], Any], rounds: int) -> float:
    """The best time of ``rounds`` calls, in seconds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def format_cases() -> Iterator[tuple[str, Any, list[Any], dict[str, Any]]]:
    """``(format name, test class, cases, options)`` for every tested format: the
    conversations the class compares with its template (its ``_cases()`` less its
    ``differences`` and, for a format whose template writes no tools, those with tools, as
    ``(messages, tools)`` read once into ``Message`` objects and tool definitions), and the
    template options it renders with."""
    from tooletta.chat.lookup import resolve_format
    from tooletta.chat.messages import read_conversation, read_tool_definitions
    from tooletta.chat.notools import uses_tools, writes_tools
    from tooletta.testing.conversations import SAMPLE_TOOLS

    for cls in chat_test_classes():
        if cls.model is None and cls.dialect is None:  # a shared base class
            continue
        fmt, _ = resolve_format(cls.model, cls.dialect)
        cases = [
            (read_conversation(m), read_tool_definitions(SAMPLE_TOOLS if t else None))
            for name, (m, t) in cls()._cases().items()
            if name not in cls.differences
        ]
        if not writes_tools(fmt):  # its template writes no tools: the format refuses them
            cases = [(m, t) for m, t in cases if not uses_tools(m, t)]
        options = dict(cls.options[0]) if cls.options else {}
        yield fmt.name, cls, cases, options


def bench_cases(name: str) -> tuple[Any, list[Any], dict[str, Any]]:
    """``(test class, cases, options)`` of the first tested format called ``name``."""
    for fmt_name, cls, cases, options in format_cases():
        if fmt_name == name:
            return cls, cases, options
    raise LookupError(f"no conversation test for the format {name!r}")


def measure_rendering(rounds: int) -> list[tuple[str, float, float]]:
    """``(format, native µs, jinja µs)`` per conversation, for every tested format."""
    import tooletta

    rows = []
    for fmt_name, cls, cases, options in format_cases():
        template = cls.template.read_text(encoding="utf-8")

        def native(cases: Any = cases, cls: Any = cls, options: Any = options) -> None:
            for messages, tools in cases:
                tooletta.render_conversation(
                    messages,
                    model=cls.model,
                    dialect=cls.dialect,
                    tools=tools,
                    allow_markup=getattr(cls, "allow_markup", False),
                    **options,
                )

        def jinja(
            cases: Any = cases, template: str = template, cls: Any = cls, options: Any = options
        ) -> None:
            for messages, tools in cases:
                render_stock(
                    template,
                    messages,
                    tools=tools,
                    tokens=cls.tokens,
                    string_arguments=getattr(cls, "string_arguments", False),
                    **options,
                )

        native()
        try:
            jinja()
        except Exception:  # a template HF's sandbox refuses (Kimi's list appends): no peer
            continue
        per = 1e6 / len(cases)
        rows.append((fmt_name, best_of(native, rounds) * per, best_of(jinja, rounds) * per))
    return rows


_GENERATION_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m.role }}\n"
    "{% if m.role == 'assistant' %}{% generation %}{{ m.content }}<|im_end|>{% endgeneration %}"
    "{% else %}{{ m.content }}<|im_end|>{% endif %}\n{% endfor %}"
)
"""A ChatML template with ``{% generation %}`` tags (the ones transformers' assistant mask
needs), rendering what the plain Qwen3 format renders for conversations without tools or
reasoning."""


def measure_tokenizing(rounds: int) -> tuple[float, float] | None:
    """Tokenized conversations per second: ``(tooletta, transformers)``; ``None`` without
    transformers."""
    try:
        import transformers
    except ImportError:
        return None
    from tooletta import Message
    from tooletta.testing.training import bpe_tokenizer
    from tooletta.training import tokenize_conversation

    conversations = [
        [
            Message("system", "You are a helpful assistant."),
            Message("user", f"Question {i}: what is {i} + {i}?"),
            Message("assistant", f"It is {2 * i}."),
            Message("user", "Thanks, and times two?"),
            Message("assistant", f"That is {4 * i}."),
        ]
        for i in range(50)
    ]
    texts = [
        "".join(f"<|im_start|>{m.role}\n{m.content}<|im_end|>\n" for m in c) for c in conversations
    ]
    from tooletta.chat import resolve_format

    tok = bpe_tokenizer(texts, resolve_format(None, "qwen3")[0].special_tokens)
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok)  # type: ignore[no-untyped-call]
    fast.chat_template = _GENERATION_TEMPLATE
    dicts = [[{"role": m.role, "content": m.content} for m in c] for c in conversations]

    def ours() -> None:
        for c in conversations:
            tokenize_conversation(c, tok, dialect="qwen3")

    def theirs() -> None:
        for d in dicts:
            fast.apply_chat_template(
                cast("list[dict[str, str]]", d),
                tokenize=True,
                return_dict=True,
                return_assistant_tokens_mask=True,
            )

    ours()
    theirs()
    n = len(conversations)
    return n / best_of(ours, rounds), n / best_of(theirs, rounds)


def main(argv: list[str] | None = None) -> None:
    """Print the tables (markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--rounds", type=int, default=50)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "tests"))
    print("| format | native µs/conversation | jinja µs/conversation | jinja / native |")
    print("|---|---|---|---|")
    for name, native, jinja in measure_rendering(args.rounds):
        print(f"| {name} | {native:.1f} | {jinja:.1f} | {jinja / native:.1f} |")
    tokenizing = measure_tokenizing(max(3, args.rounds // 10))
    if tokenizing is not None:
        ours, theirs = tokenizing
        print()
        print("| tokenize | conversations/s | × transformers |")
        print("|---|---|---|")
        print(f"| tooletta tokenize_conversation | {ours:.0f} | {ours / theirs:.1f} |")
        print(f"| transformers apply_chat_template (assistant mask) | {theirs:.0f} | 1.0 |")


if __name__ == "__main__":
    main()
