"""A query's values as the files and scripts read them: JSON, CSV and Parquet.

Times are ISO text in UTC ending in ``Z``, decimals are numbers, bytes are hex, JSON columns are
decoded; Parquet gets types every reader keeps exactly (:func:`tabletape.queries.parquet.portable`).
"""

from __future__ import annotations

import datetime
import decimal
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

ROWS_A_BATCH = 1000
"""Rows fetched at a time when they stream (``--format jsonl``)."""


def json_rows(relation: duckdb.DuckDBPyRelation) -> Iterator[dict[str, Any]]:
    """The relation's rows as JSON objects, fetched a batch at a time."""
    columns, types = relation.columns, [str(t) for t in relation.types]
    for row in relation.iter_rows(ROWS_A_BATCH):
        yield {c: json_value(v, t) for c, t, v in zip(columns, types, row, strict=True)}


def csv_value(value: Any) -> Any:
    if isinstance(value, list | dict | tuple):
        return json.dumps(plain(value), ensure_ascii=False)
    return plain(value)


def json_value(value: Any, type_name: str) -> Any:
    """A value as JSON: JSON columns decoded, times as ISO text, decimals as numbers."""
    if type_name == "JSON" and isinstance(value, str):
        return json.loads(value)
    return plain(value)


def plain(value: Any) -> Any:
    """A DuckDB Python value as a plain JSON-able one (a moment in UTC, ending in ``Z``).

    >>> plain(datetime.datetime(2026, 1, 2, 3, 4, 5))
    '2026-01-02T03:04:05Z'
    >>> plain([decimal.Decimal("0.5"), b"\\x01"])
    [0.5, '01']
    """
    if isinstance(value, datetime.datetime):
        return utc_text(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def utc_text(moment: datetime.datetime) -> str:
    """A moment as ISO text in UTC ending in ``Z``; a naive one is UTC already (the catalog's
    TIMESTAMPs are, by the ledger's convention).

    >>> utc_text(datetime.datetime(2026, 1, 2, 4, 0, tzinfo=datetime.timezone(
    ...     datetime.timedelta(hours=1))))
    '2026-01-02T03:00:00Z'
    """
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC).replace(tzinfo=None)
    return moment.isoformat() + "Z"


def write_parquet(relation: duckdb.DuckDBPyRelation, output: Path) -> None:
    """The rows as Parquet at ``output``, in types every reader keeps exactly."""
    from tabletape.queries.parquet import portable

    typed = list(zip(relation.columns, map(str, relation.types), strict=True))
    relation.project(portable(typed)).write_parquet(str(output))
