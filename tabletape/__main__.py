"""``python -m tabletape``: the same command as the ``tabletape`` console script."""

from tabletape import main

main()
