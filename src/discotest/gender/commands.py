"""The options of the gender wing's own commands (``translate``, ``augment``, ``finetune``, ``coref``, ``validate``),
declared once as data: ``cli/`` builds each command's flags from them and ``api`` checks its keywords against them
(``checked_settings``), so a name, type, choice or default is written here and nowhere else."""

from __future__ import annotations

from discotest.gender.coref import RESOLVERS
from discotest.gender.family import MODEL_OPTIONS, SUITE_VERSION
from discotest.registry import Option
from discotest.registry import options as shared
from discotest.stats import DEFAULT_SEED
from discotest.values import float_option, int_option

# -- translate ----------------------------------------------------------------------------------------------------
# --suite and --input: one of the two (the command line's mutually exclusive group; the API says so in one line)
TRANSLATE_SUITE = Option("suite", ("--suite",), "gender suite to translate (winomt, winomt-demo, winomt-adj, bug)")
TRANSLATE_INPUT = Option("input", ("--input", "-i"), "English text file, one sentence per line ('-': stdin)")
TRANSLATE_WHAT = (TRANSLATE_SUITE, TRANSLATE_INPUT)
TRANSLATE_LANG = Option("lang", ("--lang", "-l"), "target language", required=True)
TRANSLATE_MODEL = Option("model", ("--model", "-m"), "Hugging Face seq2seq (Marian, M2M100, mBART-50, NLLB), "
                         "decoder-only LLM or CTranslate2 model", metavar="NAME_OR_PATH")
TRANSLATE_OUTPUT = Option("output", ("--output", "-o"),
                          "translations, one per line (what run --input reads); '-': stdout", required=True)
TRANSLATE_BATCH_SIZE = Option("batch_size", ("--batch-size",), "sentences per batch", default=16,
                              type=int_option("batch-size"))
TRANSLATE_OPTIONS = (
    *TRANSLATE_WHAT, TRANSLATE_LANG, TRANSLATE_MODEL, TRANSLATE_OUTPUT, SUITE_VERSION, TRANSLATE_BATCH_SIZE,
    shared.DEVICE, shared.USE_CACHE,
    *(o for o in MODEL_OPTIONS if o.name not in ("batch_size", "device")),
    *shared.ENGINE_OPTIONS, shared.RAY_ACTORS,  # --engine ray: generated on an actor pool
    shared.CONTEXT, shared.DATA_DIR, shared.QUIET,
)

# -- augment ------------------------------------------------------------------------------------------------------
AUGMENT_OPTIONS = (
    Option("input", ("--input", "-i"), "English side (or a TSV: English<TAB>target)", required=True),
    Option("target", ("--target", "-t"), "target side, line-parallel to --input (omit for a TSV)"),
    Option("select", ("--select",), "coref: a non-singleton cluster; gender: one holding he/she/him/her/his/hers",
           default="coref", choices=("coref", "gender")),
    Option("markers", ("--markers",), "mark the clusters inline: <ENT1> it </ENT1>", default=False,
           action="store_true"),
    Option("resolver", ("--resolver",), None, default="rules", choices=RESOLVERS),
    Option("output", ("--output", "-o"), "JSONL of selected pairs", required=True),
    Option("summary", ("--summary",), "the counts as JSON (default: OUTPUT.summary.json)"),
    Option("chunk_size", ("--chunk-size",), "lines per resolver batch", default=1000, type=int_option("chunk-size")),
    shared.QUIET,
)

# -- finetune -----------------------------------------------------------------------------------------------------
FINETUNE_OPTIONS = (
    Option("model", ("--model", "-m"), "Marian (Opus-MT) model directory or hub name", required=True),
    Option("data", ("--data",), "JSONL from `discotest augment`", required=True),
    Option("output", ("--output", "-o"), "directory for the fine-tuned model", required=True),
    Option("steps", ("--steps",), None, default=1000, type=int_option("steps")),
    Option("batch_size", ("--batch-size",), None, default=16, type=int_option("batch-size")),
    Option("lr", ("--lr",), None, default=5e-5, type=float_option("lr")),
    Option("max_length", ("--max-length",), None, default=128, type=int_option("max-length")),
    Option("markers", ("--no-markers",), "do not add <ENTk> tokens", default=True, action="store_false"),
    Option("device", ("--device",), None, default="cpu"),
    Option("seed", ("--seed",), None, default=1, type=int_option("seed")),
    shared.REVISION,
    shared.QUIET,
)

# -- coref --------------------------------------------------------------------------------------------------------
COREF_OPTIONS = (
    Option("resolver", ("--resolver",), "source-side resolvers (default: rules)", default=[], choices=RESOLVERS,
           action="append"),
    Option("lang", ("--lang", "-l"), "also score MT systems in these languages (comma-separated or 'all')", many=True),
    Option("system", ("--system", "-s"), "published systems for --lang (default all)", default="all", many=True),
    SUITE_VERSION,
    Option("jobs", ("--jobs", "-j"), None, type=int_option("jobs")),
    shared.DATA_DIR, shared.QUIET,
)

# -- validate sample | score ----------------------------------------------------------------------------------------
VALIDATE_SAMPLE_OPTIONS = (
    Option("suite", ("--suite",), None, default="winomt"),
    Option("lang", ("--lang", "-l"), "language(s), comma-separated, or 'all'", required=True, many=True),
    Option("system", ("--system", "-s"), "published system(s), comma-separated, or 'all'", many=True),
    Option("input", ("--input", "-i"), "your translations of the suite (one --lang; the formats of `run --input`) "
           "instead of --system"),
    Option("verdict", ("--verdict",), "which verdict the sheet validates (gender.validate.VERDICT_TYPES): noun (the "
           "entity's gender, default), consistency (does the pronoun agree with its entity?) or reader (the gender a "
           "reader takes from the whole translation)", default="noun", metavar="TYPE"),
    Option("annotators", ("--annotators",), "2 adds a second person's columns (suffix _2) for person-vs-person "
           "agreement", default=1, type=int_option("annotators"), choices=(1, 2)),
    Option("n", ("-n",), "items in the sample", default=50, type=int_option("n")),
    Option("seed", ("--seed",), None, default=13, type=int_option("seed")),
    Option("output", ("--output", "-o"), None, required=True, metavar="CSV"),
    Option("jobs", ("--jobs", "-j"), None, type=int_option("jobs")),
    shared.DATA_DIR, shared.QUIET,
)
VALIDATE_SCORE_OPTIONS = (
    Option("n_samples", ("--n-samples",), "bootstrap resamples for the agreement intervals", default=1000,
           type=int_option("n-samples")),
    Option("seed", ("--seed",), "bootstrap seed (default: discotest.stats.DEFAULT_SEED)", default=DEFAULT_SEED,
           type=int_option("seed")),
)
