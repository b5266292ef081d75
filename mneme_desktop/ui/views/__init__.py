"""ui/views layer."""
