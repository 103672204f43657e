"""meta layer."""
