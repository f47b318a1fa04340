"""A tiny randomly initialised Marian model and its SentencePiece tokenizer, built offline for tests and bench."""

from __future__ import annotations

import json
from pathlib import Path

TEXT = [
    "my mother called me when she arrived at the station .", "he took a bath when he got home .",
    "they were tired but they kept running .", "it is old but it is still read .",
    "Мама позвонила мне , когда приехала на вокзал .", "Ты никогда не нарушала закон .",
    "Вас не ловили .", "Тебя не ловили .", "Les bâtiments seront terminés la semaine prochaine .",
    "Ils seront bientôt pleins . Elles seront bientôt pleines .", "母は駅に着くと、すぐに電話をかけてきた。",
]


def build_tiny_marian(folder: str | Path, d_model: int = 16, layers: int = 1, seed: int = 0,
                      corpus_lines: list[str] | None = None, vocab_size: int = 120, pad_last: bool = False) -> Path:
    """Train two SentencePiece models on a few lines, make a Marian vocabulary and a random model; save it all.

    ``pad_last``: ``<pad>`` is the last vocabulary entry, as in real Opus-MT models (CTranslate2's converter needs it).
    """
    import sentencepiece as spm
    import torch
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    corpus = folder / "corpus.txt"
    corpus.write_text("\n".join(corpus_lines or TEXT * 3) + "\n", "utf-8")
    for side in ("source", "target"):
        spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(folder / side), vocab_size=vocab_size,
                                       character_coverage=1.0, model_type="unigram", bos_id=-1, eos_id=-1,
                                       unk_id=0, minloglevel=2, hard_vocab_limit=False)
    pieces = ["</s>", "<unk>"] + ([] if pad_last else ["<pad>"])
    for side in ("source", "target"):
        proc = spm.SentencePieceProcessor(model_file=str(folder / f"{side}.model"))
        pieces += [proc.id_to_piece(i) for i in range(proc.get_piece_size())]
    pieces += ["<pad>"] if pad_last else []
    vocab = {p: i for i, p in enumerate(dict.fromkeys(pieces))}
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), "utf-8")
    (folder / "source.spm").write_bytes((folder / "source.model").read_bytes())
    (folder / "target.spm").write_bytes((folder / "target.model").read_bytes())
    tokenizer = MarianTokenizer(str(folder / "source.spm"), str(folder / "target.spm"), str(folder / "vocab.json"))
    torch.manual_seed(seed)
    config = MarianConfig(vocab_size=len(vocab), d_model=d_model, encoder_layers=layers, decoder_layers=layers,
                          encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=2 * d_model,
                          decoder_ffn_dim=2 * d_model, max_position_embeddings=512, pad_token_id=vocab["<pad>"],
                          eos_token_id=vocab["</s>"], decoder_start_token_id=vocab["<pad>"],
                          forced_eos_token_id=vocab["</s>"])
    model = MarianMTModel(config).eval()
    for f in ("corpus.txt", "source.model", "target.model", "source.vocab", "target.vocab"):
        (folder / f).unlink(missing_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def build_tiny_m2m100(folder: str | Path, d_model: int = 16, seed: int = 0, corpus_lines: list[str] | None = None,
                      vocab_size: int = 100) -> Path:
    """A tiny random M2M100 model with a real ``M2M100Tokenizer`` (``__xx__`` language tokens), built offline."""
    import sentencepiece as spm
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration, M2M100Tokenizer

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    corpus = folder / "corpus.txt"
    corpus.write_text("\n".join(corpus_lines or TEXT * 3) + "\n", "utf-8")
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(folder / "sentencepiece.bpe"),
                                   vocab_size=vocab_size, character_coverage=1.0, model_type="unigram",
                                   minloglevel=2, hard_vocab_limit=False)
    proc = spm.SentencePieceProcessor(model_file=str(folder / "sentencepiece.bpe.model"))
    pieces = ["<s>", "<pad>", "</s>", "<unk>"] + [proc.id_to_piece(i) for i in range(proc.get_piece_size())]
    (folder / "vocab.json").write_text(json.dumps({p: i for i, p in enumerate(dict.fromkeys(pieces))}), "utf-8")
    tokenizer = M2M100Tokenizer(str(folder / "vocab.json"), str(folder / "sentencepiece.bpe.model"))
    torch.manual_seed(seed)
    from discotest.models.hf_models import M2M100_LANGS

    size = max(tokenizer.convert_tokens_to_ids(f"__{c}__") for c in M2M100_LANGS) + 1 + 8  # + the made-up words
    config = M2M100Config(vocab_size=size, d_model=d_model, encoder_layers=1,
                          decoder_layers=1, encoder_attention_heads=2, decoder_attention_heads=2,
                          encoder_ffn_dim=2 * d_model, decoder_ffn_dim=2 * d_model, max_position_embeddings=128,
                          pad_token_id=1, bos_token_id=0, eos_token_id=2, decoder_start_token_id=2)
    for f in ("corpus.txt", "sentencepiece.bpe.vocab"):
        (folder / f).unlink(missing_ok=True)
    M2M100ForConditionalGeneration(config).eval().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def _train_spm(folder: Path, corpus_lines: list[str] | None, vocab_size: int, model_type: str):
    """A SentencePiece model (default ids: <unk>=0, <s>=1, </s>=2) trained on a few lines, as a processor."""
    import sentencepiece as spm

    corpus = folder / "corpus.txt"
    corpus.write_text("\n".join(corpus_lines or TEXT * 3) + "\n", "utf-8")
    prefix = folder / "spm"
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(prefix), vocab_size=vocab_size,
                                   character_coverage=1.0, model_type=model_type, minloglevel=2,
                                   hard_vocab_limit=False)
    proc = spm.SentencePieceProcessor(model_file=f"{prefix}.model")
    for f in ("corpus.txt", "spm.model", "spm.vocab"):
        (folder / f).unlink(missing_ok=True)
    return proc


