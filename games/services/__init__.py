"""Every change of a protocol: under ``transaction.atomic``, with a row lock and a version check."""
