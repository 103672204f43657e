"""``python -m rwalter``: the same entry point as the ``rwalter`` console script."""

from rwalter.cli import main

if __name__ == "__main__":
    main()
