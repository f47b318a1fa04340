"""Hugging Face seq2seq models shared by the contrastive scorer and the translator: loading, families, language codes.

The EasyNMT families differ only in how a language is named and chosen: Marian/Opus-MT models are one language pair
(multi-target ones take a ``>>xx<<`` token in front of the source), M2M100 takes ``__xx__`` tokens, mBART-50 codes
like ``de_DE`` and NLLB FLORES-200 codes like ``deu_Latn``; the last three set ``tokenizer.src_lang`` and force the
target code as the first generated token. The family is read from the tokenizer class (present in both Transformers
and converted CTranslate2 directories) or the model type, so an unknown family is a clear error before any work.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discotest.errors import InputError

FAMILIES = ("marian", "m2m100", "mbart50", "nllb")

_TOKENIZER_FAMILY = {"MarianTokenizer": "marian", "M2M100Tokenizer": "m2m100", "NllbTokenizer": "nllb",
                     "MBart50Tokenizer": "mbart50"}

_M2M100 = """
af am ar ast az ba be bg bn br bs ca ceb cs cy da de el en es et fa ff fi fr fy ga gd gl gu ha he hi hr ht hu hy id
ig ilo is it ja jv ka kk km kn ko lb lg ln lo lt lv mg mk ml mn mr ms my ne nl no ns oc or pa pl ps pt ro ru sd si sk
sl so sq sr ss su sv sw ta th tl tn tr uk ur uz vi wo xh yi yo zh zu
"""
M2M100_LANGS = frozenset(_M2M100.split())

_MBART50 = """
ar_AR cs_CZ de_DE en_XX es_XX et_EE fi_FI fr_XX gu_IN hi_IN it_IT ja_XX kk_KZ ko_KR lt_LT lv_LV my_MM ne_NP nl_XX
ro_RO ru_RU si_LK tr_TR vi_VN zh_CN af_ZA az_AZ bn_IN fa_IR he_IL hr_HR id_ID ka_GE km_KH mk_MK ml_IN mn_MN mr_IN
pl_PL ps_AF pt_XX sv_SE sw_KE ta_IN te_IN th_TH tl_XX uk_UA ur_PK xh_ZA gl_ES sl_SI
"""
MBART50_CODES = {code.split("_")[0]: code for code in _MBART50.split()}

NLLB_CODES = {
    "ar": "arb_Arab", "bg": "bul_Cyrl", "ca": "cat_Latn", "cs": "ces_Latn", "da": "dan_Latn", "de": "deu_Latn",
    "el": "ell_Grek", "en": "eng_Latn", "es": "spa_Latn", "et": "est_Latn", "fa": "pes_Arab", "fi": "fin_Latn",
    "fr": "fra_Latn", "he": "heb_Hebr", "hi": "hin_Deva", "hr": "hrv_Latn", "hu": "hun_Latn", "id": "ind_Latn",
    "it": "ita_Latn", "ja": "jpn_Jpan", "ka": "kat_Geor", "ko": "kor_Hang", "lt": "lit_Latn", "lv": "lvs_Latn",
    "nl": "nld_Latn", "no": "nob_Latn", "pl": "pol_Latn", "pt": "por_Latn", "ro": "ron_Latn", "ru": "rus_Cyrl",
    "sk": "slk_Latn", "sl": "slv_Latn", "sr": "srp_Cyrl", "sv": "swe_Latn", "th": "tha_Thai", "tr": "tur_Latn",
    "uk": "ukr_Cyrl", "vi": "vie_Latn", "zh": "zho_Hans",
}
KNOWN_LANGS = M2M100_LANGS | set(MBART50_CODES) | set(NLLB_CODES)
_NLLB_PATTERN = re.compile(r"^[a-z]{3}_[A-Z][a-z]{3}$")


@dataclass(frozen=True)
class LanguageCodes:
    """How a family names the pair: ``src``/``tgt`` for ``tokenizer.src_lang``/``tgt_lang``, ``forced_bos`` the
    target token generation must start with (None for Marian, whose model is the pair)."""

    src: str | None
    tgt: str | None
    forced_bos: str | None


def family(tokenizer_class: str | None = None, model_type: str | None = None, name: str = "") -> str:
    """marian | m2m100 | mbart50 | nllb from the tokenizer class (preferred) or the config's model type."""
    if tokenizer_class:
        found = _TOKENIZER_FAMILY.get(tokenizer_class.removesuffix("Fast"))
        if found:
            return found
    lowered = name.lower()
    if model_type == "marian":
        return "marian"
    if model_type == "m2m_100":
        return "nllb" if "nllb" in lowered else "m2m100"
    if model_type == "mbart" and "50" in lowered:
        return "mbart50"
    what = tokenizer_class or model_type or "no config.json / tokenizer_config.json"
    raise InputError(f"unknown model family of {name or 'the model'!r} ({what}); supported: Marian/Opus-MT, "
                     "M2M100, mBART-50, NLLB")


