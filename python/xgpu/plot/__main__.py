"""``python -m xgpu.plot``: the command line of the plotter (see __init__.py). Exit codes: 0
drawn; 2 a bad command line or input file (the message names the file and the field); 3
matplotlib is missing (``--check`` says only whether it is there: `xgpu bench --plot` asks)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

NO_MATPLOTLIB = 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m xgpu.plot",
        description="Draw the reports of `xgpu bench --json` (roofline, bandwidth curves, "
                    "comparison; PNG and SVG) or the timeline of an XGPU_TRACE file.",
        epilog="Examples:\n"
               "  build/bin/xgpu bench --quick --json b.json && python -m xgpu.plot b.json -o plots\n"
               "  python -m xgpu.plot run1.json run2.json -o plots   several runs, several devices\n"
               "  python -m xgpu.plot --timeline trace.json -o trace.png",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="*", metavar="BENCH.json",
                        help="reports of xgpu bench --json")
    parser.add_argument("-o", "--output", metavar="DIR|FILE",
                        help="the folder of the pictures (default: the current folder); with "
                             "--timeline, the picture's file (default: TRACE with .png)")
    parser.add_argument("--timeline", metavar="TRACE.json",
                        help="draw this XGPU_TRACE file's queues over time instead")
    parser.add_argument("--check", action="store_true",
                        help="only say whether the plotter can run here (exit 0, or 3 without "
                             "matplotlib)")
    return parser


def _no_matplotlib() -> int:
    print(f"xgpu.plot: matplotlib is missing: {sys.executable} -m pip install matplotlib "
          "(or pip install 'xgpu[plot]')", file=sys.stderr)
    return NO_MATPLOTLIB


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.check:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return _no_matplotlib()
        return 0
    from . import ReportError, draw_report, draw_timeline
    try:
        if args.timeline:
            if args.reports:
                print("xgpu.plot: error: --timeline draws one trace; give no bench reports "
                      "with it", file=sys.stderr)
                return 2
            output = Path(args.output) if args.output else Path(args.timeline).with_suffix(".png")
            print(f"wrote {draw_timeline(args.timeline, output)}")
            return 0
        if not args.reports:
            print("xgpu.plot: error: name at least one report of xgpu bench --json (or "
                  "--timeline TRACE.json)", file=sys.stderr)
            return 2
        written, missing = draw_report(args.reports, args.output or ".")
    except ReportError as error:
        print(f"xgpu.plot: error: {error}", file=sys.stderr)
        return 2
    except ImportError as error:  # matplotlib, loaded only to draw
        if error.name and error.name.split(".")[0] == "matplotlib":
            return _no_matplotlib()
        raise
    for line in missing:
        print(f"xgpu.plot: missing: {line}", file=sys.stderr)
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
