"""The DiP wing: mining, scorers, coherence, ranking."""
