"""Learned formats: ``render_conversation`` of a learned format against Jinja and a native one.

    uv run --no-sync python bench/learn.py          # the templates below
    uv run --no-sync python bench/learn.py -n 200   # more rounds

For each template: the time to learn it (probing, inference and the closed loop), then, over
the sample conversations of :mod:`tooletta.testing.samples` that the learned format writes
exactly as the template does (each checked before timing), µs per conversation for Jinja
(stock jinja2 as transformers renders, the template compiled once as transformers caches it:
:mod:`stockjinja`), the learned format and, where a plugin
declares the same template natively, the native format. Reported: jinja / learned (the
issue's target: ≥ 10) and learned / native (target: ≤ 2). Beside them the limit: a minimal
hand-written renderer of the same template (:mod:`render_limits`), checked to write exactly
what the template writes on every timed conversation (else it is not timed and the ``limit
exact`` column names the conversations it gets wrong), with jinja / limit (how far above
Jinja any Python renderer can get) and learned / limit (how far tooletta is from that floor).

A second table times what a user holding **chat dicts** runs: the same conversations as Hugging
Face-shaped dicts (``tooletta.chat.jinja.to_template_messages``: dict arguments), given as they
are to stock jinja2, to transformers' own renderer
(``transformers.utils.chat_template_utils.render_jinja_template``, what
``apply_chat_template(tokenize=False)`` runs; left out when transformers is not installed) and
to tooletta (which reads them first); each checked to write what the template writes.

    uv run --no-sync python bench/learn.py --long   # per-message cost: long conversations

``--long`` times Jinja, the learned format, the native one and the limit on the biggest
sample conversation with tools repeated 1, 4 and 16 times (:func:`long_conversation`), for
the templates whose learned format writes all three exactly as Jinja does.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from render_limits import LIMITS
from stockjinja import render_stock, render_stock_dicts, transformers_renderer

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
    ("EXAONE-4.0-1.2B", FIXTURES / "LGAI-EXAONE-EXAONE-4.0-1.2B.jinja", None, {}),
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


LONG_REPEATS = (1, 4, 16)
"""How many times ``--long`` repeats the biggest sample conversation with tools."""

Case = tuple[str, list[Any], list[dict[str, Any]]]
"""A timed conversation: (name, messages, tool definitions)."""


def long_conversation(repeats: int) -> list[Any]:
    """The sample conversation with tools that has the most messages, its system message
    (if any) first and then its other messages ``repeats`` times."""
    from tooletta.testing.samples import sample_conversations

    messages = max((m for m, uses_tools in sample_conversations().values() if uses_tools), key=len)
    head = messages[:1] if messages[0].role == "system" else []
    return [*head, *messages[len(head) :] * repeats]


def _miss(dialect: str, case: Case, options: dict[str, Any], want: str) -> str:
    """Why tooletta's ``dialect`` does not write ``want`` for the case: ``""`` (it does),
    ``"refuses"`` (a ``ToolettaError``) or ``"differs"``."""
    import tooletta

    _, messages, tools = case
    try:
        got = tooletta.render_conversation(messages, dialect=dialect, tools=tools, **options)
    except tooletta.ToolettaError:
        return "refuses"
    return "" if got == want else "differs"


def _writes(dialect: str, case: Case, options: dict[str, Any], want: str) -> bool:
    """Whether tooletta's ``dialect`` writes ``want`` for the case (an error: it does not)."""
    return not _miss(dialect, case, options, want)


def _limit_misses(label: str, cases: list[Case], wants: list[str]) -> list[str]:
    """The names of the cases the limit renderer of ``label`` does not write exactly."""
    limit = LIMITS[label]
    return [case[0] for case, want in zip(cases, wants) if limit(case[1], case[2]) != want]


def _jinja_loop(
    cases: list[Case], template: str, tokens: dict[str, str], options: dict[str, Any]
) -> Callable[[], None]:
    """A function that renders every case with the stock jinja2 peer."""

    def go() -> None:
        for _, messages, tools in cases:
            render_stock(template, messages, tools=tools, tokens=tokens, **options)

    return go


