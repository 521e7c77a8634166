"""Typed values shared across the layers (DESIGN §1): statuses now, more as they move here."""
