"""Stage 6, extras: commands beside the build: print-shop and Tabletop
Simulator exports, calibration, previews, new games, watching, listing."""
