"""Facts: one record of named figures.

One folder holds the kind: model.py, rule.py (build, checks, views), workbench.py,
schema.json and a template per output; kind.py declares it to the registry.
"""
