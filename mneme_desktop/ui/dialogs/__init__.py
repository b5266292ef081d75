"""ui/dialogs layer."""
