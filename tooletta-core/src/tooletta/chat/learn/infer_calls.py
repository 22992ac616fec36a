"""The assistant's calls: whether the template writes them (and in which message form), their
bodies in the probe turns, and the format that writes them: an installed dialect byte for byte
(with or without ids, or with the ids the template writes itself), else JSON call objects
between markers; the lead before the calls, alone and after content."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import LearnError, ToolettaError
from ...ir import ToolCall
from .dialects import InstalledCalls, JsonCalls, NoCalls, call_object
from .infer_base import _fail, _Step
from .oracle import Oracle
from .probes import CALL_SETS, TOOLS, S, calling, result, user


def _ids_across(oracle: Oracle, calls: Mapping[str, Any]) -> bool:
    """Whether a template that writes the calls' ids itself (``written_ids``) numbers them
    across the conversation, not per turn (llama.cpp's Kimi K2-Thinking copy counts every
    call before): in two call turns in a row, the second turn's call has the id the
    installed dialect writes for it after the first turn's call, not alone."""
    from ...catalog import get_dialect

    dialect = get_dialect(str(calls["dialect"]))
    one, other = CALL_SETS["one"], CALL_SETS["empty"]
    bare = [ToolCall(c.name, c.arguments) for c in (*one, *other)]
    try:
        alone = dialect.parse(dialect.render(bare[len(one) :], content="")).calls[0].id
        after = dialect.parse(dialect.render(bare, content="")).calls[-1].id
        text = oracle.render(
            [
                user(),
                calling(one),
                result(one[0], S.RESULT),
                calling(other),
                result(other[0], S.RESULT2),
            ],
            TOOLS,
        )
    except (LearnError, ToolettaError, IndexError):
        return False
    return bool(after) and after != alone and after in text and alone not in text


def _try_dialect(
    dialect: Any, ids: bool, bodies: Mapping[str, str], between: str | None = None
) -> dict[str, str] | None:
    """The leads before an installed dialect's calls when it writes every probe call set as
    the template does (``None`` otherwise); ``between``: the calls written one by one and
    joined by it (the template's own separator, :func:`_template_separator`), else as the
    dialect writes them together."""
    leads: dict[str, str] = {}
    for key in (*CALL_SETS, "content"):
        calls = CALL_SETS["one" if key == "content" else key]
        if not ids:
            calls = [ToolCall(c.name, c.arguments) for c in calls]
        try:
            if between is None:
                text = dialect.render(calls, content="")
            else:
                text = between.join(str(dialect.render([c], content="")) for c in calls)
        except Exception:
            return None
        body = bodies[key]
        if not isinstance(text, str) or not text or not body.endswith(text):
            return None
        lead = body[: len(body) - len(text)]
        try:
            read = dialect.parse(body)
        except Exception:
            return None
        if list(read.calls) != list(calls):
            return None
        if key == "content":
            if not lead.startswith(S.ANSWER):
                return None
            leads["lead_content"] = lead[len(S.ANSWER) :]
        elif leads.setdefault("lead_alone", lead) != lead:
            return None
    return leads


def _own_separator(dialect: Any, calls: Sequence[ToolCall]) -> str | None:
    """The text ``dialect`` writes between calls when its text of ``calls`` (two or more) is
    the text of each call alone joined by one separator (``None`` otherwise: a dialect that
    wraps all the calls of a turn in one section, or numbers them)."""
    try:
        alone = [str(dialect.render([c], content="")) for c in calls]
        together = str(dialect.render(list(calls), content=""))
    except Exception:
        return None
    first, second = alone[0], alone[1]
    if not (together.startswith(first) and together.endswith(alone[-1])):
        return None
    at = together.find(second, len(first))
    if at < 0:
        return None
    separator = together[len(first) : at]
    return separator if separator.join(alone) == together else None


