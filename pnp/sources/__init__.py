"""Stage 1, sources: reading and checking a project's card sources (YAML,
CSV, Excel), their field types, effects, composition rules and art
assignments, into the typed values of pnp.model. No ReportLab here."""
