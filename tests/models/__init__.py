"""The models floor: the one door, seq2seq, decoder-only LLMs, served endpoints, CTranslate2."""