def _template_separator(dialect: Any, ids: bool, bodies: Mapping[str, str]) -> str | None:
    """The text the template writes between two calls where ``dialect`` writes each call as
    the template does but joins them by another separator (qwen3_coder's ``\n``, a
    community Qwen template's ``\n\n``): ``None`` when the dialect does not join its calls
    by a separator of its own (checked on two and three calls), or the template writes the
    same."""
    one, two = CALL_SETS["one"], CALL_SETS["two"]
    if not ids:
        one, two = (
            [ToolCall(c.name, c.arguments) for c in one],
            [ToolCall(c.name, c.arguments) for c in two],
        )
    own = _own_separator(dialect, two)
    if own is None or _own_separator(dialect, [*two, *one]) != own:
        return None
    try:
        first = str(dialect.render(one, content=""))
        texts = [str(dialect.render([c], content="")) for c in two]
    except Exception:
        return None
    body_one, body = bodies["one"], bodies["two"]
    if not body_one.endswith(first):
        return None
    head = body_one[: len(body_one) - len(first)] + texts[0]
    if not (body.startswith(head) and body.endswith(texts[1])):
        return None
    between = body[len(head) : len(body) - len(texts[1])]
    if len(head) + len(texts[1]) > len(body) or between == own:
        return None
    return between


def _reads_as_text(dialect: Any, between: str) -> bool:
    """Whether ``dialect`` reads other text beside two probe calls joined by ``between`` than
    beside them joined by its own separator (the separator read as content)."""
    two = [ToolCall(c.name, c.arguments) for c in CALL_SETS["two"]]
    try:
        own = dialect.parse(dialect.render(two, content="")).content
        joined = between.join(str(dialect.render([c], content="")) for c in two)
        return bool(dialect.parse(joined).content != own)
    except Exception:
        return True


def _try_written_ids(dialect: Any, bodies: Mapping[str, str]) -> dict[str, str] | None:
    """The leads before an installed dialect's calls when the template writes the calls'
    ids itself, ignoring the ids given (Kimi K2's ``functions.NAME:IDX``), as that dialect
    writes them for calls without ids: every probe call set written byte for byte and read
    back with the same names, arguments and the ids written (``None`` otherwise)."""
    bare = {key: [ToolCall(c.name, c.arguments) for c in calls] for key, calls in CALL_SETS.items()}
    try:
        written = {
            key: list(dialect.parse(dialect.render(calls, content="")).calls)
            for key, calls in bare.items()
        }
    except Exception:
        return None
    for key, calls in written.items():
        if (
            any(c.id is None for c in calls)
            or [ToolCall(c.name, c.arguments) for c in calls] != bare[key]
        ):
            return None  # the text carries no ids, or not these calls
    return _try_dialect(_Bare(dialect), False, bodies)


class _Bare:
    """A dialect whose parse forgets the ids it reads (to compare calls written with ids the
    template chose against calls given without)."""

    def __init__(self, inner: Any):
        self.inner = inner

    def render(self, calls: Sequence[ToolCall], content: str = "") -> Any:
        return self.inner.render(calls, content=content)

    def parse(self, text: str) -> Any:
        read = self.inner.parse(text)
        return type("Read", (), {"calls": [ToolCall(c.name, c.arguments) for c in read.calls]})


