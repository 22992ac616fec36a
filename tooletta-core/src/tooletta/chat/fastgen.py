"""The source of a learned format's fast writer: one Python function generated per format,
with what :class:`~tooletta.chat.fastpath.FastWriter` read of the format folded in.

A :class:`~tooletta.chat.fastpath.FastWriter` knows, once per format, the turns' headers and
footers, the learned strips, the history rule, whether answers may hold reasoning or calls,
how tool results are written and which characters probe the markup. A writer that reads
those settings on every conversation pays for them each time: about twenty names unpacked,
and a test per message for each feature the format does not have. :func:`generate` writes
instead the function that format needs: the strings as literals, the tests of features the
format lacks left out, the markup probes unrolled, so a conversation of a ChatML-like format
is the type tests of its messages, one concatenation per turn and the scans of the joined
text. The function is compiled once per format object (``compile`` and ``exec`` of text
built only from the writer's settings: string literals by ``repr``, every object by
name from the namespace it runs in), and does what the module's docstring of
:mod:`tooletta.chat.fastpath` says the fast writer does, in the same order, with the same
hand-backs (``None``: the general path renders and raises its own errors).

``tests/test_render_fastpath.py`` compares the generated writers, text and error, with the
general path for every learned template of ``bench/learn.py`` and the vendored ones.
"""

from __future__ import annotations

from typing import Any

from ..ir import Message, ToolCall
from .checks import _SHORT_INT_BITS, _check_tool_text
from .messages import content_key

__all__ = ["generate", "source_of"]


