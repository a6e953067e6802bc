"""The JSON target: rules.json, its schema, and formulas as plain trees."""