def family_of_dir(path: str | Path) -> str:
    """The family of a local model directory (Transformers or CTranslate2) from its JSON configs, without loading."""
    path = Path(path)
    tok_class = model_type = None
    for name, key in (("tokenizer_config.json", "tokenizer_class"), ("config.json", "model_type")):
        try:
            value = json.loads((path / name).read_text("utf-8")).get(key)
        except (OSError, ValueError, AttributeError):
            value = None
        if key == "tokenizer_class":
            tok_class = value
        else:
            model_type = value
    return family(tok_class, model_type, str(path))


def language_codes(fam: str, src: str, tgt: str) -> LanguageCodes:
    """The family's codes for ISO 639-1 ``src``/``tgt`` (a code already in the family's form is kept)."""

    def one(code: str) -> str:
        if fam == "m2m100":
            if code in M2M100_LANGS:
                return code
        elif fam == "mbart50":
            if code in MBART50_CODES.values():
                return code
            if code in MBART50_CODES:
                return MBART50_CODES[code]
        elif fam == "nllb":
            if _NLLB_PATTERN.match(code):
                return code
            if code in NLLB_CODES:
                return NLLB_CODES[code]
        raise InputError(f"unknown language code {code!r} for {fam} models (give the family's own code with "
                         "--src-lang/--tgt-lang)")

    if fam == "marian":
        for code in (src, tgt):
            if code not in KNOWN_LANGS:
                raise InputError(f"unknown language code {code!r} (expected an ISO 639-1 code such as de, es, fr)")
        return LanguageCodes(None, None, None)
    if fam not in FAMILIES:
        raise InputError(f"unknown model family {fam!r}; choose from {', '.join(FAMILIES)}")
    s, t = one(src), one(tgt)
    return LanguageCodes(s, t, f"__{t}__" if fam == "m2m100" else t)


def marian_target_token(tokenizer, tgt: str) -> str | None:
    """``>>es<<`` when a multi-target Marian model (opus-mt-en-ROMANCE) knows it, else None."""
    token = f">>{tgt}<<"
    vocab = tokenizer.get_vocab() if hasattr(tokenizer, "get_vocab") else {}
    return token if token in vocab else None


def model_fingerprint(name_or_path: str, revision: str | None = None) -> str:
    """Local model: sha256 of its files; hub model: name and revision (the cache key part naming the model)."""
    path = Path(name_or_path)
    if path.is_dir():
        digest = hashlib.sha256()
        for f in sorted(p for p in path.rglob("*") if p.is_file()):
            digest.update(f.relative_to(path).as_posix().encode())
            with open(f, "rb") as handle:
                for block in iter(lambda h=handle: h.read(1 << 20), b""):
                    digest.update(block)
        return f"local:{digest.hexdigest()}"
    return f"hub:{name_or_path}@{_cached_commit(name_or_path, revision) or revision or 'main'}"


