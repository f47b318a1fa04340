"""The contrastive wing: loaders, verdicts, baselines, make-contrastive."""
