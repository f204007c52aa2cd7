"""Renderers: one `Resolution` drawn as JSON, plain text, or a rich colour breakdown.

Only `hc_cli.render.rich_text` imports rich, and only when colour is wanted: piped output and
`--json` never pay for it.
"""
