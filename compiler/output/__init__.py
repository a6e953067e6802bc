"""Output: the build's artifact written atomically, cached, and checked for staleness."""
