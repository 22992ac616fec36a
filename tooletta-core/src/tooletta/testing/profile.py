"""The ``fuzz`` hypothesis profile: every property test with many more examples.

CI runs the properties with their own small example counts and random seeds, so a rare
falsifying input turns it red by chance. ``pytest --hypothesis-profile=fuzz`` (the root
``conftest.py`` registers the profile) looks for those inputs first: every property test, the
kit's included, runs at least :data:`FUZZ_EXAMPLES` examples (``TOOLETTA_FUZZ_EXAMPLES`` sets
another count), randomized (vary ``--hypothesis-seed``), without deadline. Under any other
profile :func:`under_fuzz` returns the settings it is given: default runs are unchanged.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import hypothesis

__all__ = ["FUZZ_EXAMPLES", "FUZZ_PROFILE", "register_fuzz_profile", "under_fuzz"]

FUZZ_PROFILE = "fuzz"
"""The profile's name, for ``--hypothesis-profile``."""

FUZZ_EXAMPLES = 2000
"""The fewest examples a property test runs under the profile (unless
``TOOLETTA_FUZZ_EXAMPLES`` says otherwise)."""


def _examples() -> int:
    """The profile's example count: ``TOOLETTA_FUZZ_EXAMPLES`` when it is a positive number,
    else :data:`FUZZ_EXAMPLES`."""
    raw = os.environ.get("TOOLETTA_FUZZ_EXAMPLES", "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else FUZZ_EXAMPLES


def register_fuzz_profile() -> None:
    """Register the ``fuzz`` profile (it is loaded only when asked for)."""
    from hypothesis import settings

    settings.register_profile(
        FUZZ_PROFILE, max_examples=_examples(), deadline=None, print_blob=True
    )


def fuzzing() -> bool:
    """Whether the ``fuzz`` profile is the loaded one."""
    from hypothesis import settings

    return settings.get_current_profile_name() == FUZZ_PROFILE


def under_fuzz(base: hypothesis.settings) -> hypothesis.settings:
    """``base`` with at least the profile's examples, randomized and without deadline when
    the ``fuzz`` profile is loaded; ``base`` itself otherwise."""
    if not fuzzing():
        return base
    from hypothesis import settings

    return settings(
        base,
        max_examples=max(base.max_examples, settings().max_examples),
        deadline=None,
        derandomize=False,
    )
