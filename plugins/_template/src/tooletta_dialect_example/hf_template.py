"""The ``response_template`` the example dialect exports, for transformers' own
``parse_response`` (:func:`tooletta.interop.hf.to_response_template`).

A real plugin writes the template the format's markers need (the helpers of
:mod:`tooletta.interop.hf.spec`; the other plugins' ``hf_template.py`` show most shapes) and
checks it on its golden fixtures through transformers; ``Export(..., note="...")`` says what
it leaves out, if anything. A format the spec cannot express says why instead:
``EXAMPLE = Export(gap="...")``. The export is named after its dialect in capitals: the
dialect's class finds it by that name (:mod:`tooletta.exportname`), with no line of its own.
"""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, Export, region, template

__all__ = ["EXAMPLE"]

EXAMPLE = Export(
    template(
        "<|assistant|>\n",  # what the model's turn starts after (made up here)
        region(r"\s*<<call>>(?P<name>[^\s<]+) ", r"<</call>>\s*", content="json", transform=NAMED),
    )
)
