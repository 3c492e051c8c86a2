"""``tabletape spark``: the catalog built by Apache Spark (:mod:`tabletape.queries.spark_job`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tabletape.cli import JsonOption, err, out, people_errors, print_json, warn
from tabletape.commands.querying import IncludeSimulatedOption, StrictOption

app = typer.Typer()
EXAMPLE = "tabletape spark build-catalog --logs s3a://league/games --out /shared/catalog"
spark = typer.Typer(no_args_is_help=True, rich_markup_mode="rich",
                    help="League scale: the catalog built by Apache Spark "
                         "(pip install 'tabletape\\[spark]').",
                    epilog=f"Example: [bold]{EXAMPLE}[/]")
app.add_typer(spark, name="spark", rich_help_panel="Query")


@spark.command("build-catalog", epilog=f"Example: [bold]{EXAMPLE}[/]")
def build_catalog_command(
    logs: Annotated[str, typer.Option(
        "--logs", help="The logs: a ledger, its games/ folder, or any folder of .jsonl logs "
                       "Spark reads (file://, s3a://, hdfs://).", show_default=False)],
    out_dir: Annotated[Path, typer.Option(
        "--out", help="Write the catalog's tables as Parquet here (as `export --parquet` "
                      "does), replacing an earlier export; every executor must reach it.",
        show_default=False)],
    include_simulated: IncludeSimulatedOption = False,
    strict: StrictOption = False,
    master: Annotated[str | None, typer.Option(
        "--master", help="Spark master, e.g. local[2] or spark://host:7077 (default: Spark's "
                         "own, or spark-submit's).")] = None,
    log_level: Annotated[str, typer.Option(
        "--log-level", help="Spark's own log lines shown on standard error: ERROR, WARN, "
                            "INFO or DEBUG.")] = "ERROR",
    as_json: JsonOption = False,
) -> None:
    """Fold every log on Spark (the same rules, in its Python workers) and write the catalog's
    tables as Parquet, as `export --parquet` writes them."""
    from tabletape.queries.spark_job import build_catalog

    with people_errors(), err.status("Spark…") as status:
        report = build_catalog(logs, out_dir, include_simulated=include_simulated,
                               strict=strict, master=master, log_level=log_level,
                               stage=lambda what: status.update(what[:1].upper() + what[1:] + "…"))
    for game, why in report.problems.items():
        warn(f"left out {game}: {why}", game=game)
    if as_json:
        import msgspec

        print_json(msgspec.to_builtins(report))
        return
    from tabletape.ledger.text import plural

    rows = sum(report.tables.values())
    out.print(f"Built {plural(len(report.tables), 'table')} ({plural(rows, 'row')}: "
              f"{plural(report.games, 'game')}, {plural(report.events, 'event')}) in "
              f"{report.directory} with Spark ({plural(report.tasks, 'task')}, "
              f"{report.seconds:.1f} s), partitioned by kind and month.", highlight=False)
    if report.problems:
        err.print(f"{plural(len(report.problems), 'game')} left out (named above and in the "
                  "manifest).",
                  highlight=False)


# -- spark-submit ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """``spark-submit`` of this file (or ``python -m tabletape.commands.spark``): ``spark
    build-catalog``'s options."""
    import sys

    from tabletape.cli import run_app

    submitted = typer.Typer(add_completion=False, rich_markup_mode="rich")
    submitted.command()(build_catalog_command)
    run_app(submitted, sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
