"""Stage 5, build: the orchestrator (pnp.pipeline.orchestrator.build) and what
it uses: preparing faces, the tasks and the worker pool that render them,
incremental keys, remembered faces, manifests."""
