"""The declaration of a chat template: what a model's own template writes around each turn.

A :class:`ChatFormat` is to a conversation what a :class:`~tooletta.engine.Grammar` is to a
tool call: data. It names the role headers and footers, the end-of-turn token the model
generates, where the system prompt and the tool declarations go and how they are written, how
tool results are wrapped and grouped, where reasoning goes and which turns keep it, and the
generation prompt. One declaration drives :func:`~tooletta.render_conversation`,
:func:`~tooletta.parse_conversation` and the token spans of :mod:`tooletta.training`.

Plugins fill one in per model template (subclass, set the class attributes) and attach it to their
dialect's ``chat_formats``. The odd template overrides one of the small hooks
(:meth:`ChatFormat.system_text <tooletta.chat.ChatFormat.system_text>`,
:meth:`ChatFormat.result_text <tooletta.chat.ChatFormat.result_text>`, ...), never the renderer.
The plain declarations its attributes hold (:class:`~tooletta.chat.Turn`,
:class:`~tooletta.chat.Reasoning`...) are in :mod:`tooletta.chat.declare_layout`, the
others in :mod:`tooletta.chat.declare` and its ``declare_*`` siblings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Literal

import msgspec

from ..errors import RenderError
from ..expressible import check_calls, max_depth_of
from ..ir import Message, ToolCall
from .conversation import Conversation, conversation, first_of, last_index, last_user
from .declare import Preamble, Prompt, ResultHead, SystemBlock, ToolsBlock, keeps
from .declare_history import (
    ContentCut,
    HistoryCut,
    RolePrompt,
    gathered_carried,
    gathered_system,
)
from .declare_layout import Reasoning, Turn, defaults, each_role, roles
from .declare_results import JsonResults, pending_at_runs, split_by_calls
from .declare_turns import CallIds, Headerless
from .messages import text_of
from .notools import ToolsRefusedError, no_tools_refusal
from .shortcuts import LAST, UNPROVED, without_calls

__all__ = [
    "ChatFormat",
    "Conversation",
    "Reasoning",
    "Turn",
    "defaults",
    "each_role",
    "first_of",
    "last_index",
    "last_user",
    "opening_footer",
    "roles",
]


class ChatFormat:
    """One model template's chat layout, declared (subclass and set the class attributes).

    The renderer walks the messages and asks the declaration for each piece:

    * ``bos``, then a system turn when :meth:`system_text` returns text (the system message's
      content and the tool declarations, each template its own way);
    * each message as ``turns[role].header`` + its body + ``turns[role].footer``; the body of
      an assistant turn is the reasoning block (by :attr:`reasoning`'s rules), the content and
      the calls written by the dialect (:meth:`assistant_text`);
    * tool results wrapped by :attr:`result_wrap` and, when :attr:`group_results` is set,
      consecutive results share one turn (Qwen's ``<tool_response>`` blocks in one user turn);
    * the generation prompt (:meth:`generation_prompt`) when asked for.

    ``end_of_turn`` is the token the model generates to end its turn (the start of the
    assistant footer); trained spans end with it. A template whose end token depends on the
    turn (Harmony ends a call with ``<|call|>`` and the last answer with ``<|return|>``)
    declares the others in :attr:`end_tokens` and picks one per turn in :meth:`end_token`.
    A system turn declared with neither header nor footer (DeepSeek writes the system prompt
    right after the start) is read back as the text before the first turn header.

    Tool results written inside the assistant's turn (Gemma 4: the model ends a turn with
    calls by generating ``<|tool_response>``, the results follow in the same turn and the
    model goes on writing there) are declared with the hooks, the results staying messages
    of their own: :meth:`end_token` gives the call turn its token (declared in
    :attr:`end_tokens`; trained as the turn's end), :meth:`assistant_footer` writes nothing
    after it, :meth:`header` leaves out the first result's opening (the end token wrote it)
    and the continuing assistant turn's header, and :meth:`read_header` and
    :meth:`implicit_role` read those headerless turns back. The renderer then keeps the
    segments honest: the model's calls, content and end token are generated text, the
    results written inside its turn are not.
    """

    name: ClassVar[str]
    """The format's name (a model family and version, such as ``qwen3`` or ``llama31``)."""
    models: ClassVar[tuple[str, ...]] = ()
    """Lower-case glob patterns of the model ids whose template this is."""
    source: ClassVar[str] = ""
    """Where the template was read (model repository and file), for the docs."""
    bos: ClassVar[str] = ""
    """Written once at the very start (the template's ``bos_token`` and prefix)."""
    turns: ClassVar[Mapping[str, Turn]]
    """Header and footer per role (``system``, ``user``, ``assistant``, ``tool``)."""
    end_of_turn: ClassVar[str] = ""
    """The token that ends an assistant turn (generated by the model, so trained)."""
    end_tokens: ClassVar[tuple[str, ...]] = ()
    """Other tokens that end an assistant turn in this template, when the end token depends on
    the turn (see :meth:`end_token` and :meth:`find_end`); each is a single token id."""
    special_tokens: ClassVar[tuple[str, ...]] = ()
    """The format's tokens that the model's tokenizer holds as single ids (role markers,
    end of turn, reasoning and tool-call tags); :mod:`tooletta.training` checks them."""
    reasoning: ClassVar[Reasoning | None] = None
    """How reasoning is written and kept; ``None``: the template writes none."""
    result_wrap: ClassVar[tuple[str, str]] = ("", "")
    """Text around each tool result's content."""
    group_results: ClassVar[bool] = False
    """Consecutive tool results share one turn (one header, one footer)."""
    result_separator: ClassVar[str] = ""
    """Text between two results of one group (DeepSeek R1 writes ``\\n``); only with
    :attr:`group_results`."""
    system_roles: ClassVar[frozenset[str]] = frozenset({"system"})
    """Roles read as the system message when first (``developer`` too for some formats)."""
    merge_system: ClassVar[bool] = True
    """The first system message goes into the opening system turn (with the tool
    declarations); ``False``: every system message is a turn of its own, and the opening turn
    (from :meth:`system_text`) holds only what the template writes there itself (GLM)."""
    stop_tokens: ClassVar[tuple[str, ...]] = ()
    """For formats without an end-of-turn token, the tokens the model generates to end its
    turn, which the template writes as the start of the next turn (GLM's ``<|observation|>``
    and ``<|user|>``). They count as the assistant turn's generated text."""
    open_last: ClassVar[bool] = False
    """The template may leave the conversation's last assistant turn without its end token
    (Hy3 without ``is_training``: :meth:`end_token` gives ``""`` there): read back, a turn
    whose end token never comes runs to the end of the text (else the text is refused)."""
    calls_end: ClassVar[tuple[str, str] | None] = None
    """How an assistant turn with calls ends, when not as the assistant footer says; its end
    token (one of :attr:`end_tokens`) and the template text after it (Functionary's
    ``<|eom_id|>`` and nothing): the default :meth:`end_token` and :meth:`assistant_footer`.
    ``None``: as the footer says."""
    last_end: ClassVar[tuple[str, str] | None] = None
    """How the conversation's last message, an assistant turn, ends when not as the footer
    says (before :attr:`calls_end`): its end token and the text after it (Olmo 3.1 ends it
    with the ``eos_token`` ``<|endoftext|>`` and nothing). ``None``: as the footer says."""
    last_end_calls: ClassVar[bool] = True
    """:attr:`last_end` ends a last turn with calls too; ``False``: such a turn ends as it
    would elsewhere (Apertus's Hub template ends the last answer with ``<|assistant_end|>``
    and leaves a last call list open for its results)."""
    turn_stops: ClassVar[tuple[str, str] | None] = None
    """What the model generates to end a turn with calls, and a turn without, when the two
    differ and neither is the turn's :meth:`end_token` (Apertus stops at the
    ``<|tools_suffix|>`` closing its calls, the results following in the same turn, else at
    ``<|assistant_end|>``): the default :meth:`turn_stop`. ``None``: the end token."""
    options: ClassVar[Mapping[str, Any]] = {}
    """The template's switches and their defaults (``enable_thinking``, ``date_string``...)."""
    unwritten_options: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    """Switches the template reads that the format does not write, each with the value under
    which the template writes what the format writes (usually its default: ``None`` for
    "not given"), or a :class:`~tooletta.chat.Neutral` of every such value (``Neutral(None,
    False)``; ``Neutral()``: only "not given"). :func:`~tooletta.render_conversation` refuses
    one given with another value
    (:class:`~tooletta.RenderError` naming the option and the format: render with
    ``chat_template=`` to use it) rather than render as if it were not given; a switch
    neither declared here nor in :attr:`options` is ignored (callers pass one set of options
    to every model), a close misspelling of one warned about
    (:mod:`tooletta.chat.switches`)."""
    unwritten_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = MappingProxyType({})
    """Message keys the template reads and the format does not write, by role, each with the
    value under which the template writes what the format writes (MiniMax-M2 writes a system
    message's ``current_date`` and ``current_location`` keys: ``{"system":
    {"current_date": None, ...}}``; a :class:`~tooletta.chat.Neutral` for several values; a
    role's table a :class:`~tooletta.chat.FirstMessageKeys` when the template reads the keys
    on the conversation's first message only). Such a key, given on a message of that role (a chat
    dict's key, kept in :class:`Message.extra <tooletta.Message>`) with another value, is refused
    (:class:`~tooletta.RenderError` naming the message, the key and the format) rather than
    dropped. Other extra keys are ignored, as the templates ignore them."""
    last_user_hint: ClassVar[tuple[str, str] | None] = None
    """A switch of :attr:`options` and the text the template appends to the last user
    message's text when the switch is truthy (Nemotron 3 Super's ``low_effort``,
    ``"\\n\\n{reasoning effort: low}"``): written by the default :meth:`user_text`, and read
    back as part of that message's content (nothing in the text tells it from a user who
    typed it), which :meth:`carried` says. ``None``: none."""
    part_separator: ClassVar[str] = ""
    """What the template writes between the text parts of a message whose content is a list
    of parts (Granite 4: a newline); see :meth:`text`."""
    keeps_ids: ClassVar[bool] = True
    """The text carries the calls' ids (``False``: :meth:`expressible` drops them)."""
    quoted_fields: ClassVar[frozenset[str]] = frozenset()
    """The message fields the template writes quoted, as JSON strings (LongCat's tool
    results), where markup reads back as text; :func:`~tooletta.render_conversation` does
    not refuse markup (:meth:`markup`) there. Field names: ``"content"``, ``"system"``,
    ``"tool result"``, ``"reasoning"``, ``"name"``, ``"id"``."""
    system_block: ClassVar[SystemBlock | None] = None
    """How the opening system turn writes the system message and the tool declarations and
    reads the message back (:class:`~tooletta.chat.declare.SystemBlock`); ``None``: the
    system message as given, no declarations (or :meth:`system_text` overridden)."""
    tools_block: ClassVar[ToolsBlock | None] = None
    """Tool declarations written outside any turn, before one of them
    (:class:`~tooletta.chat.declare.ToolsBlock`, Mistral's ``[AVAILABLE_TOOLS]``), written by
    the default :meth:`before_turn` and skipped by :meth:`skip_before_turn`; ``None``: none
    (or those hooks overridden)."""
    preamble: ClassVar[Preamble | None] = None
    """Text before the first message, outside any turn (:class:`~tooletta.chat.declare.Preamble`:
    Kimi K3's tool-declaration and thinking-effort messages), written by the default
    :meth:`before_turn` and skipped by :meth:`skip_before_turn`; ``None``: none (or those
    hooks overridden)."""
    result_head: ClassVar[ResultHead | None] = None
    """A label written before each tool result's content (:class:`~tooletta.chat.ResultHead`:
    the call's id, the function's name), read off by :meth:`parse_result`; ``None``: none."""
    prompt: ClassVar[Prompt | None] = None
    """The generation prompt (:class:`~tooletta.chat.declare.Prompt`); ``None``: the
    assistant turn's header (or :meth:`generation_prompt` overridden)."""
    trim: ClassVar[frozenset[str]] = frozenset()
    """The roles whose message text the template trims (``"system"``, ``"user"``, ``"tool"``,
    ``"assistant"``: Qwen3.5 trims every text): the default hooks write it trimmed and
    :meth:`expressible` gives it back so."""
    prompt_options: ClassVar[Sequence[Mapping[str, Any]]] = ()
    """Option sets (each merged over the caller's options) under which the template writes
    another generation prompt or ending than under its defaults (Qwen3's
    ``{"enable_thinking": False}`` empty think block): :meth:`generation_prompts` lists those
    forms too, so that :func:`~tooletta.parse_conversation`, which is not told the options a
    text was rendered with, reads any of them at the end of the text as no message."""
    gather_system: ClassVar[str | None] = None
    """Every system message (of :attr:`system_roles`), wherever it stands, is written in the
    opening system turn, their texts joined by this (DeepSeek: a blank line; Hy3: nothing),
    and a later one writes nothing where it stands; :meth:`expressible` gives them back as
    one system message first. ``None``: only a first system message goes there."""
    content_cut: ClassVar[ContentCut | None] = None
    """The part of an assistant turn's content the template drops
    (:class:`~tooletta.chat.declare_history.ContentCut`: DeepSeek and QwQ write a past
    turn's content after its ``</think>``), written cut by the default
    :meth:`assistant_text` and carried cut; ``None``: as given."""
    implicit_roles: ClassVar[Mapping[str | None, str]] = MappingProxyType({})
    """The role of a turn the template writes without a header, by the role of the message
    before it (``None``: at the start), for :func:`~tooletta.parse_conversation` (the default
    :meth:`implicit_role`): Gemma 4 and DeepSeek go on with the assistant's text after tool
    results, ``implicit_after("tool", "assistant")``
    (:func:`~tooletta.chat.implicit_after`). Empty: every turn has a header. The
    headers left out are the :meth:`header` hook's.

    Unlike :attr:`headerless`, it only reads: its users' ``header`` hooks follow other rules."""
    writes_tools: ClassVar[bool] = True
    """Whether the template writes tools (tool declarations, an assistant turn's calls and
    tool results). ``False``: it writes none of them (Mistral Small 3's template leaves the
    declarations out, drops an assistant turn's calls and raises on a tool message; its model
    takes tools through its tokenizer), and every render refuses each
    (:func:`~tooletta.chat.notools.refuse_tools`: a
    :class:`~tooletta.chat.notools.ToolsRefusedError`, a :class:`~tooletta.RenderError`, naming
    the format and what it has no place for) rather than drop it; such a format declares no
    ``tool`` turn, :attr:`tools_block` or :attr:`call_ids`. The cross-format tests and
    :mod:`tooletta.testing`'s conversation laws read it: they assert the refusal where they
    would render tools, and :func:`~tooletta.chat.identify` names such a format only for a
    template that writes no tools either."""
    calls_content: ClassVar[bool] = True
    """The template writes an assistant turn's content beside its calls. ``False``: a turn
    with calls is written without its content (the default :meth:`assistant_text`; llama.cpp
    folds Gemma 4's calls turn and keeps only the answer after its results), and
    :meth:`expressible` drops it so."""
    trim_opening: ClassVar[bool | None] = None
    """Whether the template trims the first system message, the one merged into the opening
    system turn, when it does not as it trims later system messages (``"system"`` in
    :attr:`trim`): ``False``, Command R+ writes it as given and trims every other text. The
    default :meth:`system_text` and :meth:`expressible` follow it. ``None``: as :attr:`trim`
    says."""
    continue_prompt: ClassVar[Prompt | None] = None
    """The generation prompt of a conversation that ends inside the model's turn, for a
    template that writes tool results inside it: after a tool result, or after an assistant
    turn that its end token (one of :attr:`end_tokens`, not :attr:`end_of_turn`) leaves open
    for the results (Gemma 4's ``<|tool_response>``); the default :meth:`generation_prompt`.
    ``Prompt(head="")`` writes nothing there (the model goes on in its turn). ``None``: as
    :attr:`prompt` says everywhere."""
    results_end: ClassVar[tuple[str, str] | None] = None
    """How an assistant turn with calls that a tool result follows ends, when not as the
    footer says (before :attr:`calls_end`, after :attr:`last_end`): its end token (one of
    :attr:`end_tokens`) and the text after it (llama.cpp's interleaved Gemma 4 template ends
    such a turn with ``<|tool_response>`` and nothing, the results following in the same turn,
    and a turn with calls and no results as any other). ``None``: as :attr:`calls_end` or the
    footer says."""
    headerless: ClassVar[Headerless | None] = None
    """Turns of a role the template writes without a header after some roles
    (:class:`~tooletta.chat.declare_turns.Headerless`: Mistral's assistant turns), written by
    the default :meth:`header` and read back by :meth:`implicit_role`; ``None``: every turn
    has its declared header (or those hooks overridden)."""
    call_ids: ClassVar[CallIds | None] = None
    """The ids the template writes for a turn's calls when not their own
    (:class:`~tooletta.chat.declare_turns.CallIds`: Mistral derives a missing or invalid
    one, Kimi K2 counts the calls before them), written by the default :meth:`calls_text`
    (per turn) and :meth:`assistant_text` (across the conversation) and given back by
    :meth:`expressible`; ``None``: the calls' own ids."""
    result_json: ClassVar[JsonResults | None] = None
    """Tool results written through the template's ``tojson``
    (:class:`~tooletta.chat.declare_results.JsonResults`: Llama's text results as JSON string
    literals), by the default :meth:`result_text` (inside the :attr:`result_head` label) and
    read back by :meth:`parse_result`; ``None``: the content as it is."""
    open_footers: ClassVar[frozenset[str]] = frozenset()
    """The roles (not the assistant's) whose footer is text their body may hold too (a line
    break: Nemotron Nano v2's user turns end with ``\\n`` before the next header, Apriel 1.6
    writes three after each tool result): :func:`~tooletta.parse_conversation` reads such a
    turn up to the next header, as a turn without a footer, and takes the footer off the end
    of its body (the opening system turn's too; for tool results: when :attr:`result_wrap`
    has no closing text)."""
    answer_lead: ClassVar[str] = ""
    """Text the template writes before the content of every assistant turn without calls
    (Mistral 7B v0.3, Large 2411 and Codestral write ``' ' + content``): model text, the
    start of the generated turn (a SentencePiece tokenizer writes that space as the
    ``▁`` of the answer's first word, so it is trained with the answer, not given in the
    prompt), written by the default :meth:`turn_body` and taken off the body by the default
    :meth:`parse_turn`. A turn with calls has none (v0.3 writes ``[TOOL_CALLS]`` right after
    ``[/INST]``)."""
    body_end: ClassVar[str] = ""
    """Text the template writes at the end of every assistant turn's body, before its end
    token (Apriel 1.5's line break before ``<|end|>``): model text, written by the default
    :meth:`turn_body` and taken off the body by the default :meth:`parse_turn`."""
    last_ids: ClassVar[bool] = True
    """The conversation's last message writes its calls' ids (``False``: the template leaves
    them out there, Apriel's ``loop.last``): the default :meth:`turn_body` writes that turn's
    calls without ids and :meth:`expressible` drops them."""
    history_cut: ClassVar[HistoryCut | None] = None
    """What the template keeps of the content of an assistant turn that is not the
    conversation's last message (:class:`~tooletta.chat.HistoryCut`: Apriel 1.6 keeps what
    follows ``[BEGIN FINAL RESPONSE]``), written by the default :meth:`turn_body` and given
    back by :meth:`expressible`; ``None``: the content as it is."""
    late_system: ClassVar[Literal["turn", "dropped", "opening"]] = "turn"
    """How a system message the opening turn does not hold (one after the first message, or
    any with :attr:`merge_system` false) is written: ``"turn"``, a turn of its own
    (``turns["system"]``, its text as :meth:`user_text` writes it, read by :meth:`parse_user`);
    ``"dropped"``, nothing where it stands (Nemotron Nano v2's template drops it; DeepSeek's
    and Hy3's move its text into the opening turn: :attr:`gather_system`), and
    :meth:`expressible` drops it; ``"opening"``, a turn whose body is written as the opening
    one is (:meth:`system_text` of its text: the Apriel templates write their reasoning prompt
    and the declarations again), refused when :meth:`parse_user` would not read it back,
    which reads a body that starts with one of the :attr:`system_block`'s ``leads`` as
    :meth:`parse_system` does."""
    results_by_calls: ClassVar[bool] = False
    """Consecutive tool results (:attr:`group_results`) are joined by :attr:`result_separator`
    with no closing wrap, so a result may hold what separates them (Nemotron Nano v2's
    ``<TOOL_RESPONSE>[r1, r2]</TOOL_RESPONSE>``): the default :meth:`split_results` reads one
    result per call awaiting results, a JSON value whole, the last taking the rest
    (:func:`~tooletta.chat.declare_results.split_by_calls`), and the default
    :meth:`result_text` refuses a run of results that would not split back so (more results
    than calls awaiting them, a text holding the separator where one is read)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that overrides :meth:`keeps_reasoning` without its own :meth:`kept_in`
        gets the default :meth:`kept_in` back (which asks :meth:`keeps_reasoning`), so that a
        ``kept_in`` inherited from a base with another rule never answers for it."""
        super().__init_subclass__(**kwargs)
        if "keeps_reasoning" in cls.__dict__ and "kept_in" not in cls.__dict__:
            cls.kept_in = ChatFormat.kept_in  # type: ignore[method-assign]
        prompt = cls.__dict__.get("prompt")
        if isinstance(prompt, Prompt) and "prompt_options" not in cls.__dict__:
            cls.prompt_options = prompt.other_options()

    # -- hooks: override for the odd template ----------------------------------------------

    def text(self, content: Any) -> str:
        """A message's content as the template writes it: a string as it is, a list of parts
        as their text joined by :attr:`part_separator` (:func:`~tooletta.chat.text_of`). A
        template that writes other content differently (GigaChat 3 writes it as JSON)
        overrides this; :meth:`expressible` then gives that text back."""
        if type(content) is str:
            return content
        return text_of(content, self.part_separator)

    def markup(self) -> tuple[str, ...]:
        """The tokens this format reads as markup wherever they stand in its text, which
        :func:`~tooletta.render_conversation` refuses in message text (unless
        ``allow_markup=True``): the turn headers and footers, the end and stop tokens, the
        special tokens, the reasoning tags and the result wrap (and the opening turn's own
        footer, the ``footer`` of the :attr:`system_block`), each without
        the whitespace around it; pieces shorter than two characters (a ``]`` closing
        Apertus's results) are left out, as is ``bos`` (read only at the start). A template
        with other markup (a header its :meth:`header` hook builds) overrides this and adds
        it."""
        pieces = [self.end_of_turn, *self.end_tokens, *self.stop_tokens, *self.special_tokens]
        for turn in self.turns.values():
            pieces += (turn.header, turn.footer)
        if self.system_block is not None and self.system_block.footer:
            pieces.append(self.system_block.footer)
        if self.reasoning is not None:
            pieces += (self.reasoning.open, self.reasoning.close)
        pieces += self.result_wrap
        stripped = (piece.strip() for piece in pieces)
        return tuple(dict.fromkeys(piece for piece in stripped if len(piece) >= 2))

    def header(self, index: int, ctx: Conversation) -> str:
        """The header of the message at ``index`` (``turns[role].header`` by default; a
        template whose headers depend on the turn before, such as DeepSeek's assistant header
        written only after a user turn, overrides this). A turn :attr:`headerless` declares
        has none."""
        bare = self.headerless
        if bare is not None:
            messages = ctx.messages
            previous = messages[index - 1].role if index else None
            if bare.omits(messages[index].role, previous):
                return ""
        return self.turns[ctx.messages[index].role].header

    def implicit_role(self, previous: str | None) -> str | None:
        """The role of a turn the template writes without a header after a message of role
        ``previous`` (DeepSeek continues the assistant right after tool outputs); ``None``:
        every turn has a header. Used by :func:`~tooletta.parse_conversation`. Default: as
        :attr:`headerless` declares, else :attr:`implicit_roles`."""
        bare = self.headerless
        if bare is not None:
            role = bare.implicit(previous)
            if role is not None:
                return role
        return self.implicit_roles.get(previous)

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The body of the opening system turn, or ``None`` for no such turn.

        ``system`` is the first message's content when it is a system message. The default
        writes it as :attr:`system_block` declares (trimmed when :attr:`trim` holds
        ``"system"``; a dated default with :meth:`Conversation.strftime_now`), or as it is
        and without the tools when nothing is declared. With :attr:`gather_system`, ``system``
        is every system message's text, joined.
        """
        if self.gather_system is not None:
            system = gathered_system(ctx.messages, self.system_roles, self.text, self.gather_system)
        opening = self.trim_opening
        if system is not None and ("system" in self.trim if opening is None else opening):
            system = system.strip()
        block = self.system_block
        if block is None:
            return system
        return block.write(system, ctx.tools, ctx.strftime_now, ctx.options)

    def parse_system(self, body: str) -> str | None:
        """The system message's content from the opening system turn's body (the inverse of
        :meth:`system_text`): ``None`` when the turn held no system message."""
        block = self.system_block
        return body if block is None else block.read(body)

    def user_text(self, index: int, ctx: Conversation) -> str:
        """The body of the user (or later system) turn at ``index`` (trimmed when
        :attr:`trim` holds its role)."""
        message = ctx.messages[index]
        if self.late_system == "opening" and message.role in self.system_roles:
            return self._as_opening(index, ctx)
        text = self.text(message.content)
        text = text.strip() if message.role in self.trim else text
        return text + self._user_hint(ctx) if index == ctx.last_user else text

    def _user_hint(self, ctx: Conversation) -> str:
        """The :attr:`last_user_hint` text under ``ctx``'s options (``""``: none or off)."""
        hint = self.last_user_hint
        return hint[1] if hint is not None and ctx.options.get(hint[0]) else ""

    def _as_opening(self, index: int, ctx: Conversation) -> str:
        """The body of the system message at ``index``, not the opening turn's, written as
        the opening turn's is (:attr:`late_system` ``"opening"``); refused when it would not
        read back as written."""
        content = self.text(ctx.messages[index].content)
        try:
            written = self.system_text(content, ctx)
        except RenderError:  # (a system block's refusal: said for this message here)
            written = None
        if written is None or self.parse_user(written) != content:
            raise RenderError(
                f"{self.name}: message {index}: a later system message is written in a system "
                "turn as the opening one is, where this text would not read back as written (it "
                "holds the turn's own prompt or declarations text)"
            )
        return written

    def parse_user(self, body: str) -> str:
        """A user turn's content from its body (the inverse of :meth:`user_text`): as it is,
        or (:attr:`late_system` ``"opening"``) a body that starts with a lead of the
        :attr:`system_block` read as :meth:`parse_system` reads it."""
        if self.late_system == "opening":
            block = self.system_block
            if block is not None and block.leads and body.startswith(block.leads):
                return self.parse_system(body) or ""
        return body

    def result_text(self, index: int, ctx: Conversation) -> str:
        """The tool result at ``index`` as written inside :attr:`result_wrap` (trimmed when
        :attr:`trim` holds ``"tool"``), after its :attr:`result_head` label when declared;
        through ``tojson`` when :attr:`result_json` declares it (then untrimmed)."""
        encoded = self.result_json
        if encoded is not None:
            text = encoded.write(ctx.messages[index].content)
        else:
            text = self.text(ctx.messages[index].content)
            if "tool" in self.trim:
                text = text.strip()
        if self.results_by_calls:
            self._check_run(index, ctx)
        head = self.result_head
        return text if head is None else head.write(index, ctx, text, self.name)

    def _check_run(self, index: int, ctx: Conversation) -> None:
        """Refuse (:class:`~tooletta.RenderError`) the run of results starting at ``index``
        (nothing for a later result of a run) that would not split back as written
        (:attr:`results_by_calls`)."""
        messages = ctx.messages
        if index > 0 and messages[index - 1].role == "tool":
            return
        pending = ctx.once("pending_at_runs", lambda: pending_at_runs(messages))[index]
        run = []
        for at in range(index, len(messages)):  # (no slice: a copy per run)
            later = messages[at]
            if later.role != "tool":
                break
            text = self.text(later.content)
            run.append(text.strip() if "tool" in self.trim else text)
        separator = self.result_separator
        if self.split_results(separator.join(run), pending) != run:
            raise RenderError(
                f"{self.name}: the {len(run)} tool result(s) at {index} do not read back as "
                f"written: the template joins them with {separator!r} and {pending} call(s) "
                "await results (a surplus result would join the last one, a non-JSON result "
                f"holding {separator!r} would be cut there)"
            )

    def result_footer(self, index: int, ctx: Conversation) -> str:
        """The footer that closes the tool-result turn whose last result is at ``index``
        (``turns["tool"].footer`` by default). A template whose footer depends on what follows
        overrides this and :meth:`skip_result_footer`: Hermes 2 Pro writes no newline before
        ``<|im_end|>`` when the result ends the conversation."""
        return self.turns["tool"].footer

    def skip_result_footer(self, text: str, pos: int) -> int:
        """Where the footer :meth:`result_footer` wrote at ``pos`` ends (the parser's inverse);
        ``-1`` when there is none there."""
        footer = self.turns["tool"].footer
        return pos + len(footer) if text.startswith(footer, pos) else -1

    def read_results(self, text: str, pos: int, pending: int) -> tuple[list[str], int] | None:
        """The contents of the tool results whose turn body starts at ``pos`` (past its
        header) and where that turn ends (past its footer), for templates whose results turn
        cannot be cut at the first footer because a result may hold it (Apertus writes
        ``[r1, r2]``, and JSON results hold ``]``); ``pending`` is the number of calls awaiting
        a result. ``None`` (the default): read by :attr:`result_wrap`, the tool footer and
        :meth:`split_results`. Used by :func:`~tooletta.parse_conversation`."""
        return None

    def parse_result(self, body: str) -> str:
        """A tool result's content from the text inside :attr:`result_wrap` (the inverse of
        :meth:`result_text`: a :attr:`result_head` label comes off here, as a call id or a JSON
        quoting a template adds does in an override; a :attr:`result_json` content is
        decoded)."""
        head = self.result_head
        body = body if head is None else head.read(body)
        encoded = self.result_json
        return body if encoded is None else encoded.read(body)

    def split_results(self, body: str, pending: int) -> list[str]:
        """The results of one tool-result turn whose results have no closing wrap (the
        second of :attr:`result_wrap` is empty), read up to the turn's footer: ``pending`` is
        the number of calls of the last assistant turn not answered yet. Default: one result.
        A template that joins grouped results with :attr:`result_separator` only (Nemotron Nano
        v2) splits them here (the inverse, for :func:`~tooletta.parse_conversation`), or declares
        :attr:`results_by_calls`."""
        if self.results_by_calls:
            return split_by_calls(body, self.result_separator, pending)
        return [body]

    def before_turn(self, index: int, ctx: Conversation) -> str:
        """Template text written before the message at ``index`` (before its header), part of
        no message: Mistral's ``[AVAILABLE_TOOLS]`` block before the last user turn. Also asked
        once with ``index == len(ctx.messages)``, after the last message (before the
        generation prompt). Default: the :attr:`preamble` and the :attr:`tools_block` when
        declared, else nothing."""
        preamble, block = self.preamble, self.tools_block
        text = "" if preamble is None else preamble.text(index, ctx)
        if block is not None:
            text += block.write(index, ctx, self.system_roles)
        return text

    def skip_before_turn(self, text: str, pos: int) -> int:
        """Where the text :meth:`before_turn` wrote at ``pos`` ends (the inverse, for the
        parser, which asks before every turn); ``pos`` when there is none there. Default:
        past the :attr:`preamble`'s blocks and the :attr:`tools_block` when declared."""
        preamble, block = self.preamble, self.tools_block
        if preamble is not None:
            pos = preamble.skip(text, pos)
        return pos if block is None else block.skip(text, pos)

    def read_header(self, text: str, pos: int) -> tuple[str, int] | None:
        """The role of the turn whose header starts at ``pos`` and where that header ends, for
        templates whose headers hold a variable part (Kimi writes a message's ``name`` in its
        header); ``None``: the declared headers (:attr:`turns`) are matched. Used by
        :func:`~tooletta.parse_conversation`."""
        return None

    def assistant_end(self, text: str, pos: int) -> int | None:
        """Where the assistant turn whose body starts at ``pos`` ends (past its closing
        token), for templates whose assistant turn holds another header-like marker (Solar
        Open writes ``<|begin|>assistant`` again after the reasoning block); ``None``: the
        turn ends at :attr:`end_of_turn`, or at the next header. Used by
        :func:`~tooletta.parse_conversation`."""
        return None

    def end_token(self, index: int, ctx: Conversation) -> str:
        """The token that ends the assistant turn at ``index``, written (and trained) in place
        of the assistant footer's leading :attr:`end_of_turn`: :attr:`end_of_turn` by default,
        one of :attr:`end_tokens` for a template whose end token depends on the turn, ``""``
        for a turn after which the template writes none (Command R+ ends a turn with calls
        right before the next turn's header; such a format reads its turns' ends back with
        :meth:`assistant_end`). A turn with calls, or the last message, may declare its own
        (:attr:`calls_end`, :attr:`last_end`)."""
        end = self._declared_end(index, ctx)
        return self.end_of_turn if end is None else end[0]

    def _declared_end(self, index: int, ctx: Conversation) -> tuple[str, str] | None:
        """The declared end (:attr:`last_end`, :attr:`results_end`, :attr:`calls_end`) of the
        assistant turn at ``index``, ``None`` when its footer says how it ends."""
        last = self.last_end
        is_last = last is not None and index == len(ctx.messages) - 1
        if is_last and (self.last_end_calls or not ctx.messages[index].tool_calls):
            return last
        results = self.results_end
        if results is not None and ctx.messages[index].tool_calls:
            after = index + 1
            if after < len(ctx.messages) and ctx.messages[after].role == "tool":
                return results
        calls = self.calls_end
        if calls is not None and ctx.messages[index].tool_calls:
            return calls
        return None

    def turn_stop(self, index: int, ctx: Conversation) -> str:
        """What the model generates to end the assistant turn at ``index`` (the text that
        stops its generation), whether the template writes it or not; it ends with one of the
        format's single-id tokens. Default: the turn's :meth:`end_token`, else
        :attr:`end_of_turn` (a template that leaves the conversation's last turn open, such
        as Hunyuan-A13B without ``is_training``, still ends it so at inference). A format
        whose turn ends at the next role token (GLM: ``<|observation|>`` after calls,
        ``<|user|>`` else) or inside its own body (Solar Open's ``<|end|>``) declares it in
        :attr:`turn_stops` or overrides this.
        :mod:`tooletta.training` trains it on the conversation's last assistant turn too: the
        text is extended with it where the template does not write it there."""
        stops = self.turn_stops
        if stops is not None:
            return stops[0] if ctx.messages[index].tool_calls else stops[1]
        return self.end_token(index, ctx) or self.end_of_turn

    def assistant_footer(self, index: int, ctx: Conversation) -> str:
        """The template text written after the end token of the assistant turn at ``index``
        (not generated): the rest of ``turns["assistant"].footer`` by default. A template that
        writes tool results inside the assistant's turn overrides this to write nothing after a
        turn with calls (see the class docstring); the parser skips the default rest only where
        it is there. A turn whose end is declared (:attr:`calls_end`, :attr:`last_end`): the
        text declared after its end token."""
        end = self._declared_end(index, ctx)
        if end is not None:
            return end[1]
        footer = self.turns["assistant"].footer
        return footer[len(self.end_of_turn) :]

    def find_end(self, text: str, pos: int) -> tuple[int, str]:
        """Where the assistant turn whose body starts at ``pos`` ends: the position of its end
        token and that token, ``(-1, "")`` when none follows (the inverse of
        :meth:`end_token`, for :func:`~tooletta.parse_conversation`). Default: the first of
        :attr:`end_of_turn` and :attr:`end_tokens` after ``pos``."""
        return first_of(text, (self.end_of_turn, *self.end_tokens), pos)

    def keeps_reasoning(self, index: int, messages: Sequence[Message]) -> bool:
        """Whether the assistant turn at ``index`` writes its reasoning (the history rule,
        ``Reasoning.keep``; with a ``Reasoning.switch``, the rule the format's default
        :attr:`options` pick: Qwen3.6's ``preserve_thinking`` is off by default)."""
        rule = self.reasoning
        if rule is None:
            return False
        return keeps(rule.keep if not rule.switch else rule.rule(self.options), index, messages)

    def kept_in(self, index: int, ctx: Conversation) -> bool:
        """:meth:`keeps_reasoning` for the turn at ``index`` of ``ctx.messages``, under
        ``ctx.options`` (the rule a ``Reasoning.switch`` option picks); when the format
        keeps the default rule, the last user turn is found once per conversation
        (:attr:`Conversation.last_user`), not once per turn."""
        if type(
            self
        ).keeps_reasoning is not ChatFormat.keeps_reasoning or "keeps_reasoning" in vars(self):
            return self.keeps_reasoning(index, ctx.messages)
        rule = self.reasoning
        if rule is None:
            return False
        keep = rule.keep if not rule.switch else rule.rule(ctx.options)
        if keep == "none":
            return False
        if keep == "all":
            return True
        if keep == "after_last_user":
            return index > ctx.last_user
        return keeps(keep, index, ctx.messages, ctx)

    def reasoning_text(self, reasoning: str, kept: bool, last: bool) -> str:
        """The reasoning block of an assistant turn (empty when none is written); ``last``:
        the turn is the conversation's last message."""
        rule = self.reasoning
        if rule is None:
            return ""
        if not kept:
            return rule.dropped
        if rule.strip_first:
            reasoning = reasoning.strip(rule.strip)
        if reasoning or rule.empty == "kept" or (rule.empty == "last" and last):
            return rule.block(reasoning)
        return ""

    def content_text(self, content: str, after_reasoning: bool) -> str:
        """The content as the template writes it (after a reasoning block, when there is one):
        trimmed when :attr:`trim` holds ``"assistant"``."""
        return content.strip() if "assistant" in self.trim else content

    def calls_text(self, dialect: Any, calls: Sequence[ToolCall], content: str) -> str:
        """Content and calls as the dialect writes them (its ``render``), refused with a
        :class:`~tooletta.RenderError` as :func:`~tooletta.render` refuses them when no parse
        reads them back (:func:`~tooletta.expressible.check_calls`); with the ids
        :attr:`call_ids` declares."""
        items = calls if type(calls) is list else list(calls)
        if items:
            if not self.writes_tools:
                raise ToolsRefusedError(no_tools_refusal(self.name, "tool calls"))
            ids = self.call_ids
            if ids is not None:  # the ids the template writes for them
                items = ids.apply(items)
            check_calls(items, dialect.info.name, max_depth_of(dialect))
        text = dialect.render(items, content=content)
        return text if type(text) is str else str(text)

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """The body of the assistant turn at ``index`` (the history rule applied; its calls
        with the ids :attr:`call_ids` gives them across the conversation; its content cut as
        :attr:`content_cut` says, and left out beside calls unless :attr:`calls_content`)."""
        messages = ctx.messages
        kept = self.kept_in(index, ctx)
        ids = self.call_ids
        message = messages[index] if ids is None else ids.turn(index, ctx)
        cut = self.content_cut
        if cut is not None and cut.applies(index, messages):
            message = cut.cut(message)
        if message.tool_calls and not self.calls_content:
            message = msgspec.structs.replace(message, content="")
        return self.turn_body(message, kept, index == len(messages) - 1, ctx)

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """An assistant turn's body: reasoning block, content and calls. ``kept``: the turn
        writes its reasoning; ``last``: it is the conversation's last message. This is also
        what :func:`~tooletta.render` writes with ``model=`` (kept and last: the turn the
        model generates)."""
        block = self.reasoning_text(message.reasoning, kept, last)
        content = message.content
        if type(content) is not str:
            content = self.text(content)
        cut = self.history_cut
        if cut is not None and not last:
            content = cut.cut(content)
        content = self.content_text(content, bool(block))
        calls = message.tool_calls
        lead = "" if calls else self.answer_lead
        if (
            type(calls) is list
            and not calls
            and type(self).calls_text is _CALLS_TEXT
            and "calls_text" not in vars(self)
        ):  # no calls: the dialect's text, where it is proved to be the content
            dialect = ctx.dialect
            known = LAST[0]
            check = known[1] if known[0] is dialect else without_calls(dialect)
            if check is not UNPROVED:
                if content and check is not None:
                    check(content)
                return block + lead + content + self.body_end
        if last and calls and not self.last_ids:
            calls = [ToolCall(c.name, c.arguments) for c in calls]
        return block + lead + self.calls_text(ctx.dialect, calls, content) + self.body_end

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """An assistant turn's body read back (a :class:`~tooletta.ParseResult`): the
        dialect's ``parse`` by default (:attr:`body_end` taken off first, and
        :attr:`answer_lead` when the body starts with it and no calls are read)."""
        end = self.body_end
        if end and body.endswith(end):
            body = body[: len(body) - len(end)]
        lead = self.answer_lead
        if lead and body.startswith(lead):
            read = dialect.parse(body[len(lead) :], tools=list(tools) or None)
            if not read.calls:  # an answer: its lead is the template's
                return read
        return dialect.parse(body, tools=list(tools) or None)

    def generation_prompt(self, ctx: Conversation) -> str:
        """What ends the prompt so that the model writes the next assistant turn: as
        :attr:`prompt` declares (a :class:`~tooletta.chat.declare_history.RolePrompt` by the
        last message's role; :attr:`continue_prompt` inside the model's turn), else the
        assistant turn's header."""
        going_on = self.continue_prompt
        if going_on is not None and self._ends_in_turn(ctx):
            return going_on.text(self.turns["assistant"].header, ctx.options)
        prompt = self.prompt
        header = self.turns["assistant"].header
        if prompt is None:
            return header
        if isinstance(prompt, RolePrompt):
            return prompt.write(ctx, True)
        if not prompt.after_assistant:
            messages = ctx.messages
            if not messages or messages[-1].role == "assistant":
                return self.after_conversation(ctx)
        if not prompt.after_system:
            messages = ctx.messages
            if len(messages) == 1 and messages[0].role in self.system_roles:
                return self.after_conversation(ctx)
        return prompt.text(header, ctx.options)

    def _ends_in_turn(self, ctx: Conversation) -> bool:
        """Whether ``ctx``'s conversation ends inside the model's turn (see
        :attr:`continue_prompt`): its last message is a tool result, or an assistant turn
        whose :meth:`end_token` is not :attr:`end_of_turn`."""
        messages = ctx.messages
        if not messages:
            return False
        last = messages[-1]
        if last.role == "tool":
            return True
        index = len(messages) - 1
        return last.role == "assistant" and self.end_token(index, ctx) != self.end_of_turn

    def after_conversation(self, ctx: Conversation) -> str:
        """Text a template writes after the last message when no generation prompt is asked:
        as :attr:`prompt` declares (:meth:`Prompt.ending <tooletta.chat.Prompt.ending>`),
        else nothing."""
        prompt = self.prompt
        if prompt is None or not prompt.ends():
            return ""
        if isinstance(prompt, RolePrompt):
            return prompt.write(ctx, False)
        return prompt.ending(self.turns["assistant"].header, ctx.options)

    def generation_prompts(self, ctx: Conversation) -> tuple[str, ...]:
        """Every text the template may write after ``ctx.messages``: its generation prompt
        (:meth:`generation_prompt`, asked with ``add_generation_prompt``) and its ending
        (:meth:`after_conversation`), under ``ctx.options`` and under each of
        :attr:`prompt_options` merged over them; distinct, longest first.
        :func:`~tooletta.parse_conversation` reads the rest of a text that is one of these as
        no message (and ends a turn without a footer before one). A template whose prompt
        depends on something an option set cannot name overrides this to list its forms."""
        forms = []
        for opts in ({}, *self.prompt_options):
            options = {**ctx.options, **opts} if opts else ctx.options
            asked = conversation(ctx.messages, ctx.tools, options, ctx.dialect, True)
            forms.append(self.generation_prompt(asked))
            plain = conversation(ctx.messages, ctx.tools, options, ctx.dialect, False)
            forms.append(self.after_conversation(plain))
        return tuple(sorted(set(forms), key=len, reverse=True))

    def prompt_start(self, text: str, pos: int, ctx: Conversation) -> int:
        """Where the generation prompt or ending that ends ``text`` starts, at or after
        ``pos``: the longest of :meth:`generation_prompts` (for ``ctx``) that fits, else
        ``len(text)``. Used by :func:`~tooletta.parse_conversation` at the end of a text; a
        template whose prompt holds an option's value that no list can name (LongCat's
        thinking budget) overrides this to find it in the text."""
        for form in self.generation_prompts(ctx):
            if form and len(form) <= len(text) - pos and text.endswith(form):
                return len(text) - len(form)
        return len(text)

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """What this format's text carries of ``messages`` (what
        :func:`~tooletta.parse_conversation` can give back): text content (trimmed where
        :attr:`trim` says), reasoning only in the turns that keep it, the calls, tool results
        named after the call they answer, and the first system message (of
        :attr:`system_roles`: an opening developer message too, where the format takes one)
        as :meth:`parse_system` reads back what :meth:`system_text` writes of it (by
        :attr:`system_block`, or by the hooks a format overrides), role ``system``: none when
        it is read as the turn written without one (the template's default prompt, an empty
        message some templates write as none). Formats that trim or drop more override
        this."""
        return self.carried(messages, conversation(messages, (), self.options, None))

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """What the text rendered for ``ctx`` (its tools and options) carries of ``messages``:
        :meth:`expressible`, the first system message read back with ``ctx``'s tools. A
        template whose history rule depends on the tools declared or on a switch (Hy3 keeps
        every turn's reasoning when tools are declared) overrides this. Used by the
        conversation laws of :mod:`tooletta.testing`."""
        if type(self).expressible is not ChatFormat.expressible:
            return self.expressible(messages)
        return self.carried(messages, ctx)

    def carried(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """:meth:`expressible` for the text rendered with ``ctx`` (the declarations applied:
        :attr:`trim` and :attr:`trim_opening`, the history rule, :attr:`keeps_ids`,
        :attr:`last_ids`, :attr:`calls_content`, :attr:`system_block` (or the
        :meth:`system_text` / :meth:`parse_system` hooks), :attr:`call_ids`,
        :attr:`content_cut`, :attr:`history_cut`, :attr:`late_system`,
        :attr:`gather_system`, :attr:`last_user_hint`)."""
        out = self._carried_cut(messages, ctx)
        hint = self._user_hint(ctx)
        users = [i for i, m in enumerate(out) if m.role == "user"] if hint else []
        if users:
            last = out[users[-1]]
            out[users[-1]] = msgspec.structs.replace(last, content=self.text(last.content) + hint)
        return out

    def _carried_cut(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """:meth:`carried` without the :attr:`last_user_hint`."""
        cut = self.content_cut
        if cut is not None:
            messages = cut.over(messages)
        joiner = self.gather_system
        if joiner is not None:
            return gathered_carried(
                messages,
                ctx,
                self.system_roles,
                self.text,
                joiner,
                self._carried,
                self.system_block,
            )
        return self._carried(messages, ctx)

    def _carried(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """:meth:`carried` of messages already cut, none of them gathered."""
        out = []
        pending: list[ToolCall] = []
        trim = self.trim
        rule = self.reasoning
        opening = self.trim_opening
        ids = self.call_ids
        across = None if ids is None or ids.across is None else ids.across(messages)
        drops = self.late_system == "dropped"
        first = messages[0] if messages else None
        opens = first is not None and self.merge_system and first.role in self.system_roles
        for index, m in enumerate(messages):
            if drops and m.role in self.system_roles and (index or not self.merge_system):
                continue  # written nowhere (late_system "dropped")
            reasoning = m.reasoning if m.reasoning and self.kept_in(index, ctx) else ""
            if reasoning and rule is not None and rule.strip != "":
                reasoning = reasoning.strip(rule.strip)
            name, call_id = None, None
            own = m.tool_calls
            if ids is not None and own:
                if across is not None:
                    own = ids.in_conversation(index, messages, across)
                own = ids.apply(own)
            calls = [c if self.keeps_ids else ToolCall(c.name, c.arguments) for c in own]
            if calls and not self.last_ids and index == len(messages) - 1:
                calls = [ToolCall(c.name, c.arguments) for c in calls]
            if m.role == "assistant":
                pending = list(calls)
            elif m.role == "tool" and pending:
                call = pending.pop(0)
                name, call_id = call.name, call.id
            content = "" if calls and not self.calls_content else self.text(m.content)
            cut = self.history_cut
            if cut is not None and m.role == "assistant" and index < len(messages) - 1:
                content = cut.cut(content)
            role = m.role
            trimmed = role in trim
            if index == 0 and opens:  # written in the opening system turn, read as "system"
                role = "system"
                trimmed = "system" in trim if opening is None else opening
            if m.role == "tool" and self.result_json is not None:  # written whole
                content, trimmed = self.result_json.carried(m.content, content), False
            out.append(
                Message(
                    role=role,
                    content=content.strip() if trimmed else content,
                    tool_calls=calls,
                    reasoning=reasoning if m.role == "assistant" else "",
                    name=name,
                    tool_call_id=call_id,
                )
            )
        if first is None or not opens:
            return self._given_default(ctx) + out
        written = self.system_text(self.text(first.content), ctx)
        if written is None and self.system_block is None:
            return out  # no opening turn: the hooks write the message elsewhere (or nowhere)
        read = None if written is None else self.parse_system(written)
        if read is None:  # written as the turn without one (the template's default...)
            return out[1:]
        out[0] = Message(role="system", content=read)
        return out

    def _given_default(self, ctx: Conversation) -> list[Message]:
        """The system message a conversation without one reads back with when the caller
        gave the :attr:`system_block`'s ``default_option`` (its text is written where the
        default would be, and parsing, not told the option, reads it as a message); none
        otherwise."""
        block = self.system_block
        if block is None or block.given_default(ctx.options) is None:
            return []
        written = self.system_text(None, ctx)
        read = None if written is None else self.parse_system(written)
        return [] if read is None else [Message(role="system", content=read)]


def opening_footer(fmt: ChatFormat, turn: Turn) -> str:
    """The footer that closes ``fmt``'s opening system turn, ``turn`` being its system turn:
    the :attr:`~tooletta.chat.ChatFormat.system_block`'s own
    (:meth:`SystemBlock.closing <tooletta.chat.SystemBlock.closing>`), else ``turn.footer``.
    The renderer writes it after the opening turn's body and the parser reads the body up to
    it."""
    block = fmt.system_block
    return turn.footer if block is None else block.closing(turn.footer)


_CALLS_TEXT = ChatFormat.calls_text
"""The default :meth:`ChatFormat.calls_text` (:meth:`ChatFormat.turn_body` writes an answer
without calls without asking the dialect only where a format keeps it)."""
