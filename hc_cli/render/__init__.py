"""Renderers: one `Resolution` (or a report) drawn as JSON, plain text, or colour.

`json_text` writes JSON with the standard library and `wrap` breaks plain lines: neither
imports rich. `draw`, `text`, `tables` and `reports` draw through rich (Text, Table, Console),
and are imported only to draw text: `--json` never pays for rich.
"""
