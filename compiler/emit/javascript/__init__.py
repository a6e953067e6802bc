"""The JavaScript target: a system's module and its TypeScript types, printed from the core."""
