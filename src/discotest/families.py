"""Suite families, registered by name (``registry``); importing this package registers the built-in ones.

One module per family: its options, its run and compare functions, its suites. docs/contributing/adding-a-suite.md."""

from discotest.contrastive import family as contrastive
from discotest.dip import family as dip
from discotest.gender import family as gender
from discotest.gender.mittens import family as mittens
from discotest.gender.mt_geneval import family as mt_geneval
from discotest.registry import (
    Phased,
    all_suites,
    answered,
    ask,
    compare_settings,
    families,
    family_of,
    has_phases,
    packed,
    prepare_settings,
    register,
    run_settings,
    scored,
    settings_for,
    unpacked,
    unregister,
)
from discotest.winox import family as winox
from discotest.zero_pronoun import family as zero_pronoun

__all__ = ["Phased", "all_suites", "answered", "ask", "compare_settings", "contrastive", "dip", "families",
           "family_of", "gender", "has_phases", "mittens", "mt_geneval", "packed", "prepare_settings",
           "register", "run_settings", "scored", "settings_for", "unpacked", "unregister", "winox", "zero_pronoun"]
