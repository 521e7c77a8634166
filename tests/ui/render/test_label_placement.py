"""Label placement as pure geometry (ui/render/placement.py): no Qt, pixels, y down."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ui.render.placement import Box, Boxes, leader_end, needs_leader, place, point_box, segment_boxes

PLOT = Box(0, 0, 800, 500)


def test_a_free_label_sits_next_to_its_point_up_and_right_first():
    box = place((400, 250), (80, 20), PLOT, [point_box(400, 250, 10)], [])
    assert box.overlap(point_box(400, 250, 10)) == 0
    assert box.x0 >= 400 and box.distance(400, 250) <= 10


def test_the_knee_label_does_not_hide_the_neighbouring_points():
    """QD1..QD4 close together, the knee at QD4: the label goes where no point is."""
    points = [point_box(x, y, 12) for x, y in ((100, 400), (112, 380), (124, 340), (300, 150))]
    segments = [b for a, c in zip(((100, 400), (112, 380), (124, 340)),
                                  ((112, 380), (124, 340), (300, 150)))
                for b in segment_boxes(a, c, 4)]
    box = place((124, 340), (260, 22), PLOT, points + segments, [])
    assert all(box.overlap(p) == 0 for p in points + segments)
    assert box.within(PLOT)


def test_a_label_near_the_edge_is_kept_inside():
    """'ee: QD4': a label left of a point at the left edge once ran out of the plot."""
    for anchor in ((3, 250), (797, 250), (400, 2), (400, 498), (2, 2)):
        box = place(anchor, (200, 24), PLOT, [point_box(*anchor, 12)], [])
        assert box.within(PLOT), anchor
        assert box.overlap(point_box(*anchor, 12)) == 0, anchor


def test_labels_avoid_each_other_and_bar_labels_climb():
    first = place((400, 300), (60, 20), PLOT, [], [], mode="above")
    assert first.y1 <= 300 and abs(first.center[0] - 400) < 1
    second = place((410, 300), (60, 20), PLOT, [], [first], mode="above")
    assert second.overlap(first) == 0


def test_a_vertical_line_label_sits_beside_the_line_clear_of_the_data():
    line = Box(399, 0, 401, 500)
    data = [point_box(420, y, 10) for y in range(0, 200, 10)]
    box = place((400, 0), (150, 20), PLOT, data + [line], [], mode="line")
    assert box.overlap(line) == 0 and all(box.overlap(d) == 0 for d in data)


def test_a_label_larger_than_the_plot_is_centred_on_its_anchor():
    box = place((400, 250), (900, 20), PLOT, [], [])
    assert box.center == (400, 250)


def test_leader_lines():
    box = Box(200, 100, 300, 120)
    assert needs_leader(box, (100, 110), 6) and not needs_leader(box, (195, 110), 6)
    assert leader_end(box, (100, 200)) == (200, 120)


@given(st.lists(st.tuples(st.floats(0, 800), st.floats(0, 500)), min_size=1, max_size=30),
       st.floats(20, 300), st.floats(10, 60), st.sampled_from(["around", "above", "line"]))
def test_a_label_always_lies_inside_the_plot(points, w, h, mode):
    obstacles = [point_box(x, y, 10) for x, y in points]
    box = place(points[0], (w, h), PLOT, obstacles, [], mode=mode)
    assert box.within(PLOT) and abs(box.w - w) < 1e-6 and abs(box.h - h) < 1e-6


_coordinate = st.floats(-50, 850, allow_nan=False)


@given(st.lists(st.tuples(_coordinate, _coordinate, st.floats(0, 80), st.floats(0, 80)),
                max_size=40), st.tuples(_coordinate, _coordinate, st.floats(1, 300), st.floats(1, 60)))
def test_boxes_cover_exactly_what_box_overlap_sums(obstacles, candidate):
    """The numpy sum over all obstacles is the one-by-one sum to the last bit, so a label goes
    exactly where it went before."""
    boxes = [Box(x, y, x + w, y + h) for x, y, w, h in obstacles]
    x, y, w, h = candidate
    box = Box(x, y, x + w, y + h)
    assert Boxes(boxes).covered(box) == sum(box.overlap(o) for o in boxes)
    assert Boxes([*boxes, Box(float("nan"), 0, 10, 10)]).covered(box) == sum(
        box.overlap(o) for o in [*boxes, Box(float("nan"), 0, 10, 10)])