def short_fingerprint(fingerprint: str) -> str:
    """The part of a fingerprint a signature shows: 12 hex digits of a local model's hash, a hub model's commit."""
    if fingerprint.startswith("local:"):
        return fingerprint.split(":", 1)[1][:12]
    return fingerprint.split("@", 1)[-1]


def _cached_commit(repo: str, revision: str | None) -> str | None:
    """The commit a hub name/branch resolves to in the local Hugging Face cache (snapshots/<commit>/), if cached:
    a branch such as ``main`` moves, the commit does not, so the translation cache follows the weights."""
    try:
        from huggingface_hub import try_to_load_from_cache

        found = try_to_load_from_cache(repo, "config.json", revision=revision)
    except Exception:  # noqa: BLE001 - no huggingface_hub, a malformed name: fall back to the name
        return None
    if isinstance(found, str) and Path(found).parent.parent.name == "snapshots":
        return Path(found).parent.name
    return None


# Weights load from safetensors when the model has them; a PyTorch ``.bin`` checkpoint is a pickle, read with
# ``torch.load(weights_only=True)``, which refuses anything but tensors and plain containers instead of running it.
# No code from the model's folder or the hub runs. Said here rather than left to Transformers' defaults.
_SAFE_LOADING = {"weights_only": True, "trust_remote_code": False}
_REFUSED = ("cannot load model {!r}: its PyTorch checkpoint holds objects other than tensors, which could run code "
            "when unpickled; refused (save it as safetensors if you trust it)")


# A hub repo id: NAME or ORG/NAME of letters, digits, '-', '_', '.' (huggingface_hub's rule, without its limits).
_HUB_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)?$")
HUB_PROBE_TIMEOUT = 3.0  # seconds to open a TCP connection to the hub (or the proxy) before calling it unreachable
_hub_reachable: bool | None = None


def looks_like_path(name_or_path: str) -> bool:
    """Whether a model argument names a local folder rather than a hub repo: it exists, or it is written like a
    path (absolute, ./ or ~, more than one '/', a backslash), or it is not a valid hub name."""
    text = str(name_or_path)
    return (Path(text).expanduser().exists() or text.startswith(("/", ".", "~")) or text.count("/") > 1
            or "\\" in text or not _HUB_NAME.match(text))


def hub_reachable() -> bool:
    """One cheap TCP connection to the hub (``$HF_ENDPOINT``, default huggingface.co:443; through
    ``$HTTPS_PROXY`` when set) within ``HUB_PROBE_TIMEOUT`` s; remembered for the process."""
    global _hub_reachable
    if _hub_reachable is None:
        import os
        import socket
        from urllib.parse import urlsplit

        proxy = os.environ.get("HTTPS_PROXY") or os.environ.get("https_proxy")
        url = urlsplit(proxy or os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
        port = url.port or (443 if url.scheme == "https" else 80)
        try:
            with socket.create_connection((url.hostname or "", port), timeout=HUB_PROBE_TIMEOUT):
                _hub_reachable = True
        except (OSError, ValueError):
            _hub_reachable = False
    return _hub_reachable


def _hub_offline() -> bool:
    import os

    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "on", "yes", "true")


def set_hub_offline() -> None:
    """Offline mode for this process (``HF_HUB_OFFLINE=1``): Transformers and huggingface_hub read only their cache
    instead of retrying the network for a minute. huggingface_hub reads the variable when imported, so its constant
    is set too."""
    import os

    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        import huggingface_hub.constants as constants

        constants.HF_HUB_OFFLINE = True
    except ImportError:
        pass


