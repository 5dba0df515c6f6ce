"""Traceability of the regulations: the article index (docs/regulations/articles.md), the article ids
cited in the code and the tests, and the matrix that maps one onto the other.

    python -m traceability            write docs/regulations/traceability.md; list the problems
    python -m traceability --check    exit 1 if there are problems or the matrix is out of date
"""
from .citations import scan
from .index import INDEX, ROOT, BadIndex, Index
from .matrix import MATRIX, REGENERATE, Matrix


def build(root=ROOT):
    """The matrix of the repository at `root`, from its index and its citations."""
    index = Index.load(root / "docs" / "regulations" / "articles.md")
    return Matrix.build(index, scan(index, root))


__all__ = ["BadIndex", "INDEX", "Index", "MATRIX", "Matrix", "REGENERATE", "ROOT", "build", "scan"]
