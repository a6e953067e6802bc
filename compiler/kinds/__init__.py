"""Rule kinds: one folder each, holding its schema, templates, build, views and hooks.

compiler/kinds/base.py says what a kind provides; compiler/registry.py lists them.
"""
