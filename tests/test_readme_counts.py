"""The test counts docs/testing.md states ("about N of M") are the suite's, within 3 %.
(They stood in the README until the docs became a site.)"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


def _collected(*marks: str) -> int:
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *marks],
                         cwd=ROOT, capture_output=True, text=True, check=False).stdout
    found = re.search(r"(\d+)(?:/(\d+))? tests? collected", out)
    assert found, out[-2000:]
    return int(found.group(1))


def test_the_documented_test_counts_match_the_suite():
    said = re.search(r"The fast layer of the tests, about ([\d,]+) of ([\d,]+)", (ROOT / "docs" / "testing.md").read_text())
    assert said, "docs/testing.md no longer states the test counts"
    fast, total = (int(n.replace(",", "")) for n in said.groups())
    assert abs(_collected() - total) <= 0.03 * total
    assert abs(_collected("-m", "not slow and not pdf") - fast) <= 0.03 * fast
