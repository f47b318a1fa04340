"""The gender wing: WinoMT, BUG, winomt-adj, MT-GenEval, MiTTenS, coref, validation, fine-tuning."""
