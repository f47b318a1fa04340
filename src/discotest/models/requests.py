"""What a family asks a model, as data: a family's first phase states its requests (``Ask``), ``answer`` sends them
through the door's objects, and its second phase scores the answers. The shape is lm-evaluation-harness's
(``Instance``s built first, the evaluator calls ``loglikelihood`` / ``generate_until`` once per kind): a caller that
holds several runs' requests (the card) sends them all before it scores any.

Each ``Ask`` is answered by one call of its model, as the run made it before: the same batches go to a local model
(a different batch composition can move a padded model's numbers), the same requests in the same order to a server.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from discotest.models.interface import Scorer, ScoreRequest, Translator


@dataclass(frozen=True)
class TranslateRequest:
    """One source to translate into ``lang``. ``context``: the sentences before it (oldest first), given the way the
    translator takes them (``translate_in_context``: an LLM's prompt); None: the source alone, the translator's own
    way (``translate``: a model opened with ``context=N`` then gives it its previous sources and translations)."""

    source: str
    context: tuple[str, ...] | None = None
    lang: str = ""


@dataclass(frozen=True)
class ContinuationRequest:
    """A text after the sentences before it (``context``, oldest first), scored by a plain language model: its
    (log-probability sum, token count) given the context (``Scorer.continuation_logprobs``); ``max_length``: the most
    tokens of context and text (the context loses tokens from the left)."""

    context: tuple[str, ...]
    text: str
    max_length: int = 1024


Request = ScoreRequest | TranslateRequest | ContinuationRequest


def kind_of(request: Request) -> str:
    """``score``, ``continuation``, ``translate`` (the source alone) or ``translate_in_context``: what the model is
    called with."""
    if isinstance(request, ScoreRequest):
        return "score"
    if isinstance(request, ContinuationRequest):
        return "continuation"
    return "translate" if request.context is None else "translate_in_context"


def answer(requests: Sequence[Request], model: Scorer | Translator, contexts: Sequence[int] = (0,),
           desc: str | None = None) -> list[Any]:
    """One answer per request, in order: a score request's is its candidates' scores at each of ``contexts`` (a
    list per size), a continuation request's its (log-probability sum, token count), a translate request's its
    translation. The requests are grouped by kind (in the order each kind
    first appears) and the model is called once per kind."""
    kinds: dict[str, list[int]] = {}
    for at, request in enumerate(requests):
        kinds.setdefault(kind_of(request), []).append(at)
    out: list[Any] = [None] * len(requests)
    for kind, positions in kinds.items():
        asked = [requests[at] for at in positions]
        if kind == "score":
            if not isinstance(model, Scorer):
                raise TypeError(f"score requests need a scorer, not {type(model).__name__}")
            per_size = model.score_contexts(asked, list(contexts))  # type: ignore[arg-type]
            answers: list[Any] = [[scores[n] for scores in per_size] for n in range(len(asked))]
        elif kind == "continuation":
            if not isinstance(model, Scorer):
                raise TypeError(f"continuation requests need a scorer, not {type(model).__name__}")
            lengths = {r.max_length for r in asked}  # type: ignore[union-attr]
            if len(lengths) != 1:
                raise ValueError(f"the continuations of one call take one max_length, not {sorted(lengths)}")
            answers = model.continuation_logprobs([list(r.context) for r in asked],  # type: ignore[union-attr]
                                                  [r.text for r in asked], lengths.pop())  # type: ignore[union-attr]
        elif kind == "translate":
            answers = model.translate([r.source for r in asked], desc)  # type: ignore[union-attr]
        else:
            answers = model.translate_in_context([r.source for r in asked],  # type: ignore[union-attr]
                                                 [list(r.context or ()) for r in asked], desc)
        for at, value in zip(positions, answers, strict=True):
            out[at] = value
    return out


@dataclass(frozen=True)
class Ask:
    """One model's requests of one run, in the order they go out; score requests are scored at every size of
    ``contexts``. ``what`` names them (a progress bar's description)."""

    model: Scorer | Translator
    requests: tuple[Request, ...]
    contexts: tuple[int, ...] = (0,)
    what: str | None = None


def answer_all(asks: Sequence[Ask]) -> list[list[Any]]:
    """Every ask's answers, the asks one after another in order (``answer``)."""
    return [answer(ask.requests, ask.model, ask.contexts, ask.what) for ask in asks]


@dataclass(frozen=True)
class Asked:
    """A run's first phase: the model requests it needs (``asks``, answered in order by ``answer_all``) and what its
    second phase reads besides their answers (``state``: the items it loaded, the files it read, …)."""

    asks: tuple[Ask, ...]
    state: Any = None


# what a score phase may read of a model besides its instance's plain values: the class-level names backends set
_READ = ("name", "kind", "backend", "context_prompt", "normalise", "logprob_scores", "takes_context", "cut",
         "max_length", "use_target_context")


def _plain(value: Any) -> bool:
    if isinstance(value, set | frozenset | tuple):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


@dataclass(frozen=True)
class Settled:
    """A model whose requests of one run are all answered, as that run's score phase reads it in another process (the
    card's row workers, ``registry.packed``): its plain values (``name``, ``backend``, ``max_length``, ``cut`` …) and
    what its signature said at each context size asked, taken from the opened model (``settled``). It holds no
    weights and no client: a worker loads nothing and reaches no server for it, and asking it anything is an error
    (a score phase reads the answers; a family whose score phase asks a model says so, ``Family.answers_suffice``)."""

    scorer: bool  # a ``Scorer`` (its signature per context size) or a translator
    values: tuple[tuple[str, Any], ...]
    fields: tuple[tuple[str, str], ...] = ()  # a translator's ``signature_fields()``
    fields_at: tuple[tuple[int, tuple[tuple[str, str], ...]], ...] = ()  # a scorer's, per context size
    names_at: tuple[tuple[int, str], ...] = ()  # a scorer's ``system_name`` per context size

    def __getattr__(self, name: str) -> Any:  # only for names that are not the dataclass's own
        if name.startswith("_") or name in ("scorer", "values", "fields", "fields_at", "names_at"):
            raise AttributeError(name)  # pickle's probing; a half-built object
        for key, value in self.values:
            if key == name:
                return value
        raise AttributeError(f"{name!r} of model {dict(self.values).get('name')!r}: the score phase was given what the "
                             "model's answers and signature say, not this")

    def signature_fields(self, k: int | None = None) -> list[tuple[str, str]]:
        if not self.scorer:
            return list(self.fields)
        return list(dict(self.fields_at)[k])  # type: ignore[index]

    def system_name(self, k: int) -> str:
        return dict(self.names_at)[k]

    def _asked(self) -> RuntimeError:
        return RuntimeError(f"model {dict(self.values).get('name')!r} was asked after its answers were settled: its "
                            "family's score phase asks a model (Family.answers_suffice must say so)")

    def translate(self, sources: Sequence[str], desc: str | None = None) -> list[str]:
        raise self._asked()

    def translate_in_context(self, sources: Sequence[str], contexts: Sequence[Sequence[str]],
                             desc: str | None = None) -> list[str]:
        raise self._asked()

    def score_contexts(self, requests: Sequence[ScoreRequest], contexts: Sequence[int]) -> list[list[list[float]]]:
        raise self._asked()

    def logprobs(self, requests: Sequence[ScoreRequest], contexts: Sequence[int]) -> list[Any]:
        raise self._asked()

    def continuation_logprobs(self, contexts: Sequence[Sequence[str]], texts: Sequence[str],
                              max_length: int = 1024) -> list[Any]:
        raise self._asked()


def settled(model: Scorer | Translator, contexts: Sequence[int] = (0,)) -> Settled:
    """``model`` as its run's score phase reads it once its requests are answered (``Settled``): the plain values of
    the model (a watched translator's backend's: ``language_watch.unwatched``) and its signature, a scorer's at each
    of ``contexts`` (the sizes its asks scored at)."""
    from discotest.models.language_watch import unwatched

    inner = unwatched(model)
    values = {k: v for k, v in vars(inner).items() if not k.startswith("_") and _plain(v)}
    values.update({k: getattr(inner, k) for k in _READ if hasattr(inner, k) and _plain(getattr(inner, k))})
    plain = tuple(sorted((k, frozenset(v) if isinstance(v, set) else v) for k, v in values.items()))
    if isinstance(inner, Scorer):
        sizes = sorted(set(contexts))
        return Settled(True, plain, (), tuple((k, tuple(inner.signature_fields(k))) for k in sizes),
                       tuple((k, inner.system_name(k)) for k in sizes))
    return Settled(False, plain, tuple(model.signature_fields()))
