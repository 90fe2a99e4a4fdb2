"""Command line: ``veillee serve``, ``veillee worker`` and ``veillee selfplay <game> …``.

``worker`` takes the computer's decisions from Redis (``VEILLEE_REDIS_URL``) for servers run
with ``VEILLEE_DECIDERS=redis`` (docs/deploy.md), until it is stopped (SIGTERM or Ctrl-C).

``selfplay`` hands the rest of the command line to the game's ``selfplay`` module
(``veillee.games.<game>.selfplay.main(argv)``), found through the games registry.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys

from veillee import games


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``veillee`` script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="veillee", description="Veillée card games.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the web server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    worker = sub.add_parser("worker", help="decide the computer's moves, taken from Redis")
    worker.add_argument("--name", help="this worker's name among the consumers (default: host-pid)")
    selfplay = sub.add_parser("selfplay", help="computer players against baselines")
    selfplay.add_argument("game", choices=games.names())
    args, rest = parser.parse_known_args(argv)

    if args.command == "serve":
        if rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        import uvicorn

        from veillee.config import Settings, transport_limits
        from veillee.web import create_app

        settings = Settings()
        if settings.test_hooks:
            parser.error("VEILLEE_TEST_HOOKS is for the browser tests, never for a served site")
        try:
            settings = settings.served_at(args.host, args.port)
        except ValueError as err:
            parser.error(str(err))
        print(f"Veillée: {', '.join(settings.public_origins)}", flush=True)
        app = create_app(settings)
        settle_the_collector()
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level="info",
            **transport_limits(settings),
        )
        return 0
    if args.command == "worker":
        if rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        return run_worker(args.name)
    module = importlib.import_module(f"{games.__name__}.{args.game}.selfplay")
    return int(module.main(rest) or 0)


YOUNG_OBJECTS = 2000
"""The cycle collector's first threshold for a server (Python's default: 700): most of what a
change makes is gone before a collection, and far fewer objects live on into the oldest
generation, whose collections scan everything (issue 28). Measured at 2,000 and 5,000: both
keep a person's ack p99 at 1,000 tables near 30 ms; 5,000 costs an idle seat ~0.6 KiB more
(bench/idle_seats.py), the cyclic garbage of opening a socket waiting longer."""


def settle_the_collector() -> None:
    """Before a server serves: what is made by then (modules, the app) lives as long as the
    process and is taken out of the collector's sight (``gc.freeze``), and young collections
    are made rarer (:data:`YOUNG_OBJECTS`). Measured (bench/live_load.py, 1,000 tables at
    human pace): full collections of 100-200 ms were the tail of a person's ack."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, middle, old)


def run_worker(name: str | None) -> int:
    """``veillee worker``: answer decision jobs from Redis until SIGTERM or Ctrl-C."""
    import logging
    import signal

    from veillee.config import Settings
    from veillee.workers import streams

    settings = Settings()
    if not settings.redis_url:
        print("veillee worker needs VEILLEE_REDIS_URL (the Redis the servers use)", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    stopping: list[int] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda number, _frame: stopping.append(number))
    print(f"Veillée worker: decisions from {settings.redis_url}", flush=True)
    streams.serve(
        settings.redis_url,
        name,
        claim_after_s=settings.worker_claim_after_s,
        stop=lambda: bool(stopping),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
