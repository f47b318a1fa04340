"""Human validation of the gender pipeline (Yehudai et al. 2023, Table 10; Stanovsky et al. 2019, §4).

``sample`` draws a stratified sample of per-item verdicts (by system, language and verdict) into a
CSV a person can fill in: is the aligned word the entity, and is the gender read right?
``score`` reads the filled CSV back and reports, per language, alignment errors, gender-reading
errors and correct items, and the agreement between the automatic verdict and the person.
"""

from __future__ import annotations

import csv
import io
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from discotest.atomic import write_text_atomic
from discotest.data.readers import csv_rows
from discotest.errors import InputError
from discotest.options import check_int
from discotest.phenomena.gender import GenderVerdict
from discotest.report.gender import GenderResult

SYSTEM_COLUMNS = [
    "id", "suite", "lang", "system", "index", "source", "entity", "translation_marked", "target_entity",
    "predicted_gender", "gold_gender", "verdict",
]
HUMAN_COLUMNS = ["aligned_word_correct", "gender_correct", "note"]
COLUMNS = SYSTEM_COLUMNS + HUMAN_COLUMNS
YES, NO = "yes", "no"


def mark_words(verdict: GenderVerdict) -> str:
    """The translation with the aligned entity words in [[double brackets]]."""
    out = verdict.translation
    for word in sorted(set(verdict.target_entity), key=len, reverse=True):
        out = out.replace(word, f"[[{word}]]", 1)
    return out


def _allocate(sizes: dict[tuple, int], n: int) -> dict[tuple, int]:
    """n draws over strata, proportional to size (largest remainder), each stratum at most its size."""
    total = sum(sizes.values())
    if n >= total:
        return dict(sizes)
    quotas = {k: n * v / total for k, v in sizes.items()}
    alloc = {k: int(q) for k, q in quotas.items()}
    for k in sorted(quotas, key=lambda k: quotas[k] - alloc[k], reverse=True)[: n - sum(alloc.values())]:
        alloc[k] += 1
    return alloc


def sample(results: Sequence[GenderResult], n: int, seed: int = 13) -> list[dict[str, str]]:
    """A stratified sample of ``n`` items across (system, language, verdict) strata."""
    check_int(n, "n")
    check_int(seed, "seed")
    strata: dict[tuple, list[tuple[GenderResult, GenderVerdict]]] = defaultdict(list)
    for result in results:
        for verdict in result.verdicts:
            strata[(result.system, result.lang, verdict.correct)].append((result, verdict))
    rng = random.Random(seed)
    rows = []
    for key, k in sorted(_allocate({k: len(v) for k, v in strata.items()}, n).items(), key=str):
        for result, verdict in rng.sample(strata[key], k):
            rows.append({
                "suite": result.suite, "lang": result.lang, "system": result.system, "index": str(verdict.index),
                "source": verdict.source, "entity": verdict.entity, "translation_marked": mark_words(verdict),
                "target_entity": " ".join(verdict.target_entity), "predicted_gender": verdict.predicted_gender,
                "gold_gender": verdict.gold_gender, "verdict": "correct" if verdict.correct else "wrong",
                **{c: "" for c in HUMAN_COLUMNS},
            })
    rng.shuffle(rows)  # so the person does not see the strata in order
    for i, row in enumerate(rows, start=1):
        row["id"] = str(i)
    return rows


def write_sample(path: str | Path, rows: Sequence[dict[str, str]]) -> None:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_text_atomic(path, buffer.getvalue())


def read_filled(path: str | Path) -> list[dict[str, str]]:
    """Rows of a filled sample; every human answer must be yes or no (the note may stay empty)."""
    header, reader = csv_rows(path)
    missing = [c for c in COLUMNS[:-1] if c not in header]
    if missing:
        raise InputError(f"not a discotest validation sample: missing column(s) {', '.join(missing)}", path, 1)
    rows = []
    for line, row in reader:
        if None in row:
            raise InputError("more cells than columns", path, line)
        if None in row.values():
            raise InputError("fewer cells than columns", path, line)
        for column in ("aligned_word_correct", "gender_correct"):
            value = (row.get(column) or "").strip().lower()
            if value not in (YES, NO):
                what = "empty" if not value else f"{value!r}"
                raise InputError(f"{column} is {what}: answer yes or no", path, line)
            row[column] = value
        if row["verdict"] not in ("correct", "wrong"):
            raise InputError(f"verdict must be correct or wrong, found {row['verdict']!r}", path, line)
        rows.append(row)
    if not rows:
        raise InputError("no rows to score", path)
    return rows


@dataclass(frozen=True)
class ValidationScores:
    """Per language, the person's judgement of the automatic reading (percentages of the sample).

    ``correct`` is the agreement of the pipeline with the person: the aligned word is the entity and
    its gender was read right, so the item's automatic verdict against the gold stands.
    """

    lang: str
    n: int
    alignment_errors: float  # the aligned word is not the entity
    gender_errors: float  # right word, wrong gender read
    correct: float  # right word, right gender
    wrong_verdicts_explained: float  # share of the "wrong" verdicts that are the pipeline's own errors

    def to_json(self) -> dict:
        return {k: round(v, 2) if isinstance(v, float) else v for k, v in self.__dict__.items()}


def score(rows: Sequence[dict[str, str]]) -> list[ValidationScores]:
    """Scores per language and over all rows (lang ``all``)."""
    by_lang: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        by_lang[row["lang"]].append(row)
        by_lang["all"].append(row)
    out = []
    for lang in sorted(by_lang, key=lambda k: (k == "all", k)):
        group = by_lang[lang]
        n = len(group)
        align_bad = sum(r["aligned_word_correct"] == NO for r in group)
        gender_bad = sum(r["aligned_word_correct"] == YES and r["gender_correct"] == NO for r in group)
        wrong = [r for r in group if r["verdict"] == "wrong"]
        explained = sum(r["aligned_word_correct"] == NO or r["gender_correct"] == NO for r in wrong)
        out.append(ValidationScores(
            lang, n, 100 * align_bad / n, 100 * gender_bad / n, 100 * (n - align_bad - gender_bad) / n,
            100 * explained / len(wrong) if wrong else 0.0,
        ))
    return out


def render_scores(scores: Sequence[ValidationScores]) -> str:
    header = f"{'lang':<5} {'n':>4} {'align err%':>10} {'gender err%':>11} {'correct%':>9} {'wrong by pipeline%':>18}"
    lines = [header, "-" * len(header)]
    for s in scores:
        lines.append(f"{s.lang:<5} {s.n:>4} {s.alignment_errors:>10.1f} {s.gender_errors:>11.1f} "
                     f"{s.correct:>9.1f} {s.wrong_verdicts_explained:>18.1f}")
    lines.append("correct% = the person agrees with the automatic reading; wrong by pipeline% = share of the "
                 "'wrong' verdicts caused by an alignment or gender-reading error")
    return "\n".join(lines)
