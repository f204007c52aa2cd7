"""The command line: the entry point, the typer (click) commands built from the declarations,
TAB completion and what each command prints."""
