"""CPU seconds of a command and every process it starts, by kind: ``python -m tests.support.cputree make test``.

``time`` counts only the children a process waited for: Chromium's processes, which Playwright's
driver does not reap, are missed. This samples ``/proc/<pid>/stat`` (utime + stime) of the
command and its whole process tree every 0.3 s and keeps each process's last reading (up to 0.3 s
of each process's last work is missed: a figure for long runs), then prints the sum by kind of
process (Chromium's renderers, its GPU process, the served app, Python, Node.js) on standard
error. Linux only. The figures of ``make test`` in docs/benchmarks.md come from it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter

HZ = os.sysconf("SC_CLK_TCK")


def _kind(pid: int) -> str:
    try:
        argv = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")  # noqa: SIM115 - read at once
    except OSError:
        return "?"
    text = b" ".join(argv)
    if b"--type=renderer" in text:
        return "chromium renderer"
    if b"--type=gpu-process" in text or b"--gpu-preferences" in text:
        return "chromium gpu"
    if b"--type=" in text:
        return "chromium other"
    if b"chrom" in argv[0]:
        return "chromium browser"
    if b"serve" in argv:
        return "served app"
    return os.path.basename(argv[0].decode(errors="replace")) or "?"


def _tree(root: int) -> dict[int, int]:
    """The CPU ticks of ``root`` and its descendants, now."""
    children: dict[int, list[tuple[int, int]]] = {}
    own = None
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            rest = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()  # noqa: SIM115
        except OSError:
            continue
        if int(entry) == root:
            own = int(rest[11]) + int(rest[12])
        children.setdefault(int(rest[1]), []).append((int(entry), int(rest[11]) + int(rest[12])))
    out, todo = ({root: own} if own is not None else {}), [root]
    while todo:
        for pid, ticks in children.get(todo.pop(), []):
            out[pid] = ticks
            todo.append(pid)
    return out


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    proc = subprocess.Popen(argv)
    ticks: dict[int, int] = {}
    kinds: dict[int, str] = {}
    started = time.monotonic()
    while proc.poll() is None:
        for pid, t in _tree(proc.pid).items():
            ticks[pid] = t
            if pid not in kinds or kinds[pid] in {"sh", "?"}:  # a wrapper script that exec'd
                kinds[pid] = _kind(pid)
        time.sleep(0.3)
    by_kind: Counter[str] = Counter()
    for pid, t in ticks.items():
        by_kind[kinds.get(pid, "?")] += t / HZ
    for kind, seconds in by_kind.most_common():
        print(f"{seconds:9.1f} CPU-s  {kind}", file=sys.stderr)
    print(f"{sum(by_kind.values()):9.1f} CPU-s  in all, {time.monotonic() - started:.0f} s wall", file=sys.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
