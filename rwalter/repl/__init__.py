"""repl layer."""
