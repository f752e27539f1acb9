"""Stage 5, the pipeline: `stages.run_stages` runs sources -> model -> layout
-> render -> write for a target (a PDF build: `pdf.PdfTarget`, called by
`orchestrator.build`; an export: pnp.extras), and what it uses: which outputs
changed (`incremental`), tasks and their typed job (`tasks`), the worker pool
(`pool`), a build's tasks (`jobs`), faces prepared (`prepare`) and remembered
(`facecache`), manifests, ink coverage."""
