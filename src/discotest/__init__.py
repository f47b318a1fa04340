"""discotest: does a translation system get discourse right? Per phenomenon, with evidence per item."""

from discotest.api import run, run_many
from discotest.errors import InputError


def run_mzprt(*args, **kwargs):
    """AZPT on mZPRT (see ``discotest.pipelines.azpt.run_mzprt``); imported on use (needs jieba)."""
    from discotest.pipelines.azpt import run_mzprt as _run_mzprt

    return _run_mzprt(*args, **kwargs)


def compare_mzprt(*args, **kwargs):
    """Two hypothesis files on one mZPRT domain with significance tests (``discotest.pipelines.azpt_compare``)."""
    from discotest.pipelines.azpt_compare import compare_mzprt as _compare_mzprt

    return _compare_mzprt(*args, **kwargs)


__all__ = ["run", "run_many", "run_mzprt", "compare_mzprt", "InputError"]
__version__ = "0.1.0"
