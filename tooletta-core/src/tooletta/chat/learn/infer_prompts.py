"""The generation prompt per option switch: the template variables that look like reasoning
switches (``enable_thinking``...), the prompt under each value of each, and the switches that
change more than the prompt (fixed at the value learned with), or that the template refuses
(a switch that takes words, not booleans: not allowed at that value)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import LearnError
from .infer_base import _fail, _Step
from .probes import user

_KNOWN_VARIABLES = frozenset(
    {
        "messages",
        "tools",
        "add_generation_prompt",
        "bos_token",
        "eos_token",
        "raise_exception",
        "strftime_now",
        "range",
        "namespace",
        "dict",
        "lipsum",
        "cycler",
        "joiner",
        "true",
        "false",
        "none",
        "True",
        "False",
        "None",
    }
)
_SWITCH = re.compile(r"think|reason", re.IGNORECASE)


def switches_of(template: str) -> list[str]:
    """The template variables that look like reasoning switches (``enable_thinking``...)."""
    return [n for n in variables_of(template) if _SWITCH.search(n)]


def variables_of(template: str) -> list[str]:
    """The variables the template reads before it sets them (its switches, and names it
    sets only on some paths), but the ones every render gives (``messages``...)."""
    try:
        import jinja2
        from jinja2 import meta
    except ImportError:  # pragma: no cover - the oracle needs jinja2 first
        return []
    source = re.sub(r"\{%-?\s*(end)?generation\s*-?%\}", "", template)
    env = jinja2.Environment(extensions=["jinja2.ext.loopcontrols"])
    try:
        names = meta.find_undeclared_variables(env.parse(source))
    except jinja2.TemplateError:
        return []
    return sorted(names - _KNOWN_VARIABLES)


_PROBED: tuple[Any, ...] = (None, False, True, "", 0, "x")
"""The values each other variable is given: the ones a render may pass for "off", and two
that are not."""


class _Prompts(_Step):
    """The step that reads the generation prompt under each switch."""

    def switches(
        self, names: Sequence[str], suite: Any, others: Sequence[str] = ()
    ) -> tuple[list[Any], dict[str, Any]]:
        """The generation prompt under each value of each switch, and the switches that change
        more than the prompt (fixed at the value learned with); ``None`` is allowed unless
        the template writes with it other text than without the switch (prompt too: the
        format cannot tell ``None`` given from not given). ``others``: the template's
        other variables, each fixed at the values of :data:`_PROBED` under which the
        template writes the same text as without it, when some value changes it (a render
        given another value is refused, not rendered as if it were not given)."""
        prompts: list[Any] = list(self.spec["prompts"])
        fixed: dict[str, Any] = {}
        base_probes = [p for p in suite if not p.prompt]
        base = {p.name: self._render_probe(p, {}) for p in base_probes}
        for name in names:
            if name in self.o.options:
                fixed[name] = [self.o.options[name]]
                continue
            allowed: list[Any] = []
            found: list[Any] = []
            for value in (None, True, False):
                try:
                    changed = any(
                        self._render_probe(p, {name: value}) != base[p.name] for p in base_probes
                    )
                except LearnError:  # a value the template refuses (a string switch): not allowed
                    if value is None:  # but None reads as not given, as it always did
                        allowed.append(value)
                    continue
                if changed:
                    continue
                switch: dict[str, Any] = {name: value}
                r_u = self.o.render([user()], None, False, **switch)
                r_up = self.o.render([user()], None, True, **switch)
                if not r_up.startswith(r_u):
                    raise _fail("user+prompt", f"with {name}={value!r}, the prompt is not a suffix")
                prompt = r_up[len(r_u) :]
                if prompt != prompts[0][1]:
                    if value is None:
                        continue
                    found.append([{name: value}, prompt])
                allowed.append(value)
            prompts += found
            if len(allowed) < 3:
                fixed[name] = allowed
        for name in others:
            if name in fixed or name in self.o.options:
                continue
            neutral = [v for v in _PROBED if self._writes_as_without(name, v, base_probes, base)]
            if len(neutral) < len(_PROBED):
                fixed[name] = neutral
        return prompts, fixed

    def _writes_as_without(
        self, name: str, value: Any, probes: Sequence[Any], base: Mapping[str, str]
    ) -> bool:
        """Whether the template writes every probe, and the generation prompt, with ``name``
        given ``value`` as it writes them without it."""
        try:
            if any(self._render_probe(p, {name: value}) != base[p.name] for p in probes):
                return False
            plain = self.o.render([user()], None, True)
            return bool(self.o.render([user()], None, True, **{name: value}) == plain)
        except LearnError:  # the template raises with it: not the same text
            return False

    def _render_probe(self, probe: Any, options: Mapping[str, Any]) -> str:
        return self.o.render(probe.messages, probe.tools, probe.prompt, **options)
