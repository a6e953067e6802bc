"""Code as a library user writes it, for the type checkers (tests/test_typing.py)."""
