"""The plugin's model rows name dialects, formats and templates that exist (the kit's checks)."""

from __future__ import annotations

from pathlib import Path

from tooletta_dialect_bailing.models import MODELS

from tooletta.testing.models import ModelRowTests


class TestModelRows(ModelRowTests):
    rows = MODELS
    root = Path(__file__).parent.parent
