"""``python -m rwalter``: the same entry point as the ``rwalter`` console script."""

from rwalter.entry import main

if __name__ == "__main__":
    main()
