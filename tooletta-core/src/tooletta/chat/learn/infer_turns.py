"""The start and each role's turn: the bos token (or a constant prefix such as GLM's
``[gMASK]<sop>``), the user's and the assistant's header and footer, the system turn and a
default system prompt, the end-of-turn token, and the generation prompt without switches."""

from __future__ import annotations

from typing import Any

from ...errors import LearnError
from .history import finders
from .infer_base import _TOKEN, _common_prefix, _common_suffix, _fail, _find, _Step
from .probes import TOOLS, S, answer, system, user


class _Turns(_Step):
    """The step that reads the start, each role's header and footer and the generation prompt."""

    def turns(self) -> dict[str, Any]:
        o, A, B, C = self.o, S.USER, S.ANSWER, S.USER2
        r_u = o.render([user()])
        r_ua = o.render([user(), answer()])
        r_uau = o.render([user(), answer(), user(C)])
        r_up = o.render([user()], prompt=True)
        try:
            r_su = o.render([system(), user()])
        except LearnError:  # the template refuses system messages (Gemma 2)
            r_su = None
        ia = _find(r_u, A, "user")
        f_u = r_u[ia + len(A) :]
        ia3, ib3, ic = (_find(r_uau, x, "chat") for x in (A, B, C))
        to_answer = r_uau[ia3 + len(A) : ib3]
        if not to_answer.startswith(f_u):
            raise _fail("chat", "the user turn is written differently once an answer follows")
        h_a = to_answer[len(f_u) :]
        r_r, last_user = self._reasoning_render()
        after = r_r[_find(r_r, last_user, "reasoning") + len(last_user) + len(f_u) :]
        if S.REASONING in after:  # the header ends where a reasoning block may start
            h_a = h_a[: _common_prefix(h_a, after)]
            if after.startswith(h_a + S.REASONING):  # it took the opening tag (GLM's <think>)
                ends = [m for m in _TOKEN.finditer(h_a) if m.end() == len(h_a)]
                if ends:
                    h_a = h_a[: ends[-1].start()]
        ib = _find(r_ua, B, "chat")
        f_a = r_ua[ib + len(B) :]
        if not r_ua.startswith(r_u[: ia + len(A)] + f_u + h_a):
            raise _fail("chat", "the last answer opens differently than earlier ones")
        between = r_uau[ib3 + len(B) : ic]
        open_last = False
        if not f_a and between and not r_u[:ia].endswith(between):
            # the last answer is left open (Apertus, Apriel): the user header is what the
            # first user turn and a later one share, from a token's start
            n = _common_suffix(between, r_u[:ia])
            starts = [m.start() for m in _TOKEN.finditer(between[len(between) - n :])]
            if starts:
                f_a = between[: len(between) - n + starts[0]]
                open_last = True
        if not between.startswith(f_a):
            raise _fail("chat", "an answer's footer depends on what follows it")
        h_u = between[len(f_a) :]
        opening = r_u[:ia]
        if not opening.endswith(h_u):
            raise _fail("user", "the first user turn has another header than later ones")
        opening = opening[: len(opening) - len(h_u)]
        if not r_up.startswith(r_u):
            raise _fail("user+prompt", "the generation prompt changes the text before it")
        prompt = r_up[len(r_u) :]
        r_uap = o.render([user(), answer()], prompt=True)
        if r_uap not in (r_ua, r_ua + prompt):
            raise _fail("answer+prompt", "the generation prompt after an answer is another")
        self.spec["prompt_after_answer"] = r_uap != r_ua or not prompt
        bos0 = self.bos_token if self.bos_token and opening.startswith(self.bos_token) else ""
        turns = {"user": [h_u, f_u], "assistant": [h_a, f_a]}
        self.spec["open_last"] = open_last
        if r_su is None:
            if opening != bos0:
                raise _fail("user", f"unexplained text at the start: {opening[:60]!r}")
            self.spec.update(
                bos=bos0,
                turns=turns,
                end_of_turn=self._end_of_turn(f_a),
                default_system=None,
                after="",
                prompts=[[{}, prompt]],
                system=False,
            )
            return self.spec
        candidates = [bos0]
        if not bos0:  # a constant prefix (GLM's [gMASK]<sop>): whole tokens both texts start with
            common = opening[: _common_prefix(opening, r_su)]
            candidates += [common[: m.end()] for m in _TOKEN.finditer(common)][::-1]
        failure: LearnError | None = None
        for bos in candidates:
            try:
                h_s, f_s, default = self._system(bos, opening, h_u)
            except LearnError as exc:
                failure = failure or exc
                continue
            break
        else:
            raise failure or _fail("system", "no system turn found")
        if "headerless" in self.spec:
            self._check_headerless(bos, h_s, f_s, turns)
        self.spec.update(
            bos=bos,
            turns={"system": [h_s, f_s], **turns},
            end_of_turn=self._end_of_turn(f_a),
            default_system=default,
            after="",
            prompts=[[{}, prompt]],
            system=True,
        )
        return self.spec

    def _reasoning_render(self) -> tuple[str, str]:
        """The first :func:`~.history.finders` conversation whose render holds its reasoning
        (the first one when none does), and the sentinel of the user message before the
        answer holding it."""
        found = None
        for messages, last_user, _, calls in finders():
            try:
                with self.o.trying():  # a turn with calls must not fix the calls' form yet
                    text = self.o.render(messages, TOOLS if calls else None)
            except LearnError:
                continue
            found = found or (text, last_user)
            if S.REASONING in text:
                return text, last_user
        assert found is not None
        return found

    def _system(self, bos: str, opening: str, h_u: str) -> tuple[str, str, str | None]:
        """The system turn's header and footer, and the default system prompt, with ``bos``."""
        r_su = self.o.render([system(), user()])
        i_s = r_su.find(S.SYSTEM)
        if i_s < 0:
            raise _fail("system", "the template does not write the system message")
        if not r_su.startswith(bos) or not opening.startswith(bos):
            raise _fail("system", "the text does not start with the bos token")
        h_s = r_su[len(bos) : i_s]
        ia_s = _find(r_su, S.USER, "system")
        mid = r_su[i_s + len(S.SYSTEM) : ia_s]
        self.spec.pop("headerless", None)
        if mid.endswith(h_u):
            f_s = mid[: len(mid) - len(h_u)]
        elif h_s and mid:
            # the user's header left out right after the system turn, whose opening stands
            # for both (Hunyuan's hub text): the system turn ends where the user's text starts
            f_s = mid
            self.spec["headerless"] = {"role": "user", "after": ["system"]}
        else:
            raise _fail("system", "the system message is not a turn of its own before the user's")
        if not h_s and f_s:
            raise _fail("system", "a system message without a header must end at the next turn")
        default_turn = opening[len(bos) :]
        default: str | None = None
        if default_turn:
            suffix = _suffix(h_s, f_s, default_turn)
            if suffix is not None:  # the message joined to text of the template's own after it
                footer, default = suffix
                self.spec["system_suffix"] = f_s[: len(f_s) - len(footer)]
                return h_s, footer, default
            join = _join(h_s, f_s, default_turn)
            if join:
                raise _fail(
                    "user",
                    "the template joins a system message to fixed text of its own by "
                    f"{join!r}, which it leaves out without one: the system turn is not a "
                    "header, the message and a footer",
                )
            if not (h_s and default_turn.startswith(h_s) and default_turn.endswith(f_s)):
                raise _fail("user", f"unexplained text at the start: {default_turn[:60]!r}")
            default = default_turn[len(h_s) : len(default_turn) - len(f_s)]
        return h_s, f_s, default

    def _check_headerless(self, bos: str, h_s: str, f_s: str, turns: dict[str, list[str]]) -> None:
        """A user turn written without its header right after the system turn is the
        template's layout only when the system turn stays a turn of its own before it and a
        later user turn has its header (Mistral Nemo's system message, written in the last
        user turn, is not)."""
        (h_u, f_u), (h_a, f_a) = turns["user"], turns["assistant"]
        A, B, C = S.USER, S.ANSWER, S.USER2
        want = bos + h_s + S.SYSTEM + f_s + A + f_u + h_a + B + f_a + h_u + C + f_u
        if not self.o.render([system(), user(), answer(), user(C)]).startswith(want):
            raise _fail("system", "the system message is not a turn of its own before the user's")

    def _end_of_turn(self, footer: str) -> str:
        """The token that ends an answer: the eos token when the footer holds it, else the
        footer's first special token, else the whole footer. Text before it (Reka Edge's
        ``\\n\\n`` before ``<sep>``) is the end of the answer's body, generated too."""
        eos = self.o.tokens.get("eos_token", "")
        if eos and eos in footer:
            return eos
        m = _TOKEN.search(footer)
        return m.group() if m else footer