def check_model(name_or_path: str, revision: str | None = None) -> None:
    """Fail at once, before any work, on a model that cannot load: a local folder that is missing or not a folder,
    or a hub name with the hub unreachable and the model not in the local cache. With the hub unreachable and the
    model cached, offline mode is switched on so loading does not retry the network."""
    text = str(name_or_path)
    if looks_like_path(text):
        path = Path(text).expanduser()
        if not path.exists():
            if _HUB_NAME.match(text) or "/" in text or "\\" in text:
                raise InputError("model folder not found", text)
            raise InputError("neither a model folder nor a Hugging Face hub name (ORG/NAME of letters, digits, "
                             "'-', '_', '.')", text)
        if not path.is_dir():
            raise InputError("is a file; --model takes a model folder (config.json, weights, tokenizer) or a "
                             "Hugging Face hub name", text)
        return
    if _hub_offline():
        if _cached_commit(text, revision) is None:
            raise InputError(f"hub model {text!r} is not in the local Hugging Face cache and HF_HUB_OFFLINE is set; "
                             "unset it to download, or give a local model folder")
        return
    if hub_reachable():
        return
    if _cached_commit(text, revision) is not None:
        set_hub_offline()
        return
    raise InputError(f"cannot reach the Hugging Face hub to download {text!r} (no network?), and it is not in the "
                     "local cache: connect once to download it, or give a local model folder; HF_HUB_OFFLINE=1 "
                     "uses only the cache")


def _reason(exc: Exception) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def load_tokenizer(name_or_path: str, revision: str | None = None):
    """AutoTokenizer, with a load failure (missing dir, no network for a hub name) as one InputError line."""
    import warnings

    check_model(name_or_path, revision)
    from transformers import AutoTokenizer

    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*sacremoses.*")  # Marian's optional pre-tokeniser
            return AutoTokenizer.from_pretrained(name_or_path, revision=revision)
    except (OSError, ValueError, TypeError) as exc:
        raise InputError(f"cannot load tokenizer of {name_or_path!r} ({_reason(exc)})") from None


def load_model(name_or_path: str, revision: str | None = None, quiet: bool = False):
    """AutoModelForSeq2SeqLM in eval mode, with a load failure as one InputError line."""
    check_model(name_or_path, revision)
    from transformers import AutoModelForSeq2SeqLM

    if quiet:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

    try:
        return AutoModelForSeq2SeqLM.from_pretrained(name_or_path, revision=revision, **_SAFE_LOADING).eval()
    except pickle.UnpicklingError:
        raise InputError(_REFUSED.format(name_or_path)) from None
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot load model {name_or_path!r} ({_reason(exc)})") from None


def load_causal_lm(name_or_path: str, revision: str | None = None, quiet: bool = False):
    """AutoModelForCausalLM in eval mode (the DiP pronoun scorer, decoder-only LLMs), with a load failure as one
    InputError line."""
    check_model(name_or_path, revision)
    from transformers import AutoModelForCausalLM

    if quiet:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

    try:
        return AutoModelForCausalLM.from_pretrained(name_or_path, revision=revision, **_SAFE_LOADING).eval()
    except pickle.UnpicklingError:
        raise InputError(_REFUSED.format(name_or_path)) from None
    except (OSError, ValueError, KeyError) as exc:
        raise InputError(f"cannot load causal LM {name_or_path!r} ({_reason(exc)})") from None


def load_seq2seq(name_or_path: str, revision: str | None = None):
    """(model, tokenizer)."""
    return load_model(name_or_path, revision), load_tokenizer(name_or_path, revision)


def files_stamp(name_or_path: str, revision: str | None = None) -> tuple | None:
    """What a load of ``name_or_path`` reads, cheaply (no file is opened): a local folder's files with their sizes and
    modification times, a hub name's cached commit. None where it cannot be told (a hub model not in the cache)."""
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        try:
            return ("local", str(path.resolve()), tuple(sorted(
                (f.relative_to(path).as_posix(), stat.st_size, stat.st_mtime_ns)
                for f in path.rglob("*") if f.is_file() and (stat := f.stat()))))
        except OSError:
            return None
    commit = _cached_commit(str(name_or_path), revision)
    return ("hub", str(name_or_path), commit) if commit else None


