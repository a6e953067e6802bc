"""Usage errors: a workbench command used wrongly, with how to use it right."""

from __future__ import annotations


class UsageError(Exception):
    """The command was used wrongly: say how, and how to do it right."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
