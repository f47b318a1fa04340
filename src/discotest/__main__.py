"""``python -m discotest``: the command line, without the working directory on the import path.

``python -m`` puts the working directory first on ``sys.path``. discotest imports most libraries on first use (spaCy's
model packages, HanTa, pymorphy3's dictionaries, jieba, Transformers), so a folder or ``.py`` file of one of those
names in the directory it is run from would be imported, and run, in place of the installed one. The ``discotest``
script and ``python -P`` never put it there."""

import os
import sys

if not sys.flags.safe_path and sys.path and os.path.abspath(sys.path[0] or os.curdir) == os.getcwd():
    del sys.path[0]

from discotest.cli import command  # noqa: E402 - after the working directory has left sys.path

command()