class LoadedOnce:
    """Objects loaded from model files, kept for the rest of the process by what was loaded and the files it was read
    from (``files_stamp``), the ``keep`` most recent: a card's rows, a run's context sizes and Python calls one after
    another load a model once. A miss drops what is kept before loading (a model of gigabytes is not held beside the
    next one); files changed on disk are a miss."""

    def __init__(self, keep: int):
        self.keep = keep
        self._kept: dict[tuple, Any] = {}

    def get(self, key: tuple, stamp: tuple | None, load):
        if stamp is None:
            return load()
        key = (*key, stamp)
        if key in self._kept:
            self._kept[key] = self._kept.pop(key)  # the most recent last
            return self._kept[key]
        while len(self._kept) >= self.keep:
            self._kept.pop(next(iter(self._kept)))
        self._kept[key] = value = load()
        return value

    def clear(self) -> None:
        self._kept.clear()


# A process's models (one at a time: an LLM can be gigabytes) and decoder-only tokenizers (a few: 1-2 s each to load,
# a Gemma 3 tokenizer's 262k entries). Seq2seq tokenizers are not shared: a translator sets their languages.
LOADED_MODELS = LoadedOnce(keep=1)
LOADED_TOKENIZERS = LoadedOnce(keep=4)


class LazyModel:
    """The lazy ``tokenizer``, ``model`` and ``fingerprint()`` of one named model (hub name or folder), shared by the
    seq2seq and causal scorers and translators: nothing is loaded or hashed until a run needs it (a cached run never
    loads the model), and objects a caller handed over (``_model``, ``_tokenizer``, ``_fingerprint`` set in
    ``__init__``) are used as they are. A model loaded here is loaded once per process (``LOADED_MODELS``), and so is
    the tokenizer of a class that never changes it (``share_tokenizer``: the decoder-only LLMs).

    A subclass sets ``name``, ``revision``, ``device``, ``quiet`` and the three private fields, and says how its model
    is loaded (``load``: seq2seq by default). Scorers set ``prepare_on_access``: the model is moved to the device and
    put in eval mode at every access (a model object handed over included); translators move it once, after loading.
    """

    name: str
    revision: str | None
    device: str
    quiet: bool
    _model: Any
    _tokenizer: Any
    _fingerprint: str | None
    prepare_on_access = False
    share_tokenizer = False

    def load(self):
        """The model object, loaded (``AutoModelForSeq2SeqLM`` here; causal LMs override)."""
        return load_model(self.name, self.revision, self.quiet)

    @property
    def tokenizer(self):
        if self._tokenizer is None:
            if self.share_tokenizer:
                self._tokenizer = LOADED_TOKENIZERS.get(("tokenizer", self.name, self.revision),
                                                        files_stamp(self.name, self.revision),
                                                        lambda: load_tokenizer(self.name, self.revision))
            else:
                self._tokenizer = load_tokenizer(self.name, self.revision)
        return self._tokenizer

    @property
    def model(self):
        if self._model is None:
            self._model = LOADED_MODELS.get((type(self).load, self.name, self.revision, str(self.device)),
                                            files_stamp(self.name, self.revision), self.load)
            if not self.prepare_on_access:
                self._model.to(self.device)
        if self.prepare_on_access:
            self._model.to(self.device).eval()
        return self._model

    def fingerprint(self) -> str:
        """``model_fingerprint`` of the named model, computed once (or the one handed over)."""
        if self._fingerprint is None:
            self._fingerprint = model_fingerprint(self.name, self.revision)
        return self._fingerprint


def family_of(model=None, tokenizer=None, name: str = "") -> str:
    """The family of loaded objects (tokenizer class first, then the model's config)."""
    tok_class = type(tokenizer).__name__ if tokenizer is not None else None
    model_type = getattr(getattr(model, "config", None), "model_type", None)
    return family(tok_class, model_type, name)


def set_languages(tokenizer, codes: LanguageCodes) -> None:
    for attr, value in (("src_lang", codes.src), ("tgt_lang", codes.tgt)):
        if value and hasattr(tokenizer, attr):
            setattr(tokenizer, attr, value)
