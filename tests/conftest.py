"""Suite-wide settings. Engine tests (tests/rules) need no database.

Hypothesis: no per-example deadline (a shared 2-core machine makes timings noise, and speed is
measured by the benchmarks), and in CI a derandomized run so that a red build is reproducible.
"""

import os

from hypothesis import settings

settings.register_profile("ginmesa", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "ginmesa")
