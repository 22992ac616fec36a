"""The plugin face: the building blocks a tooletta plugin uses, from one import.

A plugin writes ``from tooletta.plugin import Grammar, ScannerDialect, ChatFormat, Model, ...``
instead of reaching into ``tooletta.engine``, ``tooletta.toolkit.*`` and ``tooletta.chat``.
``__all__`` is the supported set: the IR, errors and ``hookimpl``; the model catalog's
:class:`~tooletta.rows.Model` row; the engine (grammars, blocks, readers and their JSON
primitives); the toolkit (shared readers and writers of call syntaxes: XML, key-value, invoke,
Python-call, JSON documents, typed values) and the conversation format building blocks
(:class:`~tooletta.chat.ChatFormat`, :class:`~tooletta.chat.Turn`,
:class:`~tooletta.chat.Reasoning`, ChatML helpers, message readers).

Two names each mean two things in core; the face gives each meaning its own name, and the
modules keep theirs: the key-value writer :func:`tooletta.toolkit.kvcall.render_value` is
``kv_render_value``, the invoke writer :func:`tooletta.toolkit.invoke.render_value` is
``invoke_render_value``, and the toolkit's JSON string *writer*
:func:`tooletta.toolkit.jsontext.json_string` is ``quote_json_string`` (here
``json_string`` is the engine's JSON string *reader*).

Also here because plugins need them: ``derived_call_id`` (the one id policy, for a format
that writes an id for a call that has none, as OpenAI's does).

Plugin sources import core only from ``tooletta``, this module and
:mod:`tooletta.interop.hf.spec` (the ``response_template`` helpers); ``scripts/plugin_imports.py``
rewrites other imports to these faces and ``tests/test_plugin_face.py`` keeps it so.
"""

from __future__ import annotations

from tooletta import (
    CallDelta,
    DialectInfo,
    Message,
    ParseError,
    ParseResult,
    PluginError,
    RenderError,
    ScannerDialect,
    StreamUpdate,
    ToolCall,
    ToolettaError,
    UnparsedToolCall,
    hookimpl,
    to_json,
)
from tooletta.catalog import (
    Model,
    patterns_of,
)
from tooletta.chat import (
    IM_END,
    IM_START,
    AfterSystem,
    CallIds,
    ChatFormat,
    ClosedSystemBlock,
    Conversation,
    FirstMessageKeys,
    Headerless,
    HistoryCut,
    JsonResults,
    Neutral,
    Preamble,
    Prompt,
    PythonTypes,
    Reasoning,
    ResultHead,
    SystemBlock,
    ToolsBlock,
    ToolsTurn,
    TruthyPrompt,
    Turn,
    by_content,
    calling_turn,
    chatml,
    clock,
    defaults,
    each_role,
    first_of,
    implicit_after,
    keeps,
    last_index,
    last_query,
    last_user,
    roles,
    text_of,
    tool_json,
)
from tooletta.chat.declare_history import (
    ContentCut,
    RolePrompt,
)
from tooletta.chat.messages import (
    content_key,
)
from tooletta.engine import (
    Block,
    BlockError,
    BlockReader,
    Decline,
    FastReader,
    Grammar,
    Incomplete,
    MarkerSet,
    Read,
    Reader,
    call_object_reader,
    erase,
    fast_after,
    fast_json_args,
    fast_json_array,
    fast_json_call,
    fast_json_chain,
    fast_json_lines,
    fast_json_named,
    fast_json_object,
    fast_json_payload,
    fast_repeat,
    fast_with_tail,
    json_call_array,
    json_call_object,
    json_key,
    json_next,
    json_string,
    json_value,
    loads,
    marker_set,
    read_fast,
    reasoning_region,
)
from tooletta.engine.jsonread import (
    decode_bounded,
    too_deep,
)
from tooletta.engine.lookahead import (
    space_ahead,
    text_ahead,
)
from tooletta.engine.trim import (
    Trimmer,
    trim_text,
)
from tooletta.ir import (
    coerce_arguments,
)
from tooletta.limits import (
    derived_call_id,
)
from tooletta.toolkit import (
    ArgsWriter,
    coerce_value,
    mistral_id,
    typed_value,
)
from tooletta.toolkit.args import (
    one_shot_value,
)
from tooletta.toolkit.fastxml import (
    declared_value,
    kinds_of,
    one_shot,
    scan_arguments,
    scan_attrs,
    skip_ws,
    tag_end,
    typed,
)
from tooletta.toolkit.invoke import (
    InvokeSyntax,
    fast_invokes,
    free_of,
    guarded,
    quote_attribute,
    read_attributes,
    read_invoke,
    read_invokes,
    render_invoke,
    scan_invoke,
    scan_name,
    tag_boundary,
)
from tooletta.toolkit.invoke import (
    render_value as invoke_render_value,
)
from tooletta.toolkit.jsondoc import (
    JsonDocumentDialect,
    document_grammar,
)
from tooletta.toolkit.jsontext import (
    json_string as quote_json_string,
)
from tooletta.toolkit.jsontext import (
    json_without,
)
from tooletta.toolkit.kvcall import (
    KvTags,
    check_name,
    fast_kv_call,
    kv_call_block,
    read_kv_call,
    render_key,
    render_pairs,
)
from tooletta.toolkit.kvcall import (
    render_value as kv_render_value,
)
from tooletta.toolkit.literal import (
    write_literal,
)
from tooletta.toolkit.messages import (
    message_body,
)
from tooletta.toolkit.pycall import (
    bracket_nesting,
    fast_py_calls,
    fast_py_list,
    py_literal_at,
)
from tooletta.toolkit.reading import (
    Declared,
    decode_args,
    end_json_call,
    fast_header_call,
    fast_section,
    header_call_block,
    header_call_reader,
    header_safe,
    json_args,
    json_args_at,
    read_attrs,
    read_value,
    section,
    think_region,
)
from tooletta.toolkit.rendermark import (
    plain_render,
    plain_render_without_calls,
)
from tooletta.toolkit.schema import (
    ToolSchemas,
    is_string_schema,
    schema_types,
)
from tooletta.toolkit.variant import (
    variant_info,
)
from tooletta.toolkit.xmlcall import (
    FUNC,
    XmlTags,
    call_blocks,
    render_wrapped,
)

