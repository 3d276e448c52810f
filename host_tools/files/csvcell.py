"""CSV cells a spreadsheet will not run: a text cell that begins with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return is read as a formula by Excel, LibreOffice and Google
Sheets (OWASP, "CSV Injection"), so it is written with a leading apostrophe, which those
programs show as plain text. Numbers are written as they are."""

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """``value`` safe for a CSV cell: a str starting like a formula gets a leading ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def row(values):
    """Every cell of ``values`` through :func:`cell` (a list)."""
    return [cell(v) for v in values]
