"""Response templates for tooletta's dialects (placeholder)."""

from __future__ import annotations

from typing import Any

TEMPLATE_GAPS: dict[str, str] = {}


def exportable_dialects() -> list[str]:
    return []


def to_response_template(dialect: str) -> dict[str, Any]:
    raise NotImplementedError
