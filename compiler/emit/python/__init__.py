"""The Python target: a system's module and the package, printed from the core."""
