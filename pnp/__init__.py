"""pnp: print-and-play production pipeline (YAML card sources -> printable PDFs)."""

__version__ = "0.1.0"