def _tooletta_loop(cases: list[Case], name: str, options: dict[str, Any]) -> Callable[[], None]:
    """A function that renders every case with tooletta's format ``name``."""
    import tooletta

    def go() -> None:
        for _, messages, tools in cases:
            tooletta.render_conversation(messages, dialect=name, tools=tools, **options)

    return go


def _limit_loop(cases: list[Case], label: str) -> Callable[[], None]:
    """A function that renders every case with the limit renderer of ``label``."""
    limit = LIMITS[label]

    def go() -> None:
        for _, messages, tools in cases:
            limit(messages, tools)

    return go


def _checks_loop(cases: list[Case], name: str) -> Callable[[], None]:
    """A function that runs, for every case, what ``render_conversation`` does before
    format ``name`` writes: read the messages and tool definitions and check them
    (:func:`tooletta.chat.checks.check_conversation`, markup tables looked up once); and the
    content key of the tool definitions (:func:`tooletta.chat.messages.content_key`, one for
    the list), the price of remembering their text soundly (the limit renderers remember it
    by the list's identity, which a caller's edit of a definition would make stale)."""
    from tooletta.chat.checks import check_conversation
    from tooletta.chat.lookup import resolve_format
    from tooletta.chat.markup import markup_of
    from tooletta.chat.messages import content_key, read_conversation, read_tool_definitions

    fmt, obj = resolve_format(None, name)
    markup = markup_of(fmt, obj)

    def go() -> None:
        for _, messages, tools in cases:
            read = read_conversation(messages)
            defs = read_tool_definitions(tools) if tools else []
            check_conversation(fmt, obj, read, defs, False, markup)
            if defs:
                content_key(defs)

    return go


def _ratio(a: float | None, b: float | None, digits: int = 1) -> str:
    """``a / b`` for the table (empty when either is missing)."""
    return f"{a / b:.{digits}f}" if a and b else ""


def _us(t: float | None, digits: int = 1) -> str:
    """A time in µs for the table (empty when not measured)."""
    return f"{t:.{digits}f}" if t else ""


