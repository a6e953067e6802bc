"""The rules editor's workbench: commands for working next to the YAML.

``roll``, ``explain``, ``simulate``, ``diff`` and ``build --watch``, one module
each, and ``display`` for errors on a terminal and for tools. ``commands``
registers them with ``rulesc`` and imports a command's module only when it runs.
"""
