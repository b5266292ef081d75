"""ui/models layer."""
