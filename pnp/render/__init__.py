"""Stage 4, render: drawing faces, deck sheets, boards and rule sheets with
ReportLab into PDF bytes (points only here); fonts, QR codes, the ink-saver
look."""
