"""The bundled rule sets. Each is a package with a `declaration.py` (its commands, registered
under the `hc.rulesets` entry-point group like any third-party rule set) and a `commands.py`
(its tables and resolvers), plus its `rules_data/<name>/` folder."""
