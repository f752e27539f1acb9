"""Colour-blindness arithmetic against published numbers."""
import pytest

from pnp.sources import colourblind as cb

# Rows of Sharma, Wu & Dalal (2005), Table 1: Lab1, Lab2, ΔE00.
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
    ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),
]


@pytest.mark.parametrize("lab1,lab2,expected", SHARMA)
def test_ciede2000_matches_sharma_table(lab1, lab2, expected):
    assert cb.ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert cb.ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_pure_red_under_deuteranopia_is_machados_first_column():
    assert cb.simulate_linear((1.0, 0.0, 0.0), "deutan") == pytest.approx(
        (0.367322, 0.280085, -0.011820))
    # Red and green that normal eyes tell apart at once fall together for a deutan.
    red, green = cb.hex_rgb("#cc3333"), cb.hex_rgb("#669900")
    assert cb.delta_e(red, green) > 40
    assert cb.delta_e(red, green, "deutan") < cb.delta_e(red, green) / 3


def test_white_stays_white_and_grey_is_luminance():
    for kind in cb.SIMULATIONS:
        assert cb.simulate((1.0, 1.0, 1.0), kind) == pytest.approx((1.0, 1.0, 1.0), abs=2e-3)
    assert cb.lab((1.0, 1.0, 1.0)) == pytest.approx((100.0, 0.0, 0.0), abs=1e-2)
    g = cb.simulate((0.0, 1.0, 0.0), "grey")
    assert g[0] == g[1] == g[2] == pytest.approx(cb.to_srgb(0.7152))
