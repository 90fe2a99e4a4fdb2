"""Command line: ``veillee serve`` and ``veillee selfplay <game> …``.

``selfplay`` hands the rest of the command line to the game's ``selfplay`` module
(``veillee.games.<game>.selfplay.main(argv)``), found through the games registry.
"""

from __future__ import annotations

import argparse
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
        uvicorn.run(
            create_app(settings),
            host=args.host,
            port=args.port,
            log_level="info",
            **transport_limits(settings),
        )
        return 0
    module = importlib.import_module(f"{games.__name__}.{args.game}.selfplay")
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
