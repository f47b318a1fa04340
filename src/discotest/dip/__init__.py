"""Document-level phenomena mined from real system outputs (Jwalapuram et al. 2020, the DiP benchmark method)."""
