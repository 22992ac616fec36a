"""Tokenizing datasets: one picklable callable for Hugging Face ``datasets.map`` and Ray Data.

:class:`TokenizeRows` holds only what it needs to rebuild its tokenizer (a path to a local
``tokenizer.json``), so worker processes (``datasets.map(num_proc=...)``, Ray tasks) each load
it once and nothing large is pickled. Called on a batch — a mapping of columns, each a list
(``datasets``) or an array (Ray's ``map_batches``) — it returns the columns ``input_ids``,
``weights`` and ``error`` (empty when the row was fine; a bad row gets empty ids and its
reason, so no row disappears silently: filter on ``error`` afterwards).

    from tooletta.training.datasets import TokenizeRows
    tokenize = TokenizeRows("tokenizer.json", model="Qwen/Qwen3-8B")
    ds = ds.map(tokenize, batched=True, num_proc=4, remove_columns=ds.column_names)

Rows hold ``messages`` (and optionally ``tools``) in any chat shape
:func:`~tooletta.render_conversation` reads.

With ``split="auto"`` (multi-turn reasoning data: see
:func:`~tooletta.training.tokenize_conversation`) a row may give several examples, one output
row each: map with ``remove_columns`` (as above) so that the batch may grow.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ToolettaError
from ..extras import install_hint
from .tokenize import TokenizedConversation, tokenize_conversation

__all__ = ["TokenizeRows", "load_tokenizer"]

_LOADED: dict[str, Any] = {}


def load_tokenizer(path: str) -> Any:
    """A ``tokenizers.Tokenizer`` from a local ``tokenizer.json`` (once per process; nothing is
    downloaded). Needs the ``training`` extra (``pip install 'tooletta-core[training]'``)."""
    tokenizer = _LOADED.get(path)
    if tokenizer is None:
        try:
            from tokenizers import Tokenizer
        except ImportError:
            raise ToolettaError(
                install_hint("tokenizing from a tokenizer.json", "training")
            ) from None
        try:
            tokenizer = _LOADED[path] = Tokenizer.from_file(path)
        except Exception as exc:
            raise ToolettaError(f"cannot load the tokenizer {path!r}: {exc}") from None
    return tokenizer


def _plain(value: Any) -> Any:
    """Arrays (Ray's numpy columns) and their items as plain lists and dicts."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass
class TokenizeRows:
    """Tokenize batches of conversation rows (see the module docstring).

    ``tokenizer``: a path to a local ``tokenizer.json`` (or a tokenizer object, which must then
    be picklable for multiprocessing). ``model``/``dialect``, ``train_on``, ``split``,
    ``options`` as in :func:`~tooletta.training.tokenize_conversation` (``split`` other than
    ``"never"``: one output row per example). ``messages``/``tools`` name the columns.
    """

    tokenizer: Any
    model: str | None = None
    dialect: str | None = None
    train_on: str = "assistant"
    messages: str = "messages"
    tools: str = "tools"
    options: dict[str, Any] = field(default_factory=dict)
    split: str = "never"

    def _tokenizer(self) -> Any:
        if isinstance(self.tokenizer, str):
            return load_tokenizer(self.tokenizer)
        return self.tokenizer

    def row(self, messages: Any, tools: Any = None) -> TokenizedConversation:
        """One row's example, with ``split="never"`` (raises
        :class:`~tooletta.ToolettaError` for a bad row)."""
        (example,) = self.examples(messages, tools, "never")
        return example

    def examples(
        self, messages: Any, tools: Any = None, split: str | None = None
    ) -> list[TokenizedConversation]:
        """One row's examples under ``split`` (default: ``split``)."""
        if not isinstance(messages, list):
            raise ToolettaError(f"{self.messages!r} must be a list of messages")
        result = tokenize_conversation(
            messages,
            self._tokenizer(),
            model=self.model,
            dialect=self.dialect,
            tools=tools or None,
            train_on=self.train_on,
            split=self.split if split is None else split,
            **{k: v for k, v in self.options.items() if k != "split"},
        )
        return result if isinstance(result, list) else [result]

    def __call__(self, batch: Mapping[str, Any]) -> dict[str, list[Any]]:
        """Columns ``input_ids``, ``weights`` and ``error`` for a batch of rows."""
        rows = _plain(batch[self.messages])
        tools_column: Iterable[Any] = (
            _plain(batch[self.tools]) if self.tools in batch else [None] * len(rows)
        )
        out: dict[str, list[Any]] = {"input_ids": [], "weights": [], "error": []}
        for messages, tools in zip(rows, tools_column):
            try:
                examples = self.examples(messages, tools)
            except ToolettaError as exc:
                out["input_ids"].append([])
                out["weights"].append([])
                out["error"].append(str(exc))
                continue
            for example in examples:
                out["input_ids"].append(example.input_ids)
                out["weights"].append(example.weights)
                out["error"].append("")
        return out
