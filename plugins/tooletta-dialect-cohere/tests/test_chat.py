"""Cohere conversations (Command R7B, Command R+): native rendering against the models' own
tool-use templates (vendored)."""

from __future__ import annotations

from pathlib import Path

from tooletta.testing.conversations import ConversationTests

TEMPLATES = Path(__file__).parent / "templates"
TOKENS = {"bos_token": "<BOS_TOKEN>"}
R7B = "CohereForAI/c4ai-command-r7b-12-2024"
R7B_TEMPLATE = TEMPLATES / "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja"


class TestCommandR7BChat(ConversationTests):
    model = R7B
    template = R7B_TEMPLATE
    tokens = TOKENS
    options = ({}, {"enable_thinking": True}, {"enable_citations": True})
    ids = True
    differences = {
        "tools_two_calls": "the template drops the content beside calls",
        "tools_no_system": "the template drops the content beside calls",
        "pending_call": "the template drops the content beside calls",
    }
