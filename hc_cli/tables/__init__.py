"""Tables: finding, loading and checking the rules tables (schema), readings, house rules,
and the files and folders they are read from."""
