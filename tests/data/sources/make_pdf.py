"""Writes datasheet.pdf, the PDF the source-check tests serve: one page, its text in Helvetica, uncompressed.

Run once from this folder (`python make_pdf.py`); the file is committed, so the tests need nothing but pypdf to read it.
"""

from pathlib import Path

LINES = ("Test Accelerator Datasheet", "Peak memory bandwidth 3.35 TB/s per accelerator")


def pdf() -> bytes:
    text = "BT /F1 14 Tf 72 720 Td 18 TL " + " ".join(f"({line}) Tj T*" for line in LINES) + " ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text.encode()),
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, table)
    return bytes(out)


if __name__ == "__main__":
    Path(__file__).with_name("datasheet.pdf").write_bytes(pdf())
