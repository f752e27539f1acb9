"""PDF/X-1a:2003 for the DriveThruCards export, made by Ghostscript.

DriveThruCards asks for PDF/X-1a in CMYK with a SWOP-type output intent. We
draw the deck in RGB as for every other output, then Ghostscript's pdfwrite
(Debian's `ghostscript` package) converts every colour to DeviceCMYK through
its own SWOP profile, embeds every font, keeps the TrimBox and BleedBox, and
writes the OutputIntent (with the same profile embedded) and
`GTS_PDFXVersion (PDF/X-1a:2003)` that the pdfmark file below asks for. Our
faces use no transparency, and `-dHaveTransparency=false` flattens any that
art brings.

The profile is Ghostscript's `default_cmyk.icc` ("Artifex CMYK SWOP Profile",
Copyright Artifex Software 2011), shipped in Debian under Ghostscript's
AGPL-3+ licence, which lets anyone copy and pass it on: we embed it unchanged
in the PDF, read from the installed package (this repository holds no copy).

SWOP separations of dark colours exceed the 240% total ink DriveThruCards
takes, so every colour and picture is then held to it (pnp.extras.inklimit;
rich black C60 M40 Y40 K100).
"""
from __future__ import annotations

import glob
import io
import shutil
import subprocess
import tempfile
from pathlib import Path

from pnp.errors import PnpError
from pnp.extras.inklimit import limit_ink

PDFX_VERSION = "PDF/X-1a:2003"
PROFILE_GLOB = "/usr/share/ghostscript/*/iccprofiles/default_cmyk.icc"
PROFILE_NAME = "Artifex CMYK SWOP Profile"
OUTPUT_CONDITION = "CGATS TR 001"    # SWOP coated, the condition the profile describes
INK_LIMIT = 2.4                      # 240% total ink, DriveThruCards' maximum
INSTALL = "install Ghostscript (Debian: apt-get install ghostscript; `make test` does it)"


def ghostscript() -> str:
    found = shutil.which("gs")
    if found is None:
        raise PnpError(f"the drivethru export writes PDF/X-1a with Ghostscript, which is not on PATH: {INSTALL}")
    return found


def cmyk_profile() -> Path:
    """Ghostscript's SWOP CMYK profile, checked to be an output profile for CMYK."""
    for name in sorted(glob.glob(PROFILE_GLOB), reverse=True):
        path = Path(name)
        head = path.read_bytes()[:24]
        if head[12:16] == b"prtr" and head[16:20] == b"CMYK":
            return path
    raise PnpError(f"no CMYK profile at {PROFILE_GLOB} for the drivethru export's output intent: {INSTALL}")


def _ps_string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def _pdfmarks(profile: Path, title: str) -> str:
    return f"""% the output intent and document info of a PDF/X-1a:2003 file
[/_objdef {{pnp_profile}} /type /stream /OBJ pdfmark
[{{pnp_profile}} << /N 4 >> /PUT pdfmark
[{{pnp_profile}} {_ps_string(str(profile))} (r) file /PUT pdfmark
[/_objdef {{pnp_intent}} /type /dict /OBJ pdfmark
[{{pnp_intent}} <<
  /Type /OutputIntent /S /GTS_PDFX
  /OutputCondition (SWOP coated paper)
  /OutputConditionIdentifier {_ps_string(OUTPUT_CONDITION)}
  /RegistryName (http://www.color.org)
  /Info {_ps_string(PROFILE_NAME)}
  /DestOutputProfile {{pnp_profile}}
>> /PUT pdfmark
[{{Catalog}} << /OutputIntents [ {{pnp_intent}} ] >> /PUT pdfmark
[ /GTS_PDFXVersion {_ps_string(PDFX_VERSION)} /Title <FEFF{title.encode("utf-16-be").hex().upper()}>
  /Trapped /False /DOCINFO pdfmark
"""


