"""The command line: the entry point, the argv walkers (direct, typer), help, TAB
completion and what each command prints."""
