"""Building blocks for dialect plugins: schema typing, argument writers, id policies."""

from .args import ArgsWriter, typed_value
from .ids import mistral_id, sanitize_id, stable_token
from .schema import ToolSchemas, coerce_value, python_literal

__all__ = [
    "ArgsWriter",
    "ToolSchemas",
    "coerce_value",
    "mistral_id",
    "python_literal",
    "sanitize_id",
    "stable_token",
    "typed_value",
]
