"""Targets: the list of what the build writes, each target declared in its own package.

Adding a target is one declaration (a ``Target``, ``compiler/emit/target.py``)
appended here: the pipeline, the cache, ``rulesc check`` and the manifest
iterate over this list, in its order, and name no target.
"""

from __future__ import annotations

from .conformance.target import TARGET as CONFORMANCE
from .javascript.target import TARGET as JAVASCRIPT
from .json.target import TARGET as JSON
from .markdown.target import TARGET as MARKDOWN
from .python.target import TARGET as PYTHON
from .target import Target

TARGETS: tuple[Target, ...] = (PYTHON, MARKDOWN, JAVASCRIPT, JSON, CONFORMANCE)
