"""Core: the typed declarations every rule kind lowers to, which each target prints.

A kind's lowering (its ``lower`` hook) turns one rule into a ``Unit`` of core
declarations (``core.ir``); the emitters of ``compiler/emit/`` print a unit as
Python, JavaScript, TypeScript and Markdown, knowing declarations and types but
no kind.
"""
