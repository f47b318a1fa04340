"""Suite families, registered by name (``families.registry``); importing this package registers the built-in ones.

One module per family: its options, its run and compare functions, its suites. README: "Adding a suite"."""

from discotest.families import azpt, contrastive, dip, gender, mt_geneval, winox
from discotest.families.registry import all_suites, compare, families, family_of, register, run, unregister

__all__ = ["all_suites", "azpt", "compare", "contrastive", "dip", "families", "family_of", "gender", "mt_geneval",
           "register", "run", "unregister", "winox"]
