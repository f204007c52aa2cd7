"""The plugin API: how a rule set declares its commands, the registry that finds them, the
game rules a rule set keeps, and running one declared command (execute)."""
