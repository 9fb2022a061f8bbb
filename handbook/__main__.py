"""``python -m handbook check [CONTENT_DIR] [--sources DIR]``: validate content files.

Prints every problem as ``CODE file [entry]: message`` and exits 1, or a one-line summary and
exits 0. With the source documents (``--sources DIR`` or the environment variable
``HANDBOOK_SOURCES``) it also checks that every glossary definition marked as the source's words
is found word for word in that source (HB044); without them that check is skipped and says so.
It also checks the translations of the handbook's own words (``content/<lang>/handbook.toml``):
HB076 a text the handbook wrote has no translation, HB077 a translation's English is no longer in
the content.
``python -m handbook serve [--host H] [--port P] [--passphrase TEXT] [--trusted-proxy ADDR]`` runs
the app (what ``make run`` calls); see :mod:`handbook.access` for when the ledger and study data
ask for the passphrase and how wrong answers are counted.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m handbook", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate the content files")
    check.add_argument("content_dir", nargs="?", default=None,
                       help="the content folder (default: the content that ships with the app)")
    check.add_argument("--sources", default=os.environ.get("HANDBOOK_SOURCES") or None,
                       help="the folder of source documents the content was transcribed from "
                            "(default: $HANDBOOK_SOURCES; without it the word-for-word check is skipped)")
    serve = sub.add_parser("serve", help="serve the app as a local web server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8550)
    serve.add_argument("--passphrase", default=None,
                       help="the judge passphrase the ledger asks for (8+ characters; default: "
                            "$HANDBOOK_PASSPHRASE, or one generated and printed when HOST is not "
                            "127.0.0.1; none on 127.0.0.1)")
    serve.add_argument("--trusted-proxy", action="append", default=None, metavar="ADDR",
                       help="a reverse proxy (IP address or network) whose X-Forwarded-For "
                            "names the client; repeat for several (default: none -- wrong "
                            "passphrases are counted per address as the server saw it)")
    serve.add_argument("--allowed-origin", action="append", default=None, metavar="ORIGIN",
                       help="another origin (scheme://host[:port]) whose pages may open the app's "
                            "websocket, e.g. a reverse proxy's https://judge.example; repeat for "
                            "several (default: only the app's own host)")
    serve.add_argument("--max-sessions", type=int, default=None,
                       help="sessions the server holds in all (default: $HANDBOOK_MAX_SESSIONS or 300)")
    serve.add_argument("--max-sessions-per-address", type=int, default=None,
                       help="sessions one address may hold (default: "
                            "$HANDBOOK_MAX_SESSIONS_PER_ADDRESS or 40)")
    args = parser.parse_args(argv)

    if args.command == "check":
        from handbook.core.load import ContentError, load_library

        try:
            lib = load_library(args.content_dir)
        except ContentError as exc:
            for p in exc.problems:
                print(p)
            print(f"{len(exc.problems)} problem{'s' if len(exc.problems) != 1 else ''} found", file=sys.stderr)
            return 1
        from handbook.core.terminology import load_terminology
        from handbook.paths import CONTENT_DIR

        table_path = Path(args.content_dir or CONTENT_DIR) / "terminology.toml"
        if table_path.is_file():
            try:
                load_terminology(table_path)
            except (ValueError, OSError) as exc:
                print(exc)
                print("1 problem found", file=sys.stderr)
                return 1
        from handbook.core.texts import check_translations

        for lang, table in sorted(lib.translations.items()):
            missing, stale = check_translations(lib, dict(table))
            found = [f"HB076 {lang}/handbook.toml: no translation of {m}" for m in missing]
            found += [f"HB077 {lang}/handbook.toml: the content no longer has {s}" for s in stale]
            if found:
                for p in found:
                    print(p)
                print(f"{len(found)} problem{'s' if len(found) != 1 else ''} found", file=sys.stderr)
                return 1
        checked = ""
        if args.sources:
            from handbook.core.provenance import verify_sources

            try:
                problems = verify_sources(lib, args.sources)
            except ValueError as exc:
                print(exc, file=sys.stderr)
                return 2
            if problems:
                for p in problems:
                    print(p)
                print(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found", file=sys.stderr)
                return 1
            n = sum(1 for t in lib.glossary if t.provenance == "source")
            checked = f"; {n} source definitions found word for word in {args.sources}"
        else:
            checked = "; word-for-word source check skipped (no --sources folder)"
        sections = sum(len(r.sections) for r in lib.rulesets.values())
        rows = sum(len(r.penalties) for r in lib.rulesets.values())
        print(f"ok: {len(lib.rulesets)} rulesets, {sections} sections, {rows} penalty rows, "
              f"{len(lib.glossary)} terms{checked}")
        return 0
    from handbook.ui.app import serve as run_server

    try:
        run_server(host=args.host, port=args.port, passphrase=args.passphrase,
                   trusted_proxy=args.trusted_proxy, allowed_origins=args.allowed_origin,
                   max_sessions=args.max_sessions, max_sessions_per_address=args.max_sessions_per_address)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def system_allocator_command(orig_argv: list[str], environ: dict[str, str], *, platform: str = sys.platform,
                             ignore_environment: bool = bool(sys.flags.ignore_environment)
                             ) -> tuple[list[str], dict[str, str]] | None:
    """For ``serve``: the same command (``orig_argv``, as :data:`sys.orig_argv` gives it) and
    ``environ`` with ``PYTHONMALLOC=malloc``, to run the server on the C library's allocator;
    ``None`` when there is nothing to do -- another command, not Linux, an allocator already
    chosen, or Python told to ignore the environment.

    Why: a served app's sessions come and go; Python's own small-object allocator keeps a
    1 MiB arena as long as one object in it lives, so after 300 abrupt drops and their expiry the
    server stayed 60-80 MB above its idle figure with every session freed. On glibc's allocator
    the freed memory is handed back (``malloc_trim``, :mod:`handbook.ui.serving`, repair 4):
    +9 MB (``tests/bench/test_attack_bench.py``). Running once more costs a second import of
    the package (about 0.3 s); ``make run`` starts the server with ``PYTHONMALLOC=malloc``
    already set, and so does the test harness."""
    args = orig_argv[orig_argv.index("handbook") + 1:] if "handbook" in orig_argv else []
    if (not args or args[0] != "serve" or not platform.startswith("linux") or "PYTHONMALLOC" in environ
            or ignore_environment):
        return None
    return list(orig_argv), {**environ, "PYTHONMALLOC": "malloc"}


if __name__ == "__main__":
    again = system_allocator_command(list(sys.orig_argv), dict(os.environ))
    if again is not None:  # the same command once more, in this process, on the C allocator
        os.execve(sys.executable, *again)
    sys.exit(main())
