"""Forms of the organizer's pages."""
