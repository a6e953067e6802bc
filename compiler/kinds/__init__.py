"""Rule kinds: one folder each, holding its schema, templates, build, views and hooks.

compiler/kinds/base.py says what a kind provides; compiler/kinds/registry.py lists them.
"""
