"""slc-cache against an emulated SLC cliff whose truth is known (docs/architecture.md, findings).

Run as root on Linux. A loop device with ext4, its image in RAM, is throttled by the block cgroup
to ``--before`` MB/s of writes; a watcher switches the throttle to ``--after`` MB/s once
``--cliff`` MB have reached the device (tests/throttle_support.py). The app's CLI runs the real
slc-cache experiment in that cgroup ``--runs`` times, each on a fresh device, and each run's
finding is compared with the truth: where the cliff is (GB written before the drop, against the
bytes the device had written when the throttle switched) and the rate after it.

Prints per run: the located cliff with its stated ±, its error against the switch point, the
rates before and after with their errors, and how many intervals the step spread over; then
whether every run is within ``--tolerance`` (3 %) of both truths.

    sudo .venv/bin/python benchmarks/slc_cliff.py [--runs 5] [--before 100] [--cliff 400]
        [--after 20] [--runtime 10] [--interval 1]
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from throttle_support import cliff_run, unavailable  # noqa: E402

MB = 1_000_000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--before", type=float, default=100, help="MB/s until the cliff")
    ap.add_argument("--cliff", type=float, default=400, help="MB written before the cliff")
    ap.add_argument("--after", type=float, default=20, help="MB/s after the cliff")
    ap.add_argument("--runtime", type=float, default=10, help="slc-cache runtime (s)")
    ap.add_argument("--interval", type=float, default=1, help="live sample interval (s)")
    ap.add_argument("--tolerance", type=float, default=0.03)
    ap.add_argument("--keep", type=Path, help="copy each run's folder here (samples, raw fio output)")
    args = ap.parse_args()
    if why := unavailable():
        print(why, file=sys.stderr)
        return 2
    before, at, after = int(args.before * MB), int(args.cliff * MB), int(args.after * MB)
    print(f"emulated cliff: {args.before:g} MB/s until {args.cliff:g} MB written, then "
          f"{args.after:g} MB/s; slc-cache {args.runtime:g} s at {args.interval:g} s intervals; "
          f"load average {os.getloadavg()[0]:.1f}")
    ok = []
    with tempfile.TemporaryDirectory(prefix="slc-cliff-") as tmp:
        for k in range(args.runs):
            r = cliff_run(Path(tmp) / f"run{k}", before, at, after, args.runtime, args.interval)
            if args.keep:
                shutil.copytree(r.run_dir, args.keep / f"run{k + 1}", dirs_exist_ok=True)
            f, ce, ae = r.finding, r.cliff_error(), r.after_error(after)
            if ce is None or ae is None:
                print(f"run {k + 1}: no drop found: {f['note']}")
                ok.append(False)
                continue
            ok.append(abs(ce) <= args.tolerance and abs(ae) <= args.tolerance)
            step = r.device_step
            device = ("" if step is None else
                      f"; the device's own step {step[0] / MB:.1f} MB ({r.cliff_error(step[0]):+.2%}), "
                      f"{step[1] / MB:.2f} -> {step[2] / MB:.2f} MB/s")
            print(f"run {k + 1}: found {f['gb_before_drop'] * 1000:.1f} ± "
                  f"{f['gb_resolution'] * 1000:.1f} MB ({ce:+.2%} of {args.cliff:g}) at "
                  f"{f['t_drop_s']:.2f} ± {f['t_resolution_s']:.2f} s; before "
                  f"{f['MBps_before']:.2f} MB/s ({f['MBps_before'] * MB / before - 1:+.2%}), after "
                  f"{f['MBps_after']:.2f} MB/s ({ae:+.2%}); {f['transitional_intervals']} "
                  f"transitional interval(s); switch fired at {r.switched_bytes / MB:.1f} MB"
                  f"{device}; wall {r.wall_s:.0f} s")
    print(f"within {args.tolerance:.0%} of the cliff and of the after-rate: {sum(ok)} of {len(ok)}")
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
