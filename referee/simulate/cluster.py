"""Self-play on a Dask cluster (`--scheduler ADDRESS`).

The plan's games go to the cluster's workers in batches of CHUNK, each
batch a task carrying its game configurations and the digest of the card
sources it plays from; the sources themselves (sources.Packet) are
scattered to the workers once. A worker plays a batch exactly as a local
process does (`play_game`), so a seed gives the same game wherever it runs.

Records come back in seed order: a batch finished early waits until the
batches before it are in, so the stream, the JSON and the report are the
same as a `--jobs 1` run's. At most a few batches per worker thread are in
flight at once.

Every worker must play with this machine's code (codeversion.py): one that
does not is refused with one clear error when the client connects, and a
worker that joins later refuses its first batch the same way.

A worker that dies mid-batch: the scheduler plays its batches again on
another worker (Dask's own resilience; a batch that kills ALLOWED_FAILURES
workers is given up with one clear error). Each batch's result is taken
once, from its one future, so no game is lost or counted twice.

Dask is imported only here, and this module only when `--scheduler` is given.
"""
from __future__ import annotations

from dataclasses import replace
from collections import deque
from pathlib import Path
from typing import Callable, Iterator, Sequence

from referee.errors import RefereeError
from referee.simulate.play import GameConfig, GameRecord, play_game
from referee.simulate.sources import Packet, pack, playing_from

CHUNK = 8  # games a task: as runner.CHUNK
IN_FLIGHT = 3  # batches in flight per worker thread
CONNECT_TIMEOUT = "10s"


def _play_batch(configs: Sequence[GameConfig], packet: Packet, code: str | None = None) -> list[GameRecord]:
    """On a worker: play the batch from the packet's project (`code`: the
    sender's code_version, which this worker's must be)."""
    if code is not None:
        from distributed import get_worker  # lazy: only on a Dask worker

        from referee.simulate.codeversion import check_here  # lazy: as above
        check_here(code, f"worker {get_worker().address}")
    with playing_from(packet) as folder:
        return [play_game(replace(c, project=str(folder))) for c in configs]


def connect(address: str):
    """A Dask client of the scheduler at `address`, or one clear error."""
    try:
        from distributed import Client  # lazy: Dask only with --scheduler
    except ImportError:
        raise RefereeError("--scheduler needs Dask's distributed: install the cluster extra "
                           "(pip install '.[cluster]')") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise RefereeError(f"--scheduler {address}: cannot reach a Dask scheduler there "
                           f"({type(exc).__name__}: {exc})") from None
    try:
        check_workers(client, address)
    except BaseException:
        client.close()
        raise
    return client


def check_workers(client, address: str) -> None:
    """One clear error when a worker plays with other code than this machine
    (codeversion.py): a run never mixes two engines' games."""
    from referee.simulate.codeversion import code_version  # lazy: as above

    here = code_version()
    try:
        found = client.run(_worker_code)
    except Exception as exc:  # a worker whose referee has no codeversion, or none at all
        raise RefereeError(f"--scheduler {address}: a worker cannot name its code ({type(exc).__name__}: {exc}); "
                           f"start every worker from the same code as this machine ({here})") from None
    other = {worker: code for worker, code in sorted(found.items()) if code != here}
    if other:
        worker, code = next(iter(other.items()))
        more = f" (and {len(other) - 1} more)" if len(other) > 1 else ""
        raise RefereeError(f"--scheduler {address}: worker {worker}{more} plays with {code}, but this machine with "
                           f"{here}; start every worker from the same code (install the same commit) and run again")


def _worker_code() -> str:
    from referee.simulate.codeversion import code_version  # lazy: run on each worker

    return code_version()


def check_reachable(address: str) -> None:
    """One clear error now when the scheduler cannot be reached or has no worker."""
    client = connect(address)
    try:
        if not client.nthreads():
            raise RefereeError(f"--scheduler {address}: the scheduler has no workers; start one with "
                               f"`dask worker {address}`")
    finally:
        client.close()


def project_packet(project: str | None) -> Packet:
    """The sources of `project` (side B's folder), else of the project the referee reads now."""
    if project is not None:
        return pack(Path(project))
    from referee.cards.index import project_root  # lazy: card sources only when needed

    return pack(project_root())


def run_configs(address: str, configs: Sequence[GameConfig], packet: Packet,
                stop: Callable[[], bool] = lambda: False, client=None) -> Iterator[GameRecord]:
    """Every config played on the cluster, records yielded in the configs' order."""
    own = client is None
    if own:
        client = connect(address)
    try:
        yield from _stream(client, [list(configs[i:i + CHUNK]) for i in range(0, len(configs), CHUNK)],
                           packet, stop)
    finally:
        if own:
            client.close()


def _stream(client, batches: list[list[GameConfig]], packet: Packet, stop) -> Iterator[GameRecord]:
    from distributed import KilledWorker  # lazy: as above

    threads = sum(client.nthreads().values())
    if threads == 0:
        raise RefereeError("the Dask scheduler has no workers: start one with `dask worker ADDRESS`")
    from referee.simulate.codeversion import code_version  # lazy: as above

    code = code_version()
    shared = client.scatter(packet, broadcast=True, hash=False)
    limit = max(2, IN_FLIGHT * threads)
    pending: deque = deque()
    queue = iter(batches)
    try:
        for batch in queue:
            pending.append(client.submit(_play_batch, batch, shared, code, pure=False))
            if len(pending) >= limit:
                break
        while pending:
            future = pending.popleft()
            try:
                records = future.result()
            except KilledWorker as exc:
                raise RefereeError(f"a batch of games killed {exc.args[1] if len(exc.args) > 1 else 'its'} "
                                   "workers one after another; it is given up (the games' seeds: "
                                   f"{future.key})") from None
            yield from records
            if stop():
                return
            for batch in queue:
                pending.append(client.submit(_play_batch, batch, shared, code, pure=False))
                break
    finally:
        for future in pending:
            future.cancel()
