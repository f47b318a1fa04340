"""The discourse card (``discotest card``)."""
