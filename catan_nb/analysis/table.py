"""A small immutable table: what the analysis functions return for a notebook to print or plot."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["Table"]


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return "nan" if math.isnan(x) else f"{x:.3f}"
    return "" if x is None else str(x)


@dataclass(frozen=True)
class Table:
    """A small immutable table: named columns and rows of plain values.

    Enough for a notebook without pandas: print it, plot a column, or hand it
    to pandas (:meth:`to_pandas`) or plotly (``px.bar(table.to_columns(), ...)``).

    Attributes
    ----------
    columns : tuple of str
    rows : tuple of tuple
    title : str

    Examples
    --------
    >>> t = Table(("seat", "wins"), ((0, 3), (1, 1)), title="wins")
    >>> t.to_columns()
    {'seat': [0, 1], 'wins': [3, 1]}
    >>> t.to_records()[1]
    {'seat': 1, 'wins': 1}
    >>> print(t)
    wins
    seat  wins
       0     3
       1     1
    """

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    title: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "columns", tuple(self.columns))
        object.__setattr__(self, "rows", tuple(tuple(r) for r in self.rows))
        for r in self.rows:
            if len(r) != len(self.columns):
                raise ValueError(f"row {r} has {len(r)} values for {len(self.columns)} columns")

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> dict[str, Any]:
        """Row ``i`` as a record ``{column: value}``."""
        return dict(zip(self.columns, self.rows[i]))

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.to_records())

    def column(self, name: str) -> list[Any]:
        """One column's values."""
        i = self.columns.index(name)
        return [r[i] for r in self.rows]

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per row."""
        return [dict(zip(self.columns, r)) for r in self.rows]

    def to_columns(self) -> dict[str, list[Any]]:
        """One list per column (what ``plotly.express`` and ``pandas.DataFrame`` take)."""
        return {c: [r[i] for r in self.rows] for i, c in enumerate(self.columns)}

    def to_pandas(self):
        """A ``pandas.DataFrame`` (pandas is optional: ImportError if it is missing)."""
        import pandas as pd

        return pd.DataFrame(self.to_columns(), columns=list(self.columns))

    def __str__(self) -> str:
        cells = [list(self.columns)] + [[_fmt(x) for x in r] for r in self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
        lines = ["  ".join(s.rjust(w) for s, w in zip(row, widths)).rstrip() for row in cells]
        return "\n".join(([self.title] if self.title else []) + lines)

    def _repr_html_(self) -> str:
        from html import escape

        head = "".join(f"<th>{escape(c)}</th>" for c in self.columns)
        body = "".join("<tr>" + "".join(f"<td>{escape(_fmt(x))}</td>" for x in r) + "</tr>" for r in self.rows)
        cap = f"<caption>{escape(self.title)}</caption>" if self.title else ""
        return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
