"""Options more than one family takes, declared once: the same flag means the same thing in every family."""

from __future__ import annotations

from discotest.data.catalogue import ENV_VAR
from discotest.data.translations import INPUT_FORMATS
from discotest.engine import ENGINES
from discotest.lang.align import ALIGNERS, DECODERS, DEFAULT_ALIGNER
from discotest.models.interface import DEFAULT_MAX_LENGTH
from discotest.registry import Option
from discotest.report.export import LATEX_FLOATS, WIDE_COLUMNS
from discotest.stats import DEFAULT_SEED
from discotest.values import float_option, int_option

DATA_DIR = Option("data_dir", ("--data-dir",), f"data directory (default: ${ENV_VAR}, else the user cache)")
QUIET = Option("quiet", ("--quiet", "-q"), "no progress bars", default=False, action="store_true")
ALLOW_MODIFIED_DATA = Option("allow_modified_data", ("--allow-modified-data",),
                             "use data files that differ from their pinned checksum (the signature says so); without "
                             "it such a file is an error", default=False, action="store_true")
USE_CACHE = Option("use_cache", ("--no-cache",), "recompute instead of reading the cache", default=True,
                   action="store_false")
SKIP_LANGUAGE_CHECK = Option("skip_language_check", ("--skip-language-check",),
                             "score --input even when it is mostly another language or script than the one scored, "
                             "or its lines do not match the suite's rows (the signature then says langcheck:off)",
                             default=False, action="store_true")
# what every family takes (data_dir and quiet are also global flags of the CLI, before or after the subcommand)
EVERY_FAMILY = (DATA_DIR, QUIET, USE_CACHE, SKIP_LANGUAGE_CHECK)
GLOBAL_FLAGS = ("data_dir", "quiet")
# the flags every command takes, before or after its name (``discotest -q run …``); allow_modified_data is the CLI's
# (in Python: ``catalogue.allow_modified()``)
GLOBAL_OPTIONS = (DATA_DIR, QUIET, ALLOW_MODIFIED_DATA)

LANG = Option("lang", ("--lang", "-l"), "target language, comma-separated list, or 'all'", many=True)
SYSTEM = Option("system", ("--system", "-s"), "published system output(s): name, comma-separated list, or 'all'",
                many=True)
INPUT = Option("input", ("--input", "-i"),
               "your translations (file; '-': stdin): plain text, 'source ||| translation', or JSONL")
INPUT_FORMAT = Option("input_format", ("--input-format",),
                      "how --input is read: auto (JSONL if every line is a JSON object, 'source ||| translation' if "
                      "every line has one '|||', else plain), or forced", default="auto", choices=INPUT_FORMATS)
SUITE_FILE = Option("suite_file", ("--suite-file",), "the suite's file instead of the data directory's",
                    metavar="FILE")
ALIGNER = Option("aligner", ("--aligner",),
                 "word aligner (default: Thot's eflomal model, seeded; 'eflomal' is the unseeded binary)",
                 default=DEFAULT_ALIGNER, choices=ALIGNERS)
# --align-extra: extra aligner training text. Each wing has its own vocabulary, so each declares its own (one
# check, one default): the gender suites' is below, mzprt's is zero_pronoun/family.py's.
GENDER_ALIGN_EXTRA = Option("align_extra", ("--align-extra",),
                            "--align-train input: extra aligner training text: 'published' = all published outputs "
                            "of the language, 'none', or 'auto' (the default: published only for inputs under 2000 "
                            "rows)", choices=("auto", "none", "published"))
ALIGN_TRAIN = Option("align_train", ("--align-train",),
                     "what the aligner learns from: 'suite' (default) = a model trained once on text that does not "
                     "depend on your file (the language's published outputs; mzprt: its background corpus), every "
                     "sentence decoded with it, so a verdict depends on its own sentence alone; 'input' = trained on "
                     "each evaluated file (with --align-extra), as before", default="suite", choices=("suite", "input"))
# --align-decode: every wing that aligns with a trained model (the gender suites, MiTTenS, MT-GenEval, mZPRT)
ALIGN_DECODE = Option("align_decode", ("--align-decode",),
                      "how an alignment model trained once (the suite's, the references', mZPRT's background) decodes: "
                      "'thot' (default) = Thot's seeded "
                      "sampler in two child processes; 'fast' = the model's tables decoded in this process (other "
                      "links on some sentences: bench/validity/fast_decode.py; named in the signature); 'checked' = "
                      "fast, and the sentences where it is unsure of the words the verdict reads decoded by Thot",
                      choices=DECODERS)
MODEL = Option("model", ("--model", "-m"),
               "Hugging Face seq2seq, decoder-only LLM (AutoModelForCausalLM) or CTranslate2 model: scores the "
               "candidates (contrastive suites) or translates the suite (gender suites, CTXPRO, mZPRT)",
               metavar="NAME_OR_PATH")
PROMPT = Option("prompt_file", ("--prompt",), "--model with a decoder-only LLM: your request template (Jinja; "
                "variables: source, source_context, target_context, src_lang, tgt_lang, src_code, tgt_code, "
                "examples), wrapped in the model's chat template when it has one", metavar="FILE")
ENDPOINT = Option("endpoint", ("--endpoint",), "an OpenAI-compatible server (vLLM, llama.cpp, Ollama, transformers "
                  "serve): it translates (gender suites, CTXPRO, mZPRT, translate: /v1/chat/completions) or scores "
                  "(contrastive suites: /v1/completions prompt log-probabilities); --model names the served model "
                  "(default: the only one); API key from $DISCOTEST_API_KEY or $OPENAI_API_KEY", metavar="URL")
