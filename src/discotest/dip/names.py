"""DiP's phenomenon and anaphora-mode names, apart from the code that mines and scores them: the family declares its
options with these when the command line is built, so any ``discotest`` command can list them without importing
the miner and scorer (``mine.py``, ``run.py``)."""

from __future__ import annotations

from discotest.values import subset_option

PHENOMENA = ("lexical", "connectives", "anaphora", "coherence")
# --phenomena a,b: the one check of a subset (the CLI, the API and the functions below), in PHENOMENA's order
CHECK_PHENOMENA = subset_option("phenomena", PHENOMENA)
ANAPHORA_MODES = ("swap", "system")
# swap by default: a sentence score of a whole system sentence follows its wording and length more than its pronoun.
# WMT22 de-en, offline scorer (not trained on that pair): the reference beats the system on 44.5% of the 438
# differing items in "system" mode, which ranked LT22 (BLEU 26.0) best; in "swap" mode 63.2%, LT22 last.
DEFAULT_ANAPHORA_MODE = "swap"
