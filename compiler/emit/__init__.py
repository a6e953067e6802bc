"""Emitters: each target printed from the core IR (``compiler/core``), knowing no kind."""
