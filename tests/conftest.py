"""Settings for the whole suite."""

from hypothesis import settings

# Hypothesis's default 200 ms deadline per example is a wall-clock assertion, and tests never
# assert on wall-clock time: on a loaded 2-core machine an example that takes 10 ms can take 300.
settings.register_profile("firefight", deadline=None)
settings.load_profile("firefight")
