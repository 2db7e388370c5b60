"""Settings for the whole suite.

Hypothesis's default deadline (200 ms an example) is a timing assertion in disguise: on a shared
machine, or in a first example that imports a module, a correct example can take longer and fail.
Timings are measured by benchmarks/, never asserted in tests, so no example has a deadline here.
"""

from hypothesis import settings

settings.register_profile("palaestra", deadline=None)
settings.load_profile("palaestra")
