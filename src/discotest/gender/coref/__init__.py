"""English coreference for the suites: which entity does the pronoun refer to?

Resolvers (a rule-based one on spaCy's parse, offline; neuralcoref 4.0 in its own Python 3.7 environment; an
adapter for fastcoref/LingMess models) and
MT systems (through the clusters their translations imply) are scored on the same items.
"""

# the source-side resolvers a user can name (coref, augment, --markers predicted)
RESOLVERS = ("rules", "neuralcoref", "fastcoref")
