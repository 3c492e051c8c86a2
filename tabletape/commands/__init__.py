"""The command groups of the command line, one module per group, each holding a ``typer.Typer``
named ``app`` (:data:`tabletape.COMMAND_MODULES` lists them in ``--help``'s order).

Light on purpose: nothing is imported here, so running one command imports its own module only.
"""
