"""Served language models."""
