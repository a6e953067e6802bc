"""Runtime support modules, copied verbatim into the generated ``rulebook`` package.

They are ordinary, type-checked Python: the compiler imports them too (for exact
dice distributions and notation parsing), so compile time and run time share one
implementation.
"""
