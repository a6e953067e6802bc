"""Die: a die of the rules' own, its faces numbers or symbols, rolled in formulas as d(name).

One folder holds the kind: model.py, rule.py (build, checks, lowering),
workbench.py, data.py, schema.json and data.schema.json; kind.py declares it
to the registry.
"""
