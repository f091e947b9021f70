"""Mention pieces -> properly nested fragments, ready to render as nested HTML elements.

Mentions may nest (``the solution of X`` around ``X``) or cross (two ranges that overlap
without one containing the other). Crossing pieces are cut at the enclosing piece's end so
that every fragment is either inside or outside every other one.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Piece:
    """One character range of a mention (``index``-th of its ``count`` ranges)."""

    start: int
    end: int
    mention: str
    index: int = 0
    count: int = 1


@dataclass
class Node:
    """A fragment of a piece, with the fragments nested inside it."""

    piece: Piece | None
    start: int
    end: int
    children: list[Node] = field(default_factory=list)


def nest(pieces: list[Piece], length: int) -> Node:
    """A tree of fragments covering ``[0, length)``; the root has ``piece=None``.

    Longer pieces enclose shorter ones starting at the same offset; a piece crossing the
    end of an enclosing one continues as a second fragment after it. Empty or out-of-range
    pieces are dropped.
    """
    root = Node(None, 0, length)
    # heap of (start, -end, mention, index, piece): outer pieces first at equal starts
    heap = [
        (p.start, -p.end, p.mention, p.index, p)
        for p in pieces
        if 0 <= p.start < p.end <= length
    ]
    heapq.heapify(heap)
    stack = [root]
    while heap:
        start, neg_end, mention, index, piece = heapq.heappop(heap)
        end = -neg_end
        while stack[-1] is not root and stack[-1].end <= start:
            stack.pop()
        parent = stack[-1]
        if end > parent.end:
            heapq.heappush(heap, (parent.end, neg_end, mention, index, piece))
            end = parent.end
        node = Node(piece, start, end)
        parent.children.append(node)
        stack.append(node)
    return root
