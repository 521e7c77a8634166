"""The queue-depth sweep's knee in words and on its figure: the one knee, with its rule said
once (the tail-latency section refers to it), and the peak and 90 %-of-peak points named for
what they are (app/stats/knee.py). A ratio between the knee and the peak is stated only when it
is larger than the repetitions' noise (app/experiments/common.py, ``versus``)."""
from __future__ import annotations

from app.experiments.common import stat_text, versus
from app.model.summary import WorkloadSummary
from app.results.figure import Marker, fmt, mean
from app.stats.derived import Knee
from app.units import ratio


def knee_words(knee: Knee, k: WorkloadSummary | None, p: WorkloadSummary | None) -> str:
    """:func:`knee_sentence` for the report: the rows' mean ± std at 3 significant digits, and
    what going on from the knee to the peak costs."""
    if k is None or p is None:
        return knee_sentence(knee)
    rule = f" ({knee.rule})" if knee.rule else ""
    head = (f"Knee at QD{knee.knee_level}: {stat_text(k.total_iops)} IOPS at "
            f"{stat_text(k.lat('mean'), 'µs')} mean latency{rule}." if knee.reached else
            f"No knee within the sweep: IOPS still grew at QD{knee.knee_level}, the deepest "
            f"level{rule}.")
    text = (head + f" Also marked, and not knees: the peak, {stat_text(p.total_iops)} IOPS at "
            f"QD{knee.peak_level}, and the first depth reaching 90 % of the peak, QD{knee.p90_level}.")
    if knee.reached and p is not k and k.total_iops.mean and mean(k.lat("mean")):
        gain = (p.total_iops.mean or 0) / k.total_iops.mean
        lat = (mean(p.lat("mean")) or 0) / (mean(k.lat("mean")) or 1)
        more = versus(k.total_iops, p.total_iops, f"it buys {ratio(gain)} the IOPS", "IOPS")
        slower = versus(k.lat("mean"), p.lat("mean"), f"it costs {ratio(lat)} the latency",
                        "latency")
        text += f" Going on from the knee to the peak: {more}; {slower}."
    return text


def knee_sentence(knee: Knee) -> str:
    """The one knee, its rule, and the peak and 90 %-of-peak points named for what they are."""
    if knee.reached:
        head = (f"Knee at QD{knee.knee_level}: {fmt(knee.knee_iops)} IOPS at "
                f"{fmt(knee.knee_lat_us, 1)} µs mean latency ({knee.rule or 'see the method'}).")
    else:
        head = (f"No knee within the sweep: IOPS still grew at QD{knee.knee_level}, the deepest "
                f"level ({knee.rule or 'see the method'}).")
    peak = f" ({fmt(knee.peak_lat_us, 1)} µs mean latency)" if knee.peak_lat_us else ""
    return (head + f" Also marked, and not knees: the peak, {fmt(knee.peak_iops)} IOPS at "
            f"QD{knee.peak_level}{peak}, and the first depth reaching 90 % of the peak, "
            f"QD{knee.p90_level}.")


def knee_markers(knee: Knee | None, pts: list[tuple[float, float, str]]) -> list[Marker]:
    """The knee (the one the findings name), then the peak and the first level reaching 90 %
    of it, each labelled as what it is; points that coincide share one marker."""
    if knee is None:
        return []
    names: dict[int, list[str]] = {}
    for level, name in ((knee.knee_level, "knee" if knee.reached else "deepest, no knee"),
                        (knee.p90_level, "90 % of peak"),
                        (knee.peak_level, "peak")):
        names.setdefault(level, []).append(name)
    lat = {p[2]: (p[0], p[1]) for p in pts}
    markers = []
    for level, said in names.items():
        if f"QD{level}" in lat:
            x, y = lat[f"QD{level}"]
            markers.append(Marker(x, y, f"{' = '.join(said)}: QD{level}"))
    return markers
