"""Each language's hand-written gender cases (``CASES``: sentence, the words aligned to the entity, the gender
the *translation* gives it), its analyser and what that needs; read by ``tests/lang/test_morph_readings.py``."""
