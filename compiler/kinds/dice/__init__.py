"""Dice: one dice expression with a unit.

One folder holds the kind: model.py, rule.py (build, checks, views), workbench.py,
schema.json and a template per output; kind.py declares it to the registry.
"""
