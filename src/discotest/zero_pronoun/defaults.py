"""The AZPT judge's window and reach defaults, apart from the judge: the family declares its options with them when
the command line is built, so any ``discotest`` command lists them without importing ``judge.py``."""

# words beyond the window searched for an unclaimed rendering (our extension, --reach 3 measured +1
# point recall / +0.4 false positives on the authors' marked references); 0 = the paper's rule only
DEFAULT_REACH = 0
# candidate words on each side of an aligned word: the paper's ±1 (--window)
DEFAULT_WINDOW = 1