def main() -> None:
    """Print the table (``--long``: the long-conversation table)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", "--rounds", type=int, default=60)
    parser.add_argument(
        "--long", action="store_true", help="time long conversations (per-message cost)"
    )
    args = parser.parse_args()
    if args.long:
        main_long(args.rounds)
        return

    import tooletta
    from tooletta.chat.jinja import load_chat_template, render_jinja
    from tooletta.chat.messages import read_tool_definitions
    from tooletta.testing.conversations import SAMPLE_TOOLS
    from tooletta.testing.samples import sample_conversations

    print(
        "| template | learn (s) | calls | convs | jinja µs | learned µs | native µs |"
        " jinja / learned | learned / native | limit exact | limit µs | jinja / limit |"
        " learned / limit |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    checked: list[str] = []
    dicts: list[str] = []
    for label, path, native, options in TEMPLATES:
        start = time.perf_counter()
        learned = tooletta.learn(str(path), name=f"bench-{label}", lenient=True, **options)
        took = time.perf_counter() - start
        template, tokens = load_chat_template(str(path))
        cases: list[Case] = []
        wants: list[str] = []
        for name, (messages, uses_tools) in sample_conversations().items():
            case = (name, messages, read_tool_definitions(SAMPLE_TOOLS if uses_tools else None))
            try:
                want = render_jinja(template, messages, tools=case[2], tokens=tokens, **options)
                stock = render_stock(template, messages, tools=case[2], tokens=tokens, **options)
            except tooletta.ToolettaError:
                continue
            if stock != want:
                continue  # the peer must write what is compared
            if _writes(learned.name, case, options, want) and (
                native is None or _writes(native, case, options, want)
            ):
                cases.append(case)
                wants.append(want)

        misses = _limit_misses(label, cases, wants)
        count = max(len(cases), 1)
        t_jinja = best_of(_jinja_loop(cases, template, tokens, options), args.rounds) / count * 1e6
        t_learned = best_of(_tooletta_loop(cases, learned.name, options), args.rounds)
        t_learned = t_learned / count * 1e6
        t_native = (
            best_of(_tooletta_loop(cases, native, options), args.rounds) / count * 1e6
            if native
            else None
        )
        t_limit = None if misses else best_of(_limit_loop(cases, label), args.rounds) / count * 1e6
        t_checks = best_of(_checks_loop(cases, learned.name), args.rounds) / count * 1e6
        dicts.append(_dict_row(label, cases, wants, template, tokens, learned.name, options, args))
        if t_limit:
            floor = t_limit + t_checks
            writing = t_learned - t_checks
            checked.append(
                f"| {label} | {t_limit:.2f} | {t_checks:.2f} | {floor:.2f} |"
                f" {t_jinja / floor:.1f} | {writing:.2f} | {writing / t_limit:.1f} |"
            )
        calls = learned.spec["calls"]
        kind = calls.get("dialect", "learned json") if calls["kind"] != "none" else "none"
        exact = "no: " + ", ".join(misses) if misses else "yes"
        print(
            f"| {label} | {took:.2f} | {kind} | {len(cases)} | {t_jinja:.1f} | {t_learned:.1f} |"
            f" {_us(t_native)} | {_ratio(t_jinja, t_learned)} |"
            f" {_ratio(t_learned, t_native, 2)} | {exact} | {_us(t_limit, 2)} |"
            f" {_ratio(t_jinja, t_limit)} | {_ratio(t_learned, t_limit)} |"
        )
    print()
    print(
        "| template | limit µs | checks µs | limit + checks µs | jinja / (limit + checks)"
        " | learned − checks µs | (learned − checks) / limit |"
    )
    print("|---|---|---|---|---|---|---|")
    print("\n".join(checked))
    print()
    print(
        "| template | convs | jinja µs (dicts) | transformers µs (dicts) | learned µs (dicts) |"
        " jinja / learned (dicts) | transformers / learned (dicts) |"
    )
    print("|---|---|---|---|---|---|---|")
    print("\n".join(dicts))


def _dict_row(
    label: str,
    cases: list[Case],
    wants: list[str],
    template: str,
    tokens: dict[str, str],
    name: str,
    options: dict[str, Any],
    args: argparse.Namespace,
) -> str:
    """The chat-dicts row of ``label``: the timed conversations as Hugging Face-shaped dicts,
    rendered by stock jinja2, transformers' renderer and tooletta's format ``name`` (each
    checked to write ``wants``; a renderer that does not is not timed)."""
    import tooletta
    from tooletta.chat.jinja import to_template_messages

    given = [(to_template_messages(messages), tools) for _, messages, tools in cases]
    hf = transformers_renderer()

    def exact(render: Callable[[list[Any], Any], str]) -> bool:
        return all(render(d, t) == want for (d, t), want in zip(given, wants))

    def stock(d: list[Any], t: Any) -> str:
        return render_stock_dicts(template, d, tools=t, tokens=tokens, **options)

    def hf_render(d: list[Any], t: Any) -> str:
        return str(hf(template, d, tools=t, tokens=tokens, **options))

    def ours(d: list[Any], t: Any) -> str:
        return tooletta.render_conversation(d, dialect=name, tools=t, **options)

    times: list[float | None] = []
    for render in (stock, hf_render if hf is not None else None, ours):
        if render is None or not exact(render):
            times.append(None)
            continue

        def go(render: Callable[[list[Any], Any], str] = render) -> None:
            for d, t in given:
                render(d, t)

        times.append(best_of(go, args.rounds) / max(len(given), 1) * 1e6)
    t_stock, t_hf, t_ours = times
    return (
        f"| {label} | {len(given)} | {_us(t_stock)} | {_us(t_hf)} | {_us(t_ours)} |"
        f" {_ratio(t_stock, t_ours)} | {_ratio(t_hf, t_ours)} |"
    )


def main_long(rounds: int) -> None:
    """Print the long-conversation table: µs per conversation for each repeat count of
    :func:`long_conversation`, then the cost of one more message (from the shortest to the
    longest), for the templates whose learned format writes them all as Jinja does."""
    import tooletta
    from tooletta.chat.jinja import load_chat_template, render_jinja
    from tooletta.chat.messages import read_tool_definitions
    from tooletta.testing.conversations import SAMPLE_TOOLS

    tools = read_tool_definitions(SAMPLE_TOOLS)
    conversations = [(f"x{n}", long_conversation(n), tools) for n in LONG_REPEATS]
    print(
        "| template | repeats | messages | jinja µs | learned µs | native µs | limit µs |"
        " checks µs | jinja / learned | jinja / limit | learned / limit |"
        " jinja / (limit + checks) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    left_out: list[str] = []
    for label, path, native, options in TEMPLATES:
        learned = tooletta.learn(str(path), name=f"bench-{label}", lenient=True, **options)
        template, tokens = load_chat_template(str(path))
        wants: list[str] = []
        for _, messages, _tools in conversations:
            try:
                want = render_jinja(template, messages, tools=tools, tokens=tokens, **options)
                stock = render_stock(template, messages, tools=tools, tokens=tokens, **options)
            except tooletta.ToolettaError:
                break
            if stock != want:
                break
            wants.append(want)
        if len(wants) < len(conversations):
            left_out.append(f"{label} (Jinja refuses or the peer differs)")
            continue
        why = {_miss(learned.name, c, options, w) for c, w in zip(conversations, wants)} - {""}
        if why:
            left_out.append(f"{label} (the learned format {' or '.join(sorted(why))})")
            continue
        native_exact = native is not None and all(
            _writes(native, c, options, w) for c, w in zip(conversations, wants)
        )
        misses = _limit_misses(label, conversations, wants)
        rows: list[list[float | None]] = []
        for case in conversations:
            one = [case]
            rows.append(
                [
                    len(case[1]),
                    best_of(_jinja_loop(one, template, tokens, options), rounds) * 1e6,
                    best_of(_tooletta_loop(one, learned.name, options), rounds) * 1e6,
                    best_of(_tooletta_loop(one, native, options), rounds) * 1e6
                    if native and native_exact
                    else None,
                    None if misses else best_of(_limit_loop(one, label), rounds) * 1e6,
                    best_of(_checks_loop(one, learned.name), rounds) * 1e6,
                ]
            )
        added = (rows[-1][0] or 0) - (rows[0][0] or 0)
        per: list[float | None] = [
            None if a is None or b is None else (b - a) / added for a, b in zip(rows[0], rows[-1])
        ]
        labels: list[tuple[str, str]] = [
            (str(n), str(row[0])) for n, row in zip(LONG_REPEATS, rows)
        ]
        for (repeats, size), row, digits in [
            *((lab, row, 1) for lab, row in zip(labels, rows)),
            (("per added message", ""), per, 2),
        ]:
            _, t_jinja, t_learned, t_native, t_limit, t_checks = row
            floor = t_limit + t_checks if t_limit is not None and t_checks is not None else None
            print(
                f"| {label} | {repeats} | {size} | {_us(t_jinja, digits)} |"
                f" {_us(t_learned, digits)} | {_us(t_native, digits)} |"
                f" {_us(t_limit, 2) or 'not exact'} | {_us(t_checks, 2)} |"
                f" {_ratio(t_jinja, t_learned)} | {_ratio(t_jinja, t_limit)} |"
                f" {_ratio(t_learned, t_limit)} | {_ratio(t_jinja, floor)} |"
            )
    if left_out:
        print()
        print("Not timed: " + "; ".join(left_out) + ".")


if __name__ == "__main__":
    main()