class _Lines:
    """Lines of Python source at an indentation."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def __call__(self, *lines: str) -> None:
        pad = "    " * self.depth
        self.lines.extend(pad + line for line in lines)

    def indent(self) -> _Lines:
        self.depth += 1
        return self

    def dedent(self) -> None:
        self.depth -= 1

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def source_of(writer: Any) -> tuple[str, dict[str, Any]]:
    """The source of ``writer``'s ``write`` function and the namespace it runs in
    (``writer``: a :class:`~tooletta.chat.fastpath.FastWriter`)."""
    w = writer
    names: dict[str, Any] = {
        "Message": Message,
        "ToolCall": ToolCall,
        "SHORT_INT_BITS": _SHORT_INT_BITS,
        "check_tool_text": _check_tool_text,
        "content_key": content_key,
        "W": writer,
        "MISSING": _MISSING,
        "NO_TOOLS": _NO_TOOLS,
        "MEMO_SIZE": _MEMO_SIZE,
    }
    out = _Lines()
    out(
        "def write(messages, tools, add_generation_prompt, options, allow_markup):",
    )
    body = out.indent()
    body(
        "if type(messages) is not list or not messages:",
        "    return None",
        "defs = W._tools(tools) if tools else NO_TOOLS",
        "if defs is None:",
        "    return None",
        "texts = []",
        "add = texts.append",
        f"parts = [{writer.bos!r}, '']",
        "append = parts.append",
        "ctx = None",
        "anchor = None",
        "count = len(messages)",
        "last_index = count - 1",
        "for index in range(count):",
    )
    loop = body.indent()
    loop(
        "m = messages[index]",
        "if type(m) is not Message or m.extra:",
        "    return None",
        "role = m.role",
        "content = m.content",
        "reasoning = m.reasoning",
        "if type(role) is not str or type(content) is not str or type(reasoning) is not str:",
        "    return None",
        "add(content)",
        "if reasoning:",
        "    add(reasoning)" if w.reasons else "    return None",
        "name = m.name",
        "if name is not None:",
        "    if type(name) is not str:",
        "        return None",
        "    add(name)",
        "call_id = m.tool_call_id",
        "if call_id is not None:",
        "    if type(call_id) is not str:",
        "        return None",
        "    add(call_id)",
        "calls = m.tool_calls",
        "if type(calls) is not list:",
        "    return None",
        "if calls:",
    )
    if not w.calls_ok:
        loop("    return None")
    else:
        loop(
            "    if role != 'assistant'" + (" or defs:" if w.typed else ":"),
            "        return None",
            "    for call in calls:",
            "        if type(call) is not ToolCall or call.id is not None:",
            "            return None",
            "        name = call.name",
            "        arguments = call.arguments",
            "        if type(name) is not str or not name or type(arguments) is not dict:",
            "            return None",
            "        add(name)",
            "        for key, value in arguments.items():",
            "            if type(key) is not str:",
            "                return None",
            "            add(key)",
            "            kind = type(value)",
            "            if kind is str:",
            "                add(value)",
            "            elif kind is int:",
            "                if value.bit_length() > SHORT_INT_BITS:",
            "                    return None",
            "            elif kind is float:",
            "                if value - value != 0:",
            "                    return None",
            "            elif kind is not bool and value is not None:",
            "                return None",
        )
    loop("if role == 'user':")
    user = loop.indent()
    if w.user_strip is not None:
        names["USER_STRIP"] = w.user_strip
        user("content = content.lstrip(USER_STRIP[0]).rstrip(USER_STRIP[1])")
    user(f"append({w.user_head!r} + content + {w.user_tail!r})")
    loop.dedent()
    loop("elif role == 'assistant':")
    _answer(loop.indent(), names, writer)
    loop.dedent()
    loop("elif role == 'tool':")
    _result(loop.indent(), names, writer)
    loop.dedent()
    if writer.system_turns is not None:
        loop("elif role == 'system':")
        _system_turn(loop.indent(), names, writer.system_turns)
        loop.dedent()
        loop("else:", "    return None")
    else:
        loop("elif role != 'system' or index:", "    return None")
    body.dedent()
    _finish(body, writer)
    return out.text(), names


def _answer(out: _Lines, names: dict[str, Any], writer: Any) -> None:
    """The lines writing an assistant turn (``role == 'assistant'``)."""
    w = writer
    if w.refuse_empty:
        out("if not content and not calls:", "    return None")
    names["REASONING_TEXT"] = writer.fmt.reasoning_text
    if w.no_block:  # (else the block is asked for every answer)
        out("if not reasoning:", "    block = ''", "else:")
        out.indent()
    block = out
    if w.keep:
        names["EMPTY_BLOCKS"] = writer.empty_blocks
        block(
            "if anchor is None:",
            "    anchor = W._anchor(messages, count)",
            "    if anchor is None:",
            "        return None",
            "kept = index > anchor",
            "last = index == last_index",
            "if reasoning:",
            "    block = REASONING_TEXT(reasoning, kept, last)",
            "else:",
            "    block = EMPTY_BLOCKS[kept][last]",
        )
    else:
        names["KEPT_IN"] = writer.fmt.kept_in
        block(
            "try:",
            "    if ctx is None:",
            "        ctx = W._conversation(messages, (defs, options, add_generation_prompt))",
            "    block = REASONING_TEXT(reasoning, KEPT_IN(index, ctx), index == last_index)",
            "except Exception:",
            "    return None",
        )
    if w.no_block:
        out.dedent()
    if w.learned_answer:
        if w.cut_tag:
            out(f"if {w.cut_tag!r} in content:", "    return None")
        names["BLOCKED_STRIP"] = w.blocked_strip
        names["ANSWER_STRIP"] = w.answer_strip
        strip = "BLOCKED_STRIP if block else ANSWER_STRIP"
        if w.history_where:  # "not_last"
            names["HISTORY_STRIP"] = w.history_strip
            strip = f"HISTORY_STRIP if index != last_index else ({strip})"
        out(
            f"left, right = {strip}",
            "text = content.lstrip(left).rstrip(right)",
        )
        if w.rewrites:
            out("if calls and content and not text:", "    return None")
    else:
        out("text = content")
    out("try:")
    writing = out.indent()
    if w.calls_writer is not None:
        write_calls, check_content, alone, lead, lead_if_missing = w.calls_writer
        names["WRITE_CALLS"] = write_calls
        names["CHECK_CONTENT"] = check_content
        writing(
            "if calls:",
            "    body = WRITE_CALLS(calls)",
            "    if type(body) is not str:",
            "        return None",
            "    if text:",
            "        CHECK_CONTENT(text)",
        )
        if lead and lead_if_missing:
            writing(
                f"        text = text + ({lead!r} if not text.endswith({lead!r}) else '') + body"
            )
        else:
            writing(f"        text = text + {lead!r} + body")
        writing("    else:", f"        text = {alone!r} + body")
    else:
        names["DIALECT_RENDER"] = _dialect_render
        names["DIALECT"] = writer.dialect
        writing("if calls:", "    text = DIALECT_RENDER(DIALECT, calls, text)")
    if w.check is not None:
        names["CHECK"] = w.check
        writing("elif text:", "    CHECK(text)")
    out.dedent()
    out("except Exception:", "    return None")
    head, end = f"{w.answer_head!r}", f"{w.answer_tail + w.answer_foot!r}"
    if w.after_results is not None:
        out(
            "if index and messages[index - 1].role == 'tool':",
            f"    append({w.after_results!r} + block + text + {end})",
            "else:",
            f"    append({head} + block + text + {end})",
        )
    else:
        out(f"append({head} + block + text + {end})")


def _result(out: _Lines, names: dict[str, Any], writer: Any) -> None:
    """The lines writing a tool result (``role == 'tool'``)."""
    w = writer
    if not w.results_ok:
        out("return None")
        return
    grouped, separator, head, foot = w.grouped, w.separator, w.result_head, w.result_foot
    wrap_open, wrap_close, encoded, ids = w.wrap_open, w.wrap_close, w.result_json, w.result_ids
    if grouped:
        out(
            "if not (index and messages[index - 1].role == 'tool'):",
            f"    append({head!r})",
        )
        if separator:
            out("else:", f"    append({separator!r})")
    else:
        out(f"append({head!r})")
    if ids is not None:
        _result_id(out, names, ids)
    if encoded is not None:
        names["ENCODED"] = encoded
        out(
            "try:",
            "    content = ENCODED.write(content)",
            "except Exception:",
            "    return None",
        )
    if ids is not None:
        out(f"content = result_id + {ids[0]!r} + content")
    out(f"append({wrap_open!r} + content + {wrap_close!r})")
    if grouped:
        out(
            "if index < last_index:",
            "    after = messages[index + 1]",
            "    if type(after) is Message and after.role == 'tool':",
            "        continue",
        )
    out(f"append({foot!r})")


def _result_id(out: _Lines, names: dict[str, Any], ids: tuple[str, Any]) -> None:
    """The lines reading a tool result's own id (``result_id``, written before its text by
    :func:`_result`) and stripping its text, refusing an id holding the text after it."""
    after, strip = ids
    out(
        "result_id = call_id or ''",
        f"if {after!r} in result_id:",
        "    return None",
    )
    if strip != ("", ""):
        names["RESULT_STRIP"] = strip
        out("content = content.lstrip(RESULT_STRIP[0]).rstrip(RESULT_STRIP[1])")


def _system_turn(out: _Lines, names: dict[str, Any], turns: tuple[str, Any, str]) -> None:
    """The lines writing a system message as a turn of its own (``role == 'system'``)."""
    head, strip, tail = turns
    if strip is not None:
        names["SYSTEM_STRIP"] = strip
        out("content = content.lstrip(SYSTEM_STRIP[0]).rstrip(SYSTEM_STRIP[1])")
    out(f"append({head!r} + content + {tail!r})")


def _finish(out: _Lines, writer: Any) -> None:
    """The lines after the pass over the messages: the scans of the joined text, the tool
    definitions, the opening system turn and the generation prompt."""
    out(
        "joined = '\\x00'.join(texts)",
        "if not joined.isascii():",
        "    try:",
        "        joined.encode('utf-8')",
        "    except UnicodeEncodeError:",
        "        return None",
    )
    if writer.probes:
        out("if not allow_markup:")
        for probe, words in writer.probes:
            test = " or ".join(f"{word!r} in joined" for word in words)
            out(f"    if {probe!r} in joined and ({test}):", "        return None")
    out(
        "if defs:",
        "    try:",
        "        check_tool_text(defs)",
        "        tools_key = content_key(defs)",
        "    except Exception:",
        "        return None",
        "else:",
        "    tools_key = b''",
    )
    if writer.own_turns:
        _opening_turns(out)
    else:
        _opening_system(out)
    out(
        "if opening is None:",
        "    return None",
        "parts[1] = opening",
        "if add_generation_prompt or options:",
        "    try:",
        "        found = tuple(options.items()) if options else ()",
        "        prompts = W.prompts.get(found, MISSING)",
        "    except TypeError:",
        "        return None",
        "    if prompts is MISSING:",
        "        if len(W.prompts) > MEMO_SIZE:",
        "            W.prompts.clear()",
        "        prompts = W.prompts[found] = W._prompts(options)",
        "    if prompts is None:",
        "        return None",
        "    if add_generation_prompt:",
        "        role = messages[-1].role",
        "        append(prompts[0] if role == 'assistant' else"
        " prompts[1 if role == 'tool' else 2])",
        "        return ''.join(parts)",
    )
    if writer.after:
        out(f"append({writer.after!r})")
    out("return ''.join(parts)")


def _opening_system(out: _Lines) -> None:
    """The lines finding the opening system turn (``opening``), remembered by the first
    message's system text and the tools' key (``tools_key``)."""
    out(
        "first = messages[0]",
        "opening_key = (first.content if first.role == 'system' else None, tools_key)",
        "systems = W.systems",
        "opening = systems.get(opening_key, MISSING)",
        "if opening is MISSING:",
        "    if len(systems) > MEMO_SIZE:",
        "        systems.clear()",
        "    opening = systems[opening_key] = W._system(opening_key[0], defs)",
    )


def _opening_turns(out: _Lines) -> None:
    """The lines finding what a format with no opening system turn writes before the first
    message (``opening``: its declarations turn and default system turn), remembered by
    whether the first message is a system message and the tools' key (``tools_key``)."""
    out(
        "opening_key = (messages[0].role == 'system', tools_key)",
        "openings = W.openings",
        "opening = openings.get(opening_key, MISSING)",
        "if opening is MISSING:",
        "    if len(openings) > MEMO_SIZE:",
        "        openings.clear()",
        "    opening = openings[opening_key] = W._before_first(opening_key[0], defs)",
    )


def generate(writer: Any) -> Any:
    """``writer``'s ``write`` function, generated for its format (see the module's
    docstring)."""
    source, names = source_of(writer)
    code = compile(source, f"<tooletta fast writer of {writer.fmt.name!r}>", "exec")
    exec(code, names)
    return names["write"]


def _dialect_render(dialect: Any, calls: list[Any], content: str) -> str:
    """``dialect.render(calls, content=content)`` as a ``str``."""
    text = dialect.render(calls, content=content)
    return text if type(text) is str else str(text)


_MEMO_SIZE = 256
"""How many opening system turns and generation prompts a writer remembers."""
_MISSING: Any = object()
_NO_TOOLS: list[Any] = []
