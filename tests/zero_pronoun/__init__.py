"""The zero-pronoun wing: mZPRT / AZPT, BSD."""
