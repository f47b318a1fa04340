"""The data floor: the catalogue, pinned hashes, downloads, the translation-file readers."""
