"""MT-GenEval (Currey et al. 2022): gender accuracy against the two gendered references, and a reference-free
reading of the translation.

``suite`` reads the sets, ``judge`` decides an item from the references' own words, ``reference_free`` reads the
person's gender from the translation (alignment model trained on the references), ``run`` runs a system,
``result`` reports it and ``family`` registers ``mt-geneval``.
"""