__all__ = [
    "FUNC",
    "IM_END",
    "IM_START",
    "AfterSystem",
    "ArgsWriter",
    "Block",
    "BlockError",
    "BlockReader",
    "CallDelta",
    "CallIds",
    "ChatFormat",
    "ClosedSystemBlock",
    "ContentCut",
    "Conversation",
    "Declared",
    "Decline",
    "DialectInfo",
    "FastReader",
    "FirstMessageKeys",
    "Grammar",
    "Headerless",
    "HistoryCut",
    "Incomplete",
    "InvokeSyntax",
    "JsonDocumentDialect",
    "JsonResults",
    "KvTags",
    "MarkerSet",
    "Message",
    "Model",
    "Neutral",
    "ParseError",
    "ParseResult",
    "PluginError",
    "Preamble",
    "Prompt",
    "PythonTypes",
    "Read",
    "Reader",
    "Reasoning",
    "RenderError",
    "ResultHead",
    "RolePrompt",
    "ScannerDialect",
    "StreamUpdate",
    "SystemBlock",
    "ToolCall",
    "ToolSchemas",
    "ToolettaError",
    "ToolsBlock",
    "ToolsTurn",
    "Trimmer",
    "TruthyPrompt",
    "Turn",
    "UnparsedToolCall",
    "XmlTags",
    "bracket_nesting",
    "by_content",
    "call_blocks",
    "call_object_reader",
    "calling_turn",
    "chatml",
    "check_name",
    "clock",
    "coerce_arguments",
    "coerce_value",
    "content_key",
    "declared_value",
    "decode_args",
    "decode_bounded",
    "defaults",
    "derived_call_id",
    "document_grammar",
    "each_role",
    "end_json_call",
    "erase",
    "fast_after",
    "fast_header_call",
    "fast_invokes",
    "fast_json_args",
    "fast_json_array",
    "fast_json_call",
    "fast_json_chain",
    "fast_json_lines",
    "fast_json_named",
    "fast_json_object",
    "fast_json_payload",
    "fast_kv_call",
    "fast_py_calls",
    "fast_py_list",
    "fast_repeat",
    "fast_section",
    "fast_with_tail",
    "first_of",
    "free_of",
    "guarded",
    "header_call_block",
    "header_call_reader",
    "header_safe",
    "hookimpl",
    "implicit_after",
    "invoke_render_value",
    "is_string_schema",
    "json_args",
    "json_args_at",
    "json_call_array",
    "json_call_object",
    "json_key",
    "json_next",
    "json_string",
    "json_value",
    "json_without",
    "keeps",
    "kinds_of",
    "kv_call_block",
    "kv_render_value",
    "last_index",
    "last_query",
    "last_user",
    "loads",
    "marker_set",
    "message_body",
    "mistral_id",
    "one_shot",
    "one_shot_value",
    "patterns_of",
    "plain_render",
    "plain_render_without_calls",
    "py_literal_at",
    "quote_attribute",
    "quote_json_string",
    "read_attributes",
    "read_attrs",
    "read_fast",
    "read_invoke",
    "read_invokes",
    "read_kv_call",
    "read_value",
    "reasoning_region",
    "render_invoke",
    "render_key",
    "render_pairs",
    "render_wrapped",
    "roles",
    "scan_arguments",
    "scan_attrs",
    "scan_invoke",
    "scan_name",
    "schema_types",
    "section",
    "skip_ws",
    "space_ahead",
    "tag_boundary",
    "tag_end",
    "text_ahead",
    "text_of",
    "think_region",
    "to_json",
    "too_deep",
    "tool_json",
    "trim_text",
    "typed",
    "typed_value",
    "variant_info",
    "write_literal",
]