def _suffix(header: str, footer: str, turn: str) -> tuple[str, str] | None:
    """The system turn's own footer and the template's own text, for a template that writes
    that text after a system message, joined to it by text it leaves out without one
    (qwen3.8-froggeric's ``\\n\\n`` and guidance): ``footer`` (what follows the message)
    is the join, that text and the turn's footer, from its first special token; ``turn``
    (written without a message) is ``header``, that text and the footer. ``None`` otherwise."""
    if not header or not turn.startswith(header):
        return None
    own = turn[len(header) :]
    if not own or not footer.endswith(own) or len(footer) == len(own):
        return None
    tokens = [m.start() for m in _TOKEN.finditer(own)]
    if not tokens or tokens[0] == 0:
        return None
    return own[tokens[0] :], own[: tokens[0]]


def _join(header: str, footer: str, turn: str) -> str:
    """The text a template writes between a system message and its own text, and leaves out
    without a message (llama.cpp's Apriel 1.6 copy: its reasoning prompt and ``\\n`` before
    the message; ``""``: none). ``header`` and ``footer`` are what stands before and after the
    message; ``turn`` is the system turn written without one."""
    if turn.endswith(footer) and len(turn) > len(footer):  # the template's text before it
        own = turn[: len(turn) - len(footer)]
        if header.startswith(own) and len(header) > len(own):
            join = header[len(own) :]
            return "" if _TOKEN.search(join) else join  # a token: another turn, not a join
    if turn.startswith(header) and len(header) + len(footer) > len(turn) and turn.endswith(footer):
        return footer[: len(header) + len(footer) - len(turn)]  # the join both claim
    return ""