class _Calls(_Step):
    """The step that reads the calls and the format that writes them."""

    def writes_calls(self) -> bool:
        """Whether the template writes an assistant turn's calls at all, in the message form
        it writes them for (DeepSeek-R1's distills write a call-only turn's calls only when
        its content is ``None``, and drop them silently for ``""``): a form in which they are
        in the turn's body first (llama.cpp's edit of R1-Distill-Qwen-32B's writes them for
        ``""`` too, then an empty answer turn after them), else one in which they are written."""
        o = self.o
        text = o.render([user(), calling(CALL_SETS["one"])], TOOLS)
        if self._calls_in_body(text):
            return True
        found = o.call_content, o.string_arguments
        loose = found if "get_weather" in text[text.find(S.USER) :] else None
        for content, strings in (("", False), (None, False), ("", True), (None, True)):
            o.fix_form(content, strings)
            try:
                text = o.render([user(), calling(CALL_SETS["one"])], TOOLS)
            except LearnError:
                continue
            if self._calls_in_body(text):
                return True
            if loose is None and "get_weather" in text[text.find(S.USER) :]:
                loose = content, strings
        o.fix_form(*(loose or found))
        return loose is not None

    def _calls_in_body(self, text: str) -> bool:
        """Whether ``text``'s last assistant turn holds the probe call's name."""
        try:
            return "get_weather" in self._body(text, "call")
        except LearnError:
            return False

    def call_bodies(self, reasoning: Mapping[str, Any] | None) -> dict[str, str]:
        o = self.o
        if reasoning and reasoning["empty"] != "never":
            self.empty_block = reasoning["open"] + reasoning["close"]
        out = {}
        texts = {key: o.render([user(), calling(calls)], TOOLS) for key, calls in CALL_SETS.items()}
        self._check_closed(texts)
        for key, text in texts.items():
            out[key] = self._call_body(text, "call")
        text = o.render([user(), calling(CALL_SETS["one"], S.ANSWER)], TOOLS)
        out["content"] = self._call_body(text, "call+content")
        if "get_weather" in out["one"] and "get_weather" not in out["content"]:
            # no text beside calls in one turn (llama.cpp's edit of R1-Distill-Qwen-32B writes
            # it as an answer turn of its own after them): the learned format refuses such a
            # message (spec ``content_beside_calls``); the calls are read without a lead
            self.spec["content_beside_calls"] = False
            out["content"] = S.ANSWER + out["one"]
        return out

    def _check_closed(self, texts: Mapping[str, str]) -> None:
        """Refuse, with the reason, a template that closes a turn with calls only when it
        holds more than one (the DeepSeek-R1 distills' own template, and llama.cpp's
        reformatted Llama-8B copy, close the calls' section in the loop's branch for a
        second call)."""
        footer = self.spec["turns"]["assistant"][1]
        if not footer or self.spec.get("open_last"):
            return
        closed = {key: text.endswith(footer) for key, text in texts.items()}
        if not closed["one"] and closed["two"]:
            raise _fail(
                "call",
                "the template leaves a turn with a single call without its footer (it closes "
                "the calls only after a second call): a bug of the template, which no format "
                "reproduces",
            )

    def _call_body(self, text: str, probe: str) -> str:
        """The last turn's body without the empty reasoning block the template writes there."""
        body = self._body(text, probe)
        empty = self.empty_block
        if empty:
            if not body.startswith(empty):
                raise _fail(probe, "the last turn's empty reasoning block is missing")
            body = body[len(empty) :]
        return body

    def calls(self, bodies: Mapping[str, str]) -> dict[str, Any]:
        found = self._installed(bodies) or self._json(bodies) or self._separated(bodies)
        if found is not None:
            self.calls_spec = found
            lead = found["lead_content"]
            if lead:  # content already ending with the lead: written again, or not?
                one = CALL_SETS["one"]
                text = self.o.render([user(), calling(one, S.ANSWER + lead)], TOOLS)
                found["lead_if_missing"] = (
                    self._call_body(text, "call+content") == bodies["content"]
                )
            return found
        raise _fail(
            "call",
            "no installed dialect writes these calls and they are not JSON call objects "
            f"between markers: {bodies['one'][:120]!r}",
        )

    def _dialects(self, bodies: Mapping[str, str]) -> list[tuple[str, Any]]:
        """The installed dialects (not learned ones) whose markers the single call's body
        holds, by the registry's order, with their names."""
        from ...plugins import get_registry

        out = []
        for entry in get_registry().ordered():
            markers = entry.info.markers
            if markers and not any(m in bodies["one"] for m in markers):
                continue
            try:
                dialect = entry.dialect
            except Exception:
                continue
            if isinstance(dialect, (JsonCalls, InstalledCalls, NoCalls)):
                continue  # a learned format: learn from the plugins' dialects only
            out.append((entry.info.name, dialect))
        return out

    def _separated(self, bodies: Mapping[str, str]) -> dict[str, Any] | None:
        """Calls an installed dialect writes one by one as the template does, the template
        joining them by another separator (spec ``between``): tried after the dialects that
        write every call set byte for byte and after calls learned as JSON, so that a
        template either of those learned before learns as it did. Refused, with the reason,
        when the only such dialect reads the template's separator as text."""
        refusal = ""
        for name, dialect in self._dialects(bodies):
            for ids in (True, False):
                between = _template_separator(dialect, ids, bodies)
                if between is None:
                    continue
                found = _try_dialect(dialect, ids, bodies, between)
                if found is not None and _reads_as_text(dialect, between):
                    refusal = refusal or (
                        f"the template writes the calls as {name!r} does but joins them by "
                        f"{between!r}, which {name!r} reads as text beside the calls"
                    )
                elif found is not None:
                    return {
                        "kind": "installed",
                        "dialect": name,
                        "ids": ids,
                        "between": between,
                        **found,
                    }
        if refusal:
            raise _fail("parallel", refusal)
        return None

    def _installed(self, bodies: Mapping[str, str]) -> dict[str, Any] | None:
        for name, dialect in self._dialects(bodies):
            for ids in (True, False):
                found = _try_dialect(dialect, ids, bodies)
                if found is not None:
                    return {"kind": "installed", "dialect": name, "ids": ids, **found}
            found = _try_written_ids(dialect, bodies)
            if found is not None:
                return {
                    "kind": "installed",
                    "dialect": name,
                    "ids": False,
                    "written_ids": True,
                    **found,
                }
        return None

    def _json(self, bodies: Mapping[str, str]) -> dict[str, Any] | None:
        one = CALL_SETS["one"][0]
        body = bodies["one"]
        for name_key, args_key, first, key_sep, item_sep, args_seps, ascii_ in itertools.product(
            ("name",),
            ("arguments", "parameters"),
            (False, True),
            (": ", ":"),
            (", ", ","),
            ((", ", ": "), (",", ":")),
            (False, True),
        ):
            spec: dict[str, Any] = {
                "kind": "json",
                "ids": False,
                "name_key": name_key,
                "args_key": args_key,
                "args_first": first,
                "key_sep": key_sep,
                "item_sep": item_sep,
                "args_separators": list(args_seps),
                "ensure_ascii": ascii_,
            }
            obj = call_object(one, spec)
            at = body.find(obj)
            if at < 0:
                continue
            r0, r1 = body[:at], body[at + len(obj) :]
            opening = r0.strip()
            if not opening:
                return None
            lead = r0[: r0.index(opening)]
            head = r0[len(lead) + len(opening) :]
            tail = r1[: len(r1) - len(r1.lstrip())]
            close = r1[len(tail) :].rstrip()
            trailer = r1[len(tail) + len(close) :]
            spec.update(open=opening, head=head, tail=tail, close=close, trailer=trailer)
            two = bodies["two"]
            objs = [call_object(c, spec) for c in CALL_SETS["two"]]
            if not (two.startswith(r0 + objs[0]) and two.endswith(objs[1] + r1)):
                continue
            middle = two[len(r0 + objs[0]) : len(two) - len(objs[1] + r1)]
            pre, post = tail + close, opening + head
            if not (middle.startswith(pre) and middle.endswith(post)):
                continue
            spec["between"] = middle[len(pre) : len(middle) - len(post)]
            content = bodies["content"]
            if not content.startswith(S.ANSWER) or not content.endswith(body[len(lead) :]):
                continue
            spec["lead_alone"] = lead
            spec["lead_content"] = content[len(S.ANSWER) : len(content) - len(body) + len(lead)]
            return spec
        return None
