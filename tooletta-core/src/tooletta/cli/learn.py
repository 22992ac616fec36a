"""``tooletta learn``: which format a chat template is, or learn it (and keep what was learned).

Prints the verdict with its evidence: identified as a known format (when
:mod:`tooletta.chat.identify` is installed and one reproduces the template), learned (the
tool-call dialect, the closed-loop checks passed, any recorded deviation), or refused (the
probe and the first difference; exit code 1). ``--save`` keeps the learned spec,
``--emit-plugin`` writes a plugin distribution, ``--export-hf`` the format's Hugging Face
``response_template`` where the spec can express it (:mod:`tooletta.interop.hf.learned`;
else the one-line reason is printed).
"""

from __future__ import annotations

from typing import Any

import click

from ..errors import LearnError, ToolettaError
from .chat import _options
from .io import echo_line

__all__ = ["learn_cmd"]

REFUSED_EXIT = 1


def _identified(template: str, tokens: dict[str, str], options: dict[str, Any]) -> str | None:
    """The known format ``tooletta.chat.identify`` finds for the template (``None`` when the
    module is absent or names none)."""
    import importlib

    try:  # written by another change; absent until it lands
        module = importlib.import_module("tooletta.chat.identify")
    except ImportError:
        return None
    identify = getattr(module, "identify", None)
    if not callable(identify):
        return None
    try:
        found = identify(
            template,
            bos_token=tokens.get("bos_token"),
            eos_token=tokens.get("eos_token"),
            **options,
        )
    except ToolettaError:
        return None
    name = getattr(found, "format", None)
    if not name:
        return None
    dialect = getattr(found, "dialect", None)
    return f"{name} (tool calls: {dialect})" if dialect else str(name)


@click.command("learn")
@click.argument("template", type=click.Path(exists=True, dir_okay=False))
@click.option("--model", "-m", help="The model's Hugging Face id: its known format is compared.")
@click.option(
    "--tokenizer-config",
    type=click.Path(exists=True, dir_okay=False),
    help="The model's tokenizer_config.json: its bos/eos tokens are used.",
)
@click.option("--name", help="The name to register the learned format under.")
@click.option("--save", type=click.Path(dir_okay=False), help="Write the learned spec (JSON).")
@click.option(
    "--emit-plugin",
    type=click.Path(file_okay=False),
    help="Write a plugin distribution (spec, vendored template, conformance tests) here.",
)
@click.option(
    "--export-hf",
    type=click.Path(dir_okay=False),
    help="Write the learned format's Hugging Face response_template (JSON), where one can "
    "express it (else say why).",
)
@click.option(
    "--lenient",
    is_flag=True,
    help="Accept a template that contradicts itself; the deviations are listed.",
)
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    help="A template switch fixed while learning, KEY=VALUE (JSON value), repeatable.",
)
def learn_cmd(
    template: str,
    model: str | None,
    tokenizer_config: str | None,
    name: str | None,
    save: str | None,
    emit_plugin: str | None,
    export_hf: str | None,
    lenient: bool,
    options: tuple[str, ...],
) -> None:
    """Identify TEMPLATE (a chat_template.jinja or tokenizer_config.json) as a known format,
    or learn it by probing; print the verdict with its evidence."""
    from ..chat.jinja import load_chat_template
    from ..chat.learn import learn

    ctx = click.get_current_context()
    switches = _options(options)
    text, tokens = load_chat_template(template, tools=True)
    if tokenizer_config is not None:
        tokens = {**tokens, **load_chat_template(tokenizer_config, tools=True)[1]}
    if model is not None:
        from .. import api

        known = api.dialect_for_model(model)
        echo_line(f"model {model}: known dialect {known or 'none'}")
    identified = _identified(text, tokens, switches)
    if identified is not None and save is None and emit_plugin is None and export_hf is None:
        echo_line(f"identified as {identified}")
        return
    try:
        learned = learn(
            template,
            bos_token=tokens.get("bos_token"),
            eos_token=tokens.get("eos_token"),
            name=name,
            lenient=lenient,
            **switches,
        )
    except LearnError as exc:
        echo_line(f"refused: {exc.reason}")
        ctx.exit(REFUSED_EXIT)
    echo_line(learned.summary())
    for deviation in learned.deviations:
        echo_line(f"deviation (kept the consistent form): {deviation}")
    if save is not None:
        learned.save(save)
        echo_line(f"saved to {save}")
    if emit_plugin is not None:
        from ..chat.learn.emit import emit_plugin as emit

        echo_line(f"plugin written to {emit(learned, template, emit_plugin)}")
    if export_hf is not None:
        _export_hf(learned.spec, export_hf)


def _export_hf(spec: dict[str, Any], path: str) -> None:
    """Write the learned format's ``response_template`` to ``path``, or say why there is none
    (the verdict stands: the exit code is 0 either way)."""
    import json
    from pathlib import Path

    from ..interop.hf.learned import hf_gap, learned_response_template

    gap = hf_gap(spec)
    if gap:
        echo_line(f"no HF response template: {gap}")
        return
    text = json.dumps(learned_response_template(spec), indent=2, ensure_ascii=False)
    Path(path).write_text(text + "\n", encoding="utf-8")
    echo_line(f"HF response template written to {path}")
