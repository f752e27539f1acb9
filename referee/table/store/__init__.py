"""Persistence: the SQLite table file and its append-only event log."""
