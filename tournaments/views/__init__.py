"""Thin views: forms validate, services change state, templates show."""
