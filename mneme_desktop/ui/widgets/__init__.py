"""ui/widgets layer."""
