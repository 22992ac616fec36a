"""The exception family. Every error tooletta raises on purpose is a :class:`ToolettaError`."""

from __future__ import annotations

__all__ = [
    "AmbiguousDialectError",
    "DuplicateDialectError",
    "LearnError",
    "LearnedSpecError",
    "ParseError",
    "PluginError",
    "RenderError",
    "StreamStateError",
    "TemplateMismatchError",
    "ToolettaError",
    "ToolettaWarning",
    "UnknownDialectError",
    "UnverifiedModelWarning",
]


class ToolettaError(Exception):
    """Root of every error tooletta raises on purpose; the CLI prints these without traceback."""


class ParseError(ToolettaError, ValueError):
    """Text could not be parsed (raised in strict mode; lenient mode keeps ``unparsed`` data).

    ``dialect`` names the dialect and ``position`` the character offset of the bad block.
    """

    def __init__(self, message: str, *, dialect: str | None = None, position: int | None = None):
        self.message = message
        self.dialect = dialect
        self.position = position
        where = f" at offset {position}" if position is not None else ""
        who = f"{dialect}: " if dialect else ""
        super().__init__(f"{who}{message}{where}")


class RenderError(ToolettaError, ValueError):
    """Calls or content cannot be expressed in the target dialect without changing meaning."""

    def __init__(self, message: str, *, dialect: str | None = None):
        self.dialect = dialect
        super().__init__(f"{dialect}: {message}" if dialect else message)


class UnknownDialectError(ToolettaError, LookupError):
    """No installed dialect has this name or alias."""


class DuplicateDialectError(ToolettaError):
    """Two dialects claim the same name or alias (reported, never silently shadowed)."""


class AmbiguousDialectError(ToolettaError):
    """Detection found several equally likely dialects; pass one explicitly."""


class PluginError(ToolettaError):
    """A plugin failed: it did not import, raised while registering, or raised while working.

    ``plugin`` names the plugin (entry-point or module name).
    """

    def __init__(self, message: str, *, plugin: str | None = None):
        self.plugin = plugin
        super().__init__(f"plugin {plugin}: {message}" if plugin else message)


class StreamStateError(ToolettaError, ValueError):
    """A stream parser was used out of order: ``feed`` after ``finish``, or ``finish`` twice.

    A stream parser reads one response: ``feed`` each delta, then ``finish`` once; start a new
    one with :func:`tooletta.stream` for the next response. ``dialect`` names the dialect.
    (A delta that is not ``str`` is a :class:`ParseError`, like text given to ``parse``.)
    """

    def __init__(self, message: str, *, dialect: str | None = None):
        self.dialect = dialect
        super().__init__(f"{dialect}: {message}" if dialect else message)


class TemplateMismatchError(ToolettaError, ValueError):
    """A chat template and a ``model=`` (or ``dialect=``) that disagree: the model's format
    does not reproduce the template byte for byte on the probe suite of
    :func:`tooletta.chat.identify`. The message names the first difference (which probe,
    where, both texts). The template is what the model was trained on: pass it alone to use
    the format it is, rather than the model id's (an older release's, or another template's)."""


class LearnError(ToolettaError):
    """A chat template could not be learned (:func:`tooletta.learn`): no declarative format
    reproduces it on every probe, or one does but does not read its own text back.

    ``reason`` says which probe failed and where the learned format first differs from the
    template (or what the template does that no learned format expresses); ``probe`` names
    the probe (``None`` when the refusal precedes the probes).
    """

    def __init__(self, reason: str, *, probe: str | None = None):
        self.reason = reason
        self.probe = probe
        super().__init__(f"cannot learn this chat template: {reason}")


class LearnedSpecError(LearnError):
    """A saved learned spec cannot be read (:func:`~tooletta.chat.learn.load_learned`,
    :func:`~tooletta.chat.learn.dialect_from_spec`): not a learned spec, one of a version this
    tooletta does not read, or one holding an unknown key or a value of the wrong type (the
    message names the key's path, such as ``$.chat.reasoning.keep``).
    """

    def __init__(self, reason: str):
        self.reason = reason
        self.probe = None
        ToolettaError.__init__(self, reason)


class ToolettaWarning(UserWarning):
    """Something tooletta did that may not be what was meant, but is no error: reasoning the
    target format has no place for was dropped, text read in one dialect looks written in
    another. The CLI prints these as ``warning:`` lines on stderr."""


class UnverifiedModelWarning(ToolettaWarning):
    """A model id given without its template is claimed by its name only: its organisation
    is not one the model rows name (``unsloth/Qwen3-8B``, ``someone/gemma-4-31b-it-abliterated``
    matched by ``qwen3-8b``, ``gemma-4-31b*``), so the conversation format is the vendor's,
    and whether that repository's own chat template is the same was never checked. Re-uploads
    usually serve the vendor's text; fine-tunes and fixes often do not. Pass the repository's
    ``chat_template=`` or ``tokenizer=`` to check it (a template the format does not
    reproduce raises :class:`TemplateMismatchError`), or filter this warning to accept the
    vendor's format for such ids."""