def build_tiny_mbart50(folder: str | Path, d_model: int = 16, seed: int = 0, corpus_lines: list[str] | None = None,
                       vocab_size: int = 100) -> Path:
    """A tiny random mBART-50 model with a real ``MBart50Tokenizer`` (52 ``xx_XX`` codes), built offline.

    Transformers 5 tokenizers are ``tokenizers``-backed: ``MBart50Tokenizer(vocab_file=...)`` silently ignores the
    file (a 5-piece vocabulary, every word ``<unk>``) and reading a ``.model`` file needs protobuf, so the unigram
    pieces and scores are taken from the SentencePiece processor and passed as ``vocab=``; the tokenizer puts them
    in fairseq order (<s> <pad> </s> <unk>, pieces, the 52 codes, <mask>) as the real mBART-50 vocabulary is.
    """
    import torch
    from transformers import MBart50Tokenizer, MBartConfig, MBartForConditionalGeneration

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    proc = _train_spm(folder, corpus_lines, vocab_size, "unigram")
    pieces = [(proc.id_to_piece(i), proc.get_score(i)) for i in range(proc.get_piece_size())]
    tokenizer = MBart50Tokenizer(vocab=pieces)
    torch.manual_seed(seed)
    # as facebook/mbart-large-50-many-to-many-mmt: generation starts from </s>, then the forced target code
    config = MBartConfig(vocab_size=len(tokenizer), d_model=d_model, encoder_layers=1, decoder_layers=1,
                         encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=2 * d_model,
                         decoder_ffn_dim=2 * d_model, max_position_embeddings=128, pad_token_id=1, bos_token_id=0,
                         eos_token_id=2, decoder_start_token_id=2, forced_eos_token_id=2)
    MBartForConditionalGeneration(config).eval().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def build_tiny_nllb(folder: str | Path, d_model: int = 16, seed: int = 0, corpus_lines: list[str] | None = None,
                    vocab_size: int = 100) -> Path:
    """A tiny random NLLB model (M2M100 architecture) with a real ``NllbTokenizer`` (202 ``xxx_Xxxx`` codes).

    NLLB's Transformers 5 tokenizer is a BPE ``tokenizers`` model built from ``vocab`` + ``merges`` (``vocab_file=``
    is ignored, as for mBART-50): a BPE SentencePiece model's pieces in fairseq order (<s> <pad> </s> <unk>, pieces)
    and the merges Transformers' own converter derives from them (``generate_merges``).
    """
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration, NllbTokenizer
    from transformers.tokenization_utils_base import generate_merges

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    proc = _train_spm(folder, corpus_lines, vocab_size, "bpe")
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for i in range(3, proc.get_piece_size()):  # 0-2 are SentencePiece's <unk> <s> </s>
        vocab.setdefault(proc.id_to_piece(i), len(vocab))
    tokenizer = NllbTokenizer(vocab=vocab, merges=generate_merges(vocab))
    torch.manual_seed(seed)
    # as facebook/nllb-200-distilled-600M: decoder starts from </s>, then the forced target code
    config = M2M100Config(vocab_size=len(tokenizer), d_model=d_model, encoder_layers=1, decoder_layers=1,
                          encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=2 * d_model,
                          decoder_ffn_dim=2 * d_model, max_position_embeddings=128, pad_token_id=1, bos_token_id=0,
                          eos_token_id=2, decoder_start_token_id=2)
    M2M100ForConditionalGeneration(config).eval().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
