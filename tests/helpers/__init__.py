"""Helpers the tests share (not tests themselves), imported as `helpers`:
pdfcheck (measuring built PDFs), effects_fixture (a throw-away effect
vocabulary), serve_tables (tables for the `referee serve` tests), and
writer (a referee writer process for the durability tests, run as a script)."""
