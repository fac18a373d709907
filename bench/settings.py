"""The product's settings with the bench's URLconf (the ceiling view beside the product's)."""

import os

from scarney_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"

if os.environ.get("BENCH_GC_LOG"):
    # Each web process writes, when it stops, the pauses of its full (generation 2) collections
    # after its first 10 s (start-up and warm-up left out): BENCH_GC_LOG/gc-<pid>.txt.
    import atexit
    import gc
    import time

    _born = time.monotonic()
    _started: list[float] = []
    _pauses: list[float] = []

    def _timed(phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            _started[:] = [time.monotonic()]
        elif _started and _started[0] - _born > 10:
            _pauses.append(time.monotonic() - _started[0])

    def _write() -> None:
        ms = sorted(round(1000 * pause, 1) for pause in _pauses)
        path = os.path.join(os.environ["BENCH_GC_LOG"], f"gc-{os.getpid()}.txt")
        with open(path, "w") as out:
            out.write(
                f"full collections {len(ms)}, pauses ms {ms}, tracked {len(gc.get_objects())}\n"
            )

    gc.callbacks.append(_timed)
    atexit.register(_write)
