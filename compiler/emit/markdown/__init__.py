"""The Markdown target: the reference pages, their math, words, charts and forms."""
