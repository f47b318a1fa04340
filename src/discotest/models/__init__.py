"""Loading and running models, for every wing, behind one door: ``door.open_scorer`` and ``door.open_translator``
choose the backend from the user's options, and ``interface`` says what every backend offers (``ScoreRequest``,
``Scorer``, ``Translator``). Backends: Hugging Face seq2seq translators and scorers (``translator``, ``hf_scorer``,
``hf_models``), decoder-only LLMs (``causal_lm``, ``causal_translator``, ``causal_scorer``, ``llm_prompt``),
CTranslate2 (``ct2_scorer``), OpenAI-compatible served models (``endpoint``), scores files (``scores_file``), and the
Ray actor pool (``ray_pool``, ``hf_ray``). A wing never names a backend class."""
