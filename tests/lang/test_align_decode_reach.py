"""Issue 55 item 5: ``--align-decode`` reaches every wing that aligns with a trained model (the gender suites,
MiTTenS, MT-GenEval, mZPRT), one shared declaration, and a decode other than Thot's is named in the signature."""

from __future__ import annotations

import pytest

from discotest import families
from discotest.errors import InputError
from discotest.registry import options as shared
from discotest.zero_pronoun.run import run_mzprt
from tests.zero_pronoun.test_pipeline import GOOD, _hyp, tiny  # noqa: F401 (tiny: the fixture)


def test_every_wing_aligning_with_a_model_declares_the_shared_option():
    taking = {f.name for f in families.families() if any(o is shared.ALIGN_DECODE for o in f.options)}
    assert taking >= {"gender", "mittens", "mt-geneval", "zero-pronoun"}
    for family in families.families():  # none declares an --align-decode of its own
        assert all(o is shared.ALIGN_DECODE for o in family.options if o.name == "align_decode"), family.name


@pytest.mark.parametrize("decoder", ["fast", "checked"])
def test_mzprt_decodes_its_model_as_asked_and_names_it(tiny, tmp_path, decoder):  # noqa: F811
    hyp = _hyp(tmp_path, "good.en", GOOD)
    default, = run_mzprt(["QA"], inputs=[hyp], data_dir=tiny, extra="none", aligner="default")
    other, = run_mzprt(["QA"], inputs=[hyp], data_dir=tiny, extra="none", aligner="default", align_decode=decoder)
    aligner = dict(other.signature.fields)["aligner"]
    assert "+fast-decode" in aligner and "fast-decode" not in dict(default.signature.fields)["aligner"]
    assert ("-thot-below-" in aligner) == (decoder == "checked")
    again, = run_mzprt(["QA"], inputs=[hyp], data_dir=tiny, extra="none", aligner="default", align_decode=decoder,
                       use_cache=False)
    assert again.signature == other.signature and again.scores == other.scores


def test_a_fast_decode_of_a_model_without_tables_is_refused(tiny, tmp_path):  # noqa: F811
    with pytest.raises(InputError, match="fast decoder"):
        run_mzprt(["QA"], inputs=[_hyp(tmp_path, "good.en", GOOD)], data_dir=tiny, extra="none", aligner="thot-hmm",
                  align_decode="fast")


def test_the_gender_pipeline_watches_the_entity_the_pronoun_and_the_distractor():
    """``Bitext.watched``: the English words whose links ``evaluate_gender`` reads (what ``checked`` makes sure of)."""
    from discotest.gender.pipeline import Bitext
    from discotest.gender.winomt import GenderItem

    items = [GenderItem(0, "female", 1, "The developer argued with the designer because she did not like the design.",
                        "developer"),
             GenderItem(1, "male", 4, "The nurse helped the construction worker .", "construction worker")]
    bitext = Bitext(items, {0: "Die Entwicklerin stritt mit dem Designer.", 1: "Die Pflegerin half dem Bauarbeiter."},
                    "de")
    words = [[t.text for t in src] for src in bitext.src_tokens]
    first, second = bitext.watched
    assert {words[0][k] for k in first} == {"developer", "designer", "she"}
    assert {words[1][k] for k in second} >= {"construction", "worker"} and "helped" not in {words[1][k] for k in second}
