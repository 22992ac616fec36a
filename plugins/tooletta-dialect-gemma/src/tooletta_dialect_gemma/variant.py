"""``gemma4_2607``: the Gemma 4 calls as the canonical template of July 2026 writes them.

Gemma 4's canonical chat template (``google/gemma-4-31B-it`` at 842da379,
:mod:`tooletta_dialect_gemma.canonical`) writes a ``None`` argument as ``null`` where the
earlier revisions wrote Python's ``None`` (its ``format_argument`` gained an
``argument is none`` branch). Everything else of the call is ``gemma4``'s, and the variant
parses as ``gemma4`` does (``null`` and ``None`` both read as null). It is picked by its
``models`` patterns or by name, never by detection.
"""

from __future__ import annotations

from tooletta.plugin import variant_info

from . import Gemma4Dialect
from .canonical import Gemma4CanonicalChat, Gemma4EdgeChat

__all__ = ["Gemma4CanonicalDialect"]


class Gemma4CanonicalDialect(Gemma4Dialect):
    """``gemma4``'s calls, ``None`` written ``null`` (Gemma 4's canonical template)."""

    info = variant_info(
        Gemma4Dialect.info,
        "gemma4_2607",
        description="Gemma 4 canonical-template spelling of gemma4 (variant: None as null)",
        source="google/gemma-4-31B-it chat_template.jinja (revision 842da379)",
    )
    none_word = "null"
    chat_formats = (Gemma4CanonicalChat(), Gemma4EdgeChat())
