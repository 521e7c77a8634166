"""A figure's panels share one latency unit, chosen from the largest value drawn: a student's
zero-queue figure showed its 4 KiB panel in ms (0.932) beside its 128 KiB panel in µs (203), and
a reader comparing the bars was off by 1000x. No Qt: the figure's description is enough."""
import synthetic
from synthetic import row


def test_zero_queue_panels_share_the_unit_of_the_largest_value():
    # the student's means; the 4 KiB read's spread (a VM's outliers) passes 10,000 µs
    rows = [row("randread", 4096, 1, 1e3, {"mean": 932}, spread=11),
            row("randwrite", 4096, 1, 8e3, {"mean": 114}),
            row("read", 131072, 1, 5e3, {"mean": 203}),
            row("write", 131072, 1, 5e3, {"mean": 172})]
    (fig,) = synthetic._figures("zero-queue", rows)
    assert [p.title for p in fig.panels] == ["4 KiB random", "128 KiB sequential"]
    assert all("(ms," in p.y_axis.label for p in fig.panels)
    small, large = fig.panels
    assert [round(s.y[0], 3) for s in small.series] == [0.932, 0.114]
    assert [round(s.y[0], 3) for s in large.series] == [0.203, 0.172]


def test_small_values_stay_in_microseconds_in_every_panel():
    (fig,) = synthetic.zero_queue()
    assert all("(µs," in p.y_axis.label for p in fig.panels)
