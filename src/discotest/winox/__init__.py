"""The Wino-X wing (Emelin & Sennrich 2021): does the translation's pronoun for "it" take the gender of the right
antecedent? ``judge`` reads the target pronoun, ``run`` scores a system, ``result`` reports it, ``family`` registers
``winox``. The Wino-X file reader is a floor (``discotest.data.winox``): the contrastive wing reads its MT part."""
