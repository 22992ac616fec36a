"""Root conftest, seen by every test tree (tests/ and plugins/*/tests): registers the
``fuzz`` hypothesis profile (:mod:`tooletta.testing.profile`), and under it raises every
property test's own settings to the profile's example count, randomized.

``uv run pytest --hypothesis-profile=fuzz -p no:randomly <files> --hypothesis-seed=N``
"""

from __future__ import annotations

import pytest

from tooletta.testing.profile import fuzzing, register_fuzz_profile, under_fuzz

register_fuzz_profile()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under the ``fuzz`` profile: each collected property test's settings through
    :func:`~tooletta.testing.profile.under_fuzz` (a test's own ``@settings`` would otherwise
    keep its small count). The kit's properties, built while they run, do the same."""
    if not fuzzing():
        return
    for item in items:
        test = getattr(item, "obj", None)
        test = getattr(test, "__func__", test)
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if current is not None and getattr(test, "is_hypothesis_test", False):
            test._hypothesis_internal_use_settings = under_fuzz(current)  # type: ignore[union-attr]
