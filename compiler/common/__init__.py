"""Common: what every stage uses (located diagnostics, visible text, JSON text, limits, file errors)."""
