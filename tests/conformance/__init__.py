"""Conformance kits run by each runtime: tests/conformance/runner.py (Python) and runner.mjs (JavaScript)."""
