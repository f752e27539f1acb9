"""Millimetres to points: used only at the ReportLab boundary."""

MM = 72.0 / 25.4


def pt(mm: float) -> float:
    return mm * MM


def mm(points: float) -> float:
    return points / MM
