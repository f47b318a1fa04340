"""Loading and running models, for every wing: Hugging Face seq2seq translators and scorers (``translator``,
``hf_scorer``, ``hf_models``), decoder-only LLMs (``causal_lm``, ``causal_translator``, ``causal_scorer``,
``llm_prompt``), CTranslate2 (``ct2_scorer``), OpenAI-compatible served models (``endpoint``), the Ray actor pool
(``ray_pool``, ``hf_ray``), and which translator runs a model (``translators``). A model is loaded once per process."""