CONCURRENCY = Option("concurrency", ("--concurrency",), "--endpoint: requests under way at once", default=4,
                     type=int_option("concurrency"), metavar="N")
ENDPOINT_TIMEOUT = Option("timeout", ("--timeout",), "--endpoint: seconds one attempt waits for the server (default "
                          "120); a request gives up, one error line, after twice that, retries and waits included",
                          default=120.0, type=float_option("timeout"), metavar="SECONDS")
CONTEXT = Option("context", ("--context",), "--model: previous sentences in the input; contrastive suites score at "
                 "each size given (repeat to run several; default 0); a decoder-only LLM translating sees the previous "
                 "K source sentences and its own translations of them (one size; default 0); CTXPRO and mZPRT: the K "
                 "sentences before each one in its document, source side only (CTXPRO: at each size given)", default=[],
                 type=int_option("context"), action="append", metavar="K")
BEAM = Option("beam", ("--beam",), "--model: beam size (seq2seq; an LLM decodes greedily)", default=4,
              type=int_option("beam"))
MAX_LENGTH = Option("max_length", ("--max-length",), "--model translating: maximum source/output tokens",
                    default=DEFAULT_MAX_LENGTH, type=int_option("max-length"))
BATCH_SIZE = Option("batch_size", ("--batch-size",), "--model: sentences or candidates per batch", default=32,
                    type=int_option("batch-size"))
DEVICE = Option("device", ("--device",), "--model: torch device (cpu, cuda, cuda:1 …)", default="cpu")
SRC_LANG = Option("src_lang", ("--src-lang",),
                  "--model: source language code, ISO 639-1 or the model family's own (default: the suite's source "
                  "language: en out of English, --lang into English, the pair's for DiP, zh for mZPRT)")
TGT_LANG = Option("tgt_lang", ("--tgt-lang",),
                  "--model: target language code (default: the suite's target language: --lang out of English, en "
                  "into English)")
REVISION = Option("revision", ("--revision",), "--model: hub model revision")
JOBS = Option("jobs", ("--jobs", "-j"), "worker processes for several languages (local), or the CPUs of a local Ray "
              "instance (--engine ray)", type=int_option("jobs"))
# where the heavy stages run; the numbers are the same on both, so neither is in the signature
ENGINE = Option("engine", ("--engine",), "run the heavy stages here (local) or on Ray (default: $DISCOTEST_ENGINE, "
                "else local); winox has none and runs here on both", choices=ENGINES)
RAY_ADDRESS = Option("ray_address", ("--ray-address",),
                     "--engine ray: the cluster to join (default: $RAY_ADDRESS, else a local Ray instance, with --jobs "
                     "CPUs where the suite takes --jobs)", metavar="HOST:PORT")
RAY_ACTORS = Option("ray_actors", ("--ray-actors",), "--engine ray with --model: actors, each holding one copy of "
                    "the model (default: 2)", default=2, type=int_option("ray-actors"), metavar="N")
ENGINE_OPTIONS = (ENGINE, RAY_ADDRESS)
# a model that translates: every option of the model's spec (``models.spec.ModelSpec``, one field per option, same
# name), declared once here; every family that takes --model takes them all (and ENGINE_OPTIONS, USE_CACHE, QUIET)
# and builds its spec from them (``ModelSpec.from_settings``; tests/registry/test_input_checks.py), so --timeout or
# --context cannot reach one family and not another
TRANSLATING_MODEL = (MODEL, ENDPOINT, PROMPT, CONTEXT, BEAM, MAX_LENGTH, BATCH_SIZE, DEVICE, REVISION, SRC_LANG,
                     TGT_LANG, CONCURRENCY, ENDPOINT_TIMEOUT, RAY_ACTORS)
MODEL_SPEC = (*TRANSLATING_MODEL, *ENGINE_OPTIONS, USE_CACHE, QUIET)  # every field of ``ModelSpec``
LIMIT = Option("limit", ("--limit",), "a quick look: a deterministic sample of N items per result, stratified "
               "(gender suites: gold gender × stereotype; MT-GenEval: gender, pairs whole; MiTTenS: set × gender; "
               "contrastive: phenomenon × distance; mZPRT: ZP form; DiP: phenomenon); files are still read whole, a "
               "model translates the sample only; the signature says limit:N and the intervals widen", metavar="N",
               type=int_option("limit"))

# compare: two systems, given as two published names, two files, or one of each
COMPARE_SYSTEMS = Option("system", ("--system", "-s"), "published system (give two, or one and --input)",
                         default=[], action="append")
COMPARE_INPUTS = Option("input", ("--input", "-i"), "translation file (give two, or one and --system)",
                        default=[], action="append")
BOOTSTRAP = Option("bootstrap", ("--bootstrap",), "paired bootstrap resamples", default=1000,
                   type=int_option("bootstrap"))
SEED = Option("seed", ("--seed",), "bootstrap seed", default=DEFAULT_SEED, type=int_option("seed"))
COMPARE = (COMPARE_SYSTEMS, COMPARE_INPUTS, BOOTSTRAP, SEED)

# the report's output (every command with --format latex); in Python: ``report.render("latex", latex_float=…)``
LATEX_FLOAT = Option("latex_float", ("--latex-float",),
                     "--format latex: the float, 'table' (one column of a two-column paper), 'table*' (across both) "
                     f"or auto (default: table* for a table of more than {WIDE_COLUMNS} columns)", default="auto",
                     choices=LATEX_FLOATS)

