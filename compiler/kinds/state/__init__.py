"""State: a level on a ladder moved by named transitions, or a record of named
fields changed by transitions written as expressions.

One folder holds the kind: model.py, rule.py (build, checks, views), workbench.py,
schema.json and a template per output; kind.py declares it to the registry.
"""
