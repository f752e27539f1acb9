"""Sheet geometry, in millimetres, for every preset on every paper."""
import itertools

import pytest

from pnp.layout.marks import cut_marks, place_labels
from pnp.layout.sheets import PRINTER_MARGIN, mirror, plan_deck
from pnp.model import CARD_PRESETS, PAPERS, Flip, Layout

CASES = list(itertools.product(CARD_PRESETS.values(), PAPERS.values(), Layout, Flip))


def overlaps(seg, box, eps=0.01):
    x0, y0, x1, y1 = seg
    bx0, by0, bx1, by1 = box
    sx0, sx1 = sorted((x0, x1))
    sy0, sy1 = sorted((y0, y1))
    return sx1 > bx0 + eps and sx0 < bx1 - eps and sy1 > by0 + eps and sy0 < by1 - eps


@pytest.mark.parametrize("card,paper,layout,flip", CASES, ids=lambda v: getattr(v, "name", getattr(v, "value", v)))
def test_every_card_stays_inside_the_printable_area_and_marks_stay_outside(card, paper, layout, flip):
    plan = plan_deck(20, card, paper, layout, flip)
    W, H = plan.paper.width, plan.paper.height
    for p in plan.fronts + plan.backs:
        x0, y0, x1, y1 = p.slot.trim
        assert x0 >= PRINTER_MARGIN - 1e-6 and y0 >= PRINTER_MARGIN - 1e-6
        assert x1 <= W - PRINTER_MARGIN + 1e-6 and y1 <= H - PRINTER_MARGIN + 1e-6
        assert round(x1 - x0, 6) == card.width and round(y1 - y0, 6) == card.height
        c = p.slot.clip
        assert c[0] <= x0 and c[1] <= y0 and c[2] >= x1 and c[3] >= y1  # bleed only adds
        assert max(x0 - c[0], y0 - c[1], c[2] - x1, c[3] - y1) <= 3.0 + 1e-9
    for sheet in plan.sheets:
        on_sheet = [p.slot.trim for p in plan.fronts + plan.backs if p.page == sheet.page]
        for seg in cut_marks(sheet, plan.paper):
            for trim in on_sheet:
                assert not overlaps(seg, trim), f"cut mark {seg} enters card {trim}"
        for label in place_labels(sheet, plan.paper, [("bar", 56), ("note", 60)]):
            if label.angle == 0:
                box = (label.x, label.y, label.x + label.length, label.y + 3.4)
            else:
                box = (label.x - 3.4, label.y, label.x, label.y + label.length)
            for trim in on_sheet:
                assert not overlaps(box, trim), f"{label.kind} label {box} covers card {trim}"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_three_by_three_poker_cards_centred(paper):
    plan = plan_deck(9, CARD_PRESETS["poker"], PAPERS[paper], Layout.DUPLEX, Flip.LONG)
    assert plan.per_page == 9 and plan.pages == 2
    xs = [p.slot.trim[0] for p in plan.fronts] + [p.slot.trim[2] for p in plan.fronts]
    ys = [p.slot.trim[1] for p in plan.fronts] + [p.slot.trim[3] for p in plan.fronts]
    assert min(xs) == pytest.approx(plan.paper.width - max(xs))
    assert min(ys) == pytest.approx(plan.paper.height - max(ys))


@pytest.mark.parametrize("flip", list(Flip))
def test_duplex_backs_land_behind_fronts(flip):
    paper = PAPERS["a4"]
    plan = plan_deck(9, CARD_PRESETS["poker"], paper, Layout.DUPLEX, flip)
    for front, back in zip(plan.fronts, plan.backs):
        assert back.page == front.page + 1
        fx0, fy0, fx1, fy1 = front.slot.trim
        bx0, by0, bx1, by1 = back.slot.trim
        if flip is Flip.LONG:  # portrait sheet turned over its long (vertical) edge
            assert (bx0, by0, bx1, by1) == pytest.approx((paper.width - fx1, fy0, paper.width - fx0, fy1))
        else:
            assert (bx0, by0, bx1, by1) == pytest.approx((fx0, paper.height - fy1, fx1, paper.height - fy0))


def test_mirror_is_its_own_inverse():
    paper = PAPERS["letter"]
    box = (10.0, 20.0, 73.5, 108.9)
    for flip in Flip:
        assert mirror(mirror(box, paper, flip), paper, flip) == pytest.approx(box)


def test_gutterfold_backs_fold_onto_fronts():
    plan = plan_deck(10, CARD_PRESETS["poker"], PAPERS["a4"], Layout.GUTTERFOLD, Flip.LONG)
    sheet = plan.sheets[0]
    for front, back in zip(plan.fronts, plan.backs):
        assert front.page == back.page and back.slot.rotate == 180
        fx0, fy0, fx1, fy1 = front.slot.trim
        bx0, by0, bx1, by1 = back.slot.trim
        assert (bx0, bx1) == pytest.approx((fx0, fx1))
        # folding along the fold line maps one box onto the other
        assert (2 * sheet.fold_y - fy1, 2 * sheet.fold_y - fy0) == pytest.approx((by0, by1))


def test_card_too_big_for_the_paper_is_refused():
    from pnp.errors import PnpError
    from pnp.model import Size

    with pytest.raises(PnpError, match="does not fit"):
        plan_deck(1, Size(250, 350), PAPERS["a4"], Layout.DUPLEX, Flip.LONG)
