"""Each language's hand-written pronoun cases (``CASES``; ``UNALIGNED``: nothing aligned, the entity named), its
analyser and what that needs; read by ``tests/lang/test_pronoun_readings.py``."""
