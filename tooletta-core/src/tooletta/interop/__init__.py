"""Interop: tooletta's calls in the shapes of the APIs and libraries users already have.

Every shape is pinned in ECOSYSTEM.md (with sources). Three layers:

**One call** (:mod:`~tooletta.interop.calls`): ``to_*`` / ``from_*`` pairs for OpenAI Chat
``tool_calls`` items, the legacy ``function_call``, Hugging Face / TRL items (dict
arguments), Anthropic ``tool_use`` blocks, Responses ``function_call`` items and
tinker-cookbook ``ToolCall`` dicts; :func:`read_tool_call` reads any of them.

**Conversations**: :func:`read_messages` reads any supported shape into neutral
:class:`~tooletta.Message` s; ``messages_to_openai`` / ``_hf`` / ``_tinker`` / ``_anthropic`` /
``_responses`` write each target, mapping ids with the target's policy
(:class:`IdMapper`: ``openai``, ``mistral``, ``anthropic``, ``kimi``, ``keep``) so tool
results keep following their calls. Tool definitions: :func:`read_tools` and ``to_*_tools``.

**Reasoning** (:mod:`~tooletta.interop.reasoning`): every reader fills
:attr:`Message.reasoning <tooletta.Message>` (``reasoning_content``, Anthropic ``thinking``
blocks, Responses ``reasoning`` items, tinker ``thinking`` parts) and keeps what a provider
needs back verbatim (signatures, ``redacted_thinking``, encrypted items) in ``extra``; every
writer puts it where its target has a place, under a policy (``keep``, ``native``, ``drop``).

**Streams and datasets**: a :func:`tooletta.stream` parser's updates become OpenAI
``chat.completion.chunk`` dicts (:class:`ChunkWriter`, :func:`updates_to_chunks`), Anthropic
events (:class:`AnthropicEventWriter`, :func:`updates_to_anthropic_events`) or Responses
events (:class:`ResponsesEventWriter`, :func:`updates_to_responses_events`); the assemblers
add each stream up as its SDK does (:func:`assemble_chunks`,
:func:`assemble_anthropic_events`, :func:`assemble_responses_events`), from dicts or SDK
objects. :func:`convert_rows` renders or parses the assistant messages of dataset rows in
bulk.

**Hugging Face response parsing** (:mod:`tooletta.interop.hf`): ``parse_response`` in
transformers' message shape, and transformers' ``response_template`` both ways (a model's
template read into a tooletta dialect; a template written for a tooletta dialect).

>>> from tooletta.interop import messages_to_anthropic
>>> call = {"id": "functions.get_weather:0", "type": "function",
...         "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
>>> chat = [
...     {"role": "user", "content": "Weather in Paris?"},
...     {"role": "assistant", "content": None, "tool_calls": [call]},
...     {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "18C"},
... ]
>>> turns = messages_to_anthropic(chat)["messages"]
>>> use, result = turns[1]["content"][0], turns[2]["content"][0]
>>> use["id"] == result["tool_use_id"], use["id"]
(True, 'functions_get_weather_0_79ac1aaa')
"""

from __future__ import annotations

from .anthropic_events import AnthropicEventWriter, updates_to_anthropic_events
from .anthropic_stream import AnthropicStreamAssembler, assemble_anthropic_events
from .calls import (
    from_anthropic_tool_use,
    from_hf_tool_call,
    from_openai_function_call,
    from_openai_tool_call,
    from_responses_function_call,
    from_tinker_tool_call,
    read_tool_call,
    to_anthropic_tool_use,
    to_hf_tool_call,
    to_openai_function_call,
    to_openai_tool_call,
    to_responses_function_call,
    to_tinker_tool_call,
)
from .convert import (
    messages_to_anthropic,
    messages_to_hf,
    messages_to_openai,
    messages_to_responses,
    messages_to_tinker,
)
from .datasets import convert_rows
from .ids import ID_POLICIES, IdMapper, IdPolicy, adopt_result_ids, ensure_ids, map_ids
from .message import Message, pair_results
from .openai_stream import ChunkWriter, accumulate_delta, assemble_chunks, updates_to_chunks
from .read import read_messages
from .reasoning import REASONING_POLICIES, ReasoningPolicy
from .responses_events import ResponsesEventWriter, updates_to_responses_events
from .responses_stream import ResponsesStreamAssembler, assemble_responses_events
from .tools import (
    ToolSpec,
    read_tools,
    to_anthropic_tools,
    to_openai_tools,
    to_responses_tools,
    to_tinker_tools,
)

__all__ = [
    "ID_POLICIES",
    "REASONING_POLICIES",
    "AnthropicEventWriter",
    "AnthropicStreamAssembler",
    "ChunkWriter",
    "IdMapper",
    "IdPolicy",
    "Message",
    "ReasoningPolicy",
    "ResponsesEventWriter",
    "ResponsesStreamAssembler",
    "ToolSpec",
    "accumulate_delta",
    "adopt_result_ids",
    "assemble_anthropic_events",
    "assemble_chunks",
    "assemble_responses_events",
    "convert_rows",
    "ensure_ids",
    "from_anthropic_tool_use",
    "from_hf_tool_call",
    "from_openai_function_call",
    "from_openai_tool_call",
    "from_responses_function_call",
    "from_tinker_tool_call",
    "map_ids",
    "messages_to_anthropic",
    "messages_to_hf",
    "messages_to_openai",
    "messages_to_responses",
    "messages_to_tinker",
    "pair_results",
    "read_messages",
    "read_tool_call",
    "read_tools",
    "to_anthropic_tool_use",
    "to_anthropic_tools",
    "to_hf_tool_call",
    "to_openai_function_call",
    "to_openai_tool_call",
    "to_openai_tools",
    "to_responses_function_call",
    "to_responses_tools",
    "to_tinker_tool_call",
    "to_tinker_tools",
    "updates_to_anthropic_events",
    "updates_to_chunks",
    "updates_to_responses_events",
]
