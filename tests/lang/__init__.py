"""The language floor: tokenising, alignment, locating entities, morphology and pronoun readings per language."""
