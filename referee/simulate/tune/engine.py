"""Where a balance search plays its games: in this process (`--jobs 1`), in
a pool of spawned processes kept for the whole search, or on a Dask cluster
(`--scheduler`). Every batch carries the packet of card sources it plays
from (sources.py), so one worker plays many candidates, each as if alone."""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Sequence

from referee.simulate.cluster import CHUNK, _play_batch
from referee.simulate.play import GameConfig, GameRecord, play_game
from referee.simulate.sources import Packet, playing_from


class Engine:
    def __init__(self, jobs: int = 1, scheduler: str | None = None):
        self.jobs, self.scheduler = jobs, scheduler
        self.pool = None
        self.client = None
        if scheduler is not None:
            from referee.simulate.cluster import connect  # lazy: Dask only with --scheduler
            self.client = connect(scheduler)
        elif jobs > 1:
            self.pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))

    def play(self, configs: Sequence[GameConfig], packet: Packet) -> list[GameRecord]:
        """The games in the configs' order."""
        if self.client is not None:
            from referee.simulate.cluster import _stream  # lazy: as above
            batches = [list(configs[i:i + CHUNK]) for i in range(0, len(configs), CHUNK)]
            return list(_stream(self.client, batches, packet, lambda: False))
        if self.pool is not None:
            size = max(1, min(CHUNK, -(-len(configs) // self.jobs)))
            futures = [self.pool.submit(_play_batch, list(configs[i:i + size]), packet)
                       for i in range(0, len(configs), size)]
            return [r for f in futures for r in f.result()]
        with playing_from(packet) as folder:
            return [play_game(replace(c, project=str(folder))) for c in configs]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        if self.client is not None:
            self.client.close()