def to_pdfx(pdf: bytes, title: str) -> bytes:
    """The PDF as PDF/X-1a:2003: CMYK within 240% total ink, fonts embedded, the SWOP output intent."""
    with tempfile.TemporaryDirectory(prefix="pnp-pdfx-") as tmp:
        path = Path(tmp) / "in.pdf"
        path.write_bytes(pdf)
        to_pdfx_files([(path, title)], title)
        return path.read_bytes()


def to_pdfx_files(files: list[tuple[Path, str]], title: str, orders: list[list[int]] | None = None) -> None:
    """Each (PDF, its title) made PDF/X-1a:2003 in place, by one Ghostscript
    run over them all (its start-up and profile paid once per export, not
    once per deck): Ghostscript writes their pages into one file, its ink is
    limited once, and it is split back into the files, each with the output
    intent and its own title. With `orders`, each file's pages are its
    distinct faces, one each, and its order lists the pages it is made of
    (a face shown on many pages is converted once, and shared by them)."""
    import pikepdf  # lazy: only this shop needs it here

    gs, profile = ghostscript(), cmyk_profile()
    counts = []
    for path, _ in files:
        with pikepdf.open(path) as pdf:
            counts.append(len(pdf.pages))
    with tempfile.TemporaryDirectory(prefix="pnp-pdfx-") as tmp:
        folder = Path(tmp)
        (folder / "pdfx.ps").write_text(_pdfmarks(profile, title), encoding="ascii")
        command = [gs, "-q", "-dBATCH", "-dNOPAUSE", "-dPDFX", "-sDEVICE=pdfwrite",
                   "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK",
                   "-dHaveTransparency=false", "-dMaxInlineImageSize=0", "-dEmbedAllFonts=true", "-dSubsetFonts=true",
                   f"--permit-file-read={profile}", f"-sOutputICCProfile={profile}",
                   f"-sOutputFile={folder / 'out.pdf'}", str(folder / "pdfx.ps"), *(str(path) for path, _ in files)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        out = folder / "out.pdf"
        if done.returncode != 0 or not out.is_file():
            said = (done.stderr or done.stdout).strip().splitlines()
            raise PnpError(f"Ghostscript could not make the PDF/X-1a file for {title}: "
                           f"{said[-1] if said else f'exit {done.returncode}'}")
        limited = limit_ink(out.read_bytes(), profile, INK_LIMIT)
    if orders is None and len(files) == 1:
        files[0][0].write_bytes(limited)
        return
    _split(limited, files, counts, orders or [list(range(count)) for count in counts])


def _split(pdf: bytes, files: list[tuple[Path, str]], counts: list[int], orders: list[list[int]]) -> None:
    """The converted pages back into their files: each its pages in its order (a page shown twice: two
    page objects sharing one content and its resources), the output intent and its own title."""
    import pikepdf  # lazy: only this shop needs it here

    with pikepdf.open(io.BytesIO(pdf)) as whole:
        if len(whole.pages) != sum(counts):
            raise PnpError(f"internal: Ghostscript wrote {len(whole.pages)} pages, not {sum(counts)}")
        start = 0
        for (path, title), count, order in zip(files, counts, orders):
            part = pikepdf.new()
            copied = [part.copy_foreign(whole.pages[start + n].obj) for n in range(count)]
            start += count
            for n in order:
                page = pikepdf.Dictionary({key: value for key, value in copied[n].items() if key != "/Parent"})
                part.pages.append(pikepdf.Page(part.make_indirect(page)))
            part.Root.OutputIntents = pikepdf.Array([part.copy_foreign(intent) for intent in whole.Root.OutputIntents])
            info = pikepdf.Dictionary({key: pikepdf.String(str(value)) if isinstance(value, pikepdf.String) else value
                                       for key, value in whole.docinfo.items()})
            info.Title = pikepdf.String(title)
            part.docinfo = part.make_indirect(info)
            part.save(path, force_version=whole.pdf_version, deterministic_id=True,
                      object_stream_mode=pikepdf.ObjectStreamMode.disable)
