"""The formula language: parsed, type-checked, worked out (its nodes, dice, lists, records, scope)."""
