"""Exposure schedule: what a stay of some time at a source gives.

One folder holds the kind: model.py, rule.py (build, checks, views), workbench.py,
schema.json and a template per output; kind.py declares it to the registry.
"""
