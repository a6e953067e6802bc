"""Record: a record type declared once, for fields, parameters, lists and states to hold.

One folder holds the kind: model.py, rule.py (build, checks, lowering),
data.py, schema.json; kind.py declares it to the registry.
"""
