"""MiTTenS (Robinson et al. 2024): gender mistranslation into English from 26 languages and out of English.

``suite`` reads the CSV, ``english`` reads the person's gender from an English text (into English: the
translation; out of English: the source, for the anchors), ``free`` reads it from a translation out of English
with the aligner and the gender analysers, ``run`` runs a system, ``result`` reports it and ``family`` registers
``mittens`` (into English) and ``mittens-out`` (out of English).
"""
