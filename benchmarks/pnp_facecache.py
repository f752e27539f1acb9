"""`pnp` with the face cache on or off, for the face-cache figures of `make bench`.

    python benchmarks/pnp_facecache.py on|off PNP-ARGUMENTS...

`off` builds as if pnp had no face cache: no keys hashed, nothing looked up,
nothing saved; every other cache (the parsed-source memo, the build state)
works as usual. (`PNP_NO_CACHE=1` is no use here: it turns the source memo off
too.) The build's workers are forked from this process, so they inherit the
switch. `on` runs pnp unchanged through this same wrapper, so that both sides
pay the same start-up.
"""
import sys

from pnp.cli import main
from pnp.pipeline.facecache import FaceCache


def switch_off() -> None:
    init = FaceCache.__init__

    def disabled(self, project, game, deck, enabled=True):
        init(self, project, game, deck, enabled=False)

    FaceCache.__init__ = disabled
    FaceCache.key = lambda self, template, context: None  # no key: prepare_card neither looks up nor stores


if __name__ == "__main__":
    mode = sys.argv.pop(1)
    if mode not in ("on", "off"):
        sys.exit("usage: pnp_facecache.py on|off PNP-ARGUMENTS...")
    if mode == "off":
        switch_off()
    sys.argv[0] = "pnp"
    sys.exit(main())
