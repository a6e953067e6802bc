"""The reference site's MkDocs hooks and scripts (a package so tests import docsite.hooks)."""
