"""`python -m referee ...` runs the same command line as the `referee` script."""
from referee.cli.main import main

if __name__ == "__main__":  # pragma: no cover - exercised by subprocess tests
    main()
