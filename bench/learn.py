"""Learned formats: ``render_conversation`` of a learned format against Jinja and a native one.

    uv run --no-sync python bench/learn.py          # the templates below
    uv run --no-sync python bench/learn.py -n 200   # more rounds

For each template: the time to learn it (probing, inference and the closed loop), then, over
the sample conversations of :mod:`tooletta.testing.samples` that the learned format writes
exactly as the template does (each checked before timing), µs per conversation for Jinja
(stock jinja2 as transformers renders, the template compiled once as transformers caches it:
:mod:`stockjinja`), the learned format and, where a plugin
declares the same template natively, the native format. Reported: jinja / learned (the
issue's target: ≥ 10) and learned / native (target: ≤ 2).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stockjinja import render_stock

ROOT = Path(__file__).resolve().parent.parent
HERMES = ROOT / "plugins" / "tooletta-dialect-hermes" / "tests" / "templates"
FIXTURES = ROOT / "tests" / "fixtures" / "templates"

TEMPLATES: list[tuple[str, Path, str | None, dict[str, Any]]] = [
    ("Bielik-11B-v3.0-Instruct", FIXTURES / "Bielik-11B-v3.0-Instruct.jinja", None, {}),
    ("Reka-Edge", FIXTURES / "Reka-Edge.jinja", None, {}),
    ("SmolLM3-3B", FIXTURES / "HuggingFaceTB-SmolLM3-3B.jinja", None, {}),
    ("Qwen2.5-7B-Instruct", HERMES / "Qwen-Qwen2.5-7B-Instruct.jinja", "qwen25", {}),
    ("Qwen3", HERMES / "Qwen3.jinja", "qwen3", {}),
    ("Granite-4.0", HERMES / "ibm-granite-granite-4.0.jinja", "granite40", {}),
    ("Kimi-K2 (llama.cpp)", FIXTURES / "moonshotai-Kimi-K2.jinja", None, {}),
    ("QwQ-32B (llama.cpp)", FIXTURES / "Qwen-QwQ-32B.jinja", "qwq", {}),
    ("RWKV-World (llama.cpp)", FIXTURES / "llama-cpp-rwkv-world.jinja", None, {}),
    ("DeepSeek-V3.1 (llama.cpp)", FIXTURES / "deepseek-ai-DeepSeek-V3.1.jinja", None, {}),
]
"""(label, template, the native format of that template or None, options)."""


def best_of(fn: Callable[[], Any], rounds: int) -> float:
    """The best time of ``rounds`` calls, in seconds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", "--rounds", type=int, default=60)
    args = parser.parse_args()

    import tooletta
    from tooletta.chat.jinja import load_chat_template, render_jinja
    from tooletta.chat.messages import read_tool_definitions
    from tooletta.testing.conversations import SAMPLE_TOOLS
    from tooletta.testing.samples import sample_conversations

    print(
        "| template | learn (s) | calls | convs | jinja µs | learned µs | native µs |"
        " jinja / learned | learned / native |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for label, path, native, options in TEMPLATES:
        start = time.perf_counter()
        learned = tooletta.learn(str(path), name=f"bench-{label}", lenient=True, **options)
        took = time.perf_counter() - start
        template, tokens = load_chat_template(str(path))
        cases = []
        for messages, uses_tools in sample_conversations().values():
            tools = read_tool_definitions(SAMPLE_TOOLS if uses_tools else None)
            try:
                want = render_jinja(template, messages, tools=tools, tokens=tokens, **options)
                if render_stock(template, messages, tools=tools, tokens=tokens, **options) != want:
                    continue  # the peer must write what is compared
                got = tooletta.render_conversation(
                    messages, dialect=learned.name, tools=tools, **options
                )
                same_native = (
                    native is None
                    or tooletta.render_conversation(
                        messages, dialect=native, tools=tools, **options
                    )
                    == want
                )
            except tooletta.ToolettaError:
                continue
            if got == want and same_native:
                cases.append((messages, tools))

        def run_jinja(
            cases: list[Any] = cases,
            template: str = template,
            tokens: dict[str, str] = tokens,
            options: dict[str, Any] = options,
        ) -> None:
            for messages, tools in cases:
                render_stock(template, messages, tools=tools, tokens=tokens, **options)

        def run(
            name: str, cases: list[Any] = cases, options: dict[str, Any] = options
        ) -> Callable[[], None]:
            def go() -> None:
                for messages, tools in cases:
                    tooletta.render_conversation(messages, dialect=name, tools=tools, **options)

            return go

        count = max(len(cases), 1)
        t_jinja = best_of(run_jinja, args.rounds) / count * 1e6
        t_learned = best_of(run(learned.name), args.rounds) / count * 1e6
        t_native = best_of(run(native), args.rounds) / count * 1e6 if native else None
        calls = learned.spec["calls"]
        kind = calls.get("dialect", "learned json") if calls["kind"] != "none" else "none"
        native_cell = f"{t_native:.1f}" if t_native else ""
        ratio = f"{t_learned / t_native:.2f}" if t_native else ""
        print(
            f"| {label} | {took:.2f} | {kind} | {len(cases)} | {t_jinja:.1f} | {t_learned:.1f} |"
            f" {native_cell} | {t_jinja / t_learned:.1f} | {ratio} |"
        )


if __name__ == "__main__":
    main()
