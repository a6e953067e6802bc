"""Expression memo: what a pass over an expression gives for each node, worked out once.

A pass that reads a subtree more than once (an emitter writing an operand two
ways, a range analysis asked at every level) is then still linear in the tree:
each node's answer is kept by the node's identity, with the node itself, so
that an id is never read for another node made later.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .nodes import Node

__all__ = ["Seen", "remembered"]

T = TypeVar("T")
Seen = dict[int, tuple[Node, T]]


def remembered(seen: Seen[T], node: Node, work: Callable[[Node], T]) -> T:
    """``work(node)``, worked out only the first time ``seen`` meets ``node``."""
    found = seen.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    value = work(node)
    seen[id(node)] = (node, value)
    return value
