"""Human validation of the gender pipeline (Yehudai et al. 2023, Table 10; Stanovsky et al. 2019, §4).

``sample`` draws a stratified sample of per-item verdicts (by system, language and verdict) into a
CSV a person can fill in; ``score`` reads the filled CSV back and reports, per verdict type and
language, alignment errors, gender-reading errors and correct items, and the agreement (Cohen's κ,
Gwet's AC1, Krippendorff's α with bootstrap intervals) between the tool and the person on labels both
give, and between two people when the sheet has a second annotator's ``_2`` columns.

A verdict type is one entry of ``VERDICT_TYPES``: which items it covers, the sheet cells it adds, the
column holding the tool's label and the column where the person writes theirs. The yes/no questions
alone cannot measure agreement (the tool always says its own reading is right), so each type asks the
person for a label of the same kind as the tool's.
"""

from __future__ import annotations

import csv
import io
import random
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from discotest.atomic import write_text_atomic
from discotest.data.readers import csv_rows
from discotest.errors import InputError
from discotest.gender.judge import GenderVerdict
from discotest.gender.result import GenderResult
from discotest.stats import DEFAULT_SEED, AgreementCI, bootstrap_agreement, observed_agreement
from discotest.values import check_int

SYSTEM_COLUMNS = [
    "id", "suite", "lang", "system", "index", "source", "entity", "translation_marked", "target_entity",
    "predicted_gender", "gold_gender", "verdict",
]
HUMAN_COLUMNS = ["aligned_word_correct", "gender_correct", "note"]
COLUMNS = SYSTEM_COLUMNS + HUMAN_COLUMNS  # a sheet from before verdict types: still readable, as a noun sheet
YES, NO = "yes", "no"
YES_NO = ("aligned_word_correct", "gender_correct")
GENDERS = ("male", "female", "neutral", "unknown")
SECOND = "_2"  # suffix of a second annotator's columns
STATISTICS = ("kappa", "ac1", "alpha")


@dataclass(frozen=True)
class VerdictType:
    """What a sheet validates: one row of ``VERDICT_TYPES``."""

    name: str
    question: str  # what the person writes in ``person_column``
    # the type's own cells, "verdict" included; None: the item has no verdict of this type
    cells: Callable[[GenderVerdict], dict[str, str] | None]
    extra_columns: tuple[str, ...]  # the columns ``cells`` fills besides SYSTEM_COLUMNS
    tool_column: str  # the sheet column holding the tool's label
    person_column: str  # where the person writes the same kind of label
    labels: tuple[str, ...]  # the answers ``person_column`` accepts
    verdicts: tuple[str, str]  # the verdict column's values: (the tool is right / agrees, wrong / disagrees)
    # the person's verdict from a filled row (noun: their gender == gold); None when the label is the verdict itself
    person_verdict: Callable[[dict[str, str]], str] | None
    measure: tuple[str, ...]  # what the gender run must measure
    person_required: bool = True  # False for noun: sheets from before person_gender existed stay readable
    run_verdict: str = "noun"  # the gender run's --verdict (reader: conveyed_gender is read)


def _noun_cells(v: GenderVerdict) -> dict[str, str]:
    return {"verdict": "correct" if v.correct else "wrong"}


def _consistency_cells(v: GenderVerdict) -> dict[str, str] | None:
    if v.consistent is None:  # omitted: the target does not show the pronoun's gender, nothing to judge
        return None
    return {
        "verdict": "agree" if v.consistent else "disagree", "pronoun": v.pronoun or "",
        "target_pronoun": " ".join(v.target_pronoun or []), "pronoun_gender": v.pronoun_gender or "",
        "translation_marked": mark_words(v, v.target_pronoun or []),
    }


def _reader_cells(v: GenderVerdict) -> dict[str, str] | None:
    if v.conveyed_gender is None:  # not a reader-level run
        return None
    return {
        "verdict": "correct" if v.conveyed_gender == v.gold_gender else "wrong", "pronoun": v.pronoun or "",
        "target_pronoun": " ".join(v.target_pronoun or []), "conveyed_gender": v.conveyed_gender,
        "conveyed_reason": v.conveyed_reason or "", "translation_marked": mark_words(v, v.target_pronoun or []),
    }


READER_GENDERS = ("male", "female", "neutral", "mixed", "unknown")

VERDICT_TYPES: dict[str, VerdictType] = {
    "noun": VerdictType(
        "noun", "the gender the translation gives the entity's noun (male, female, neutral or unknown)",
        _noun_cells, (), "predicted_gender", "person_gender", GENDERS, ("correct", "wrong"),
        lambda row: "correct" if row["person_gender"] == row["gold_gender"] else "wrong", ("accuracy",),
        person_required=False,
    ),
    "consistency": VerdictType(
        "consistency", "do the [[entity]] and the {{pronoun}} agree in gender in the translation (agree or disagree)",
        _consistency_cells, ("pronoun", "target_pronoun", "pronoun_gender"), "verdict", "person_consistency",
        ("agree", "disagree"), ("agree", "disagree"), None, ("accuracy", "consistency"),
    ),
    "reader": VerdictType(
        "reader", "the gender a reader takes the whole translation to give the entity (male, female, neutral, mixed "
        "or unknown)", _reader_cells, ("pronoun", "target_pronoun", "conveyed_gender", "conveyed_reason"),
        "conveyed_gender", "person_gender", READER_GENDERS, ("correct", "wrong"),
        lambda row: "correct" if row["person_gender"] == row["gold_gender"] else "wrong", ("accuracy", "consistency"),
        run_verdict="reader",
    ),
}


def sheet_columns(kind: VerdictType, annotators: int = 1) -> list[str]:
    """The header of a sheet for ``kind``; a second annotator gets ``_2`` copies of the person's columns."""
    human = [*YES_NO, kind.person_column]
    second = [c + SECOND for c in human] if annotators == 2 else []
    return ["id", "verdict_type", *SYSTEM_COLUMNS[1:], *kind.extra_columns, *human, *second, "note"]


def mark_words(verdict: GenderVerdict, pronoun: Sequence[str] = ()) -> str:
    """The translation with the aligned entity words in [[double brackets]] and pronoun words in {{braces}}.

    Each word is marked once, as a whole word (so "er" is not marked inside "Der"); a word found only inside
    another one (a tokeniser split) is marked there."""
    out = verdict.translation
    marks = {**{w: "{{" + w + "}}" for w in pronoun}, **{w: f"[[{w}]]" for w in verdict.target_entity}}
    for word in sorted(marks, key=len, reverse=True):
        whole = re.compile(rf"(?<![\w\[{{]){re.escape(word)}(?![\w\]}}])")
        out, found = whole.subn(lambda _, w=word: marks[w], out, count=1)
        if not found:
            out = out.replace(word, marks[word], 1)
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


def sample(results: Sequence[GenderResult], n: int, seed: int = 13, verdict_type: str = "noun",
           annotators: int = 1) -> list[dict[str, str]]:
    """A stratified sample of ``n`` items across (system, language, verdict) strata, for one verdict type.

    Items without a verdict of that type (consistency: omitted items) are not sampled."""
    check_int(n, "n")
    check_int(seed, "seed")
    kind = verdict_kind(verdict_type)
    columns = sheet_columns(kind, annotators)
    strata: dict[tuple, list[tuple[GenderResult, GenderVerdict, dict[str, str]]]] = defaultdict(list)
    for result in results:
        for verdict in result.verdicts:
            cells = kind.cells(verdict)
            if cells is not None:
                strata[(result.system, result.lang, cells["verdict"])].append((result, verdict, cells))
    rng = random.Random(seed)
    rows = []
    for key, k in sorted(_allocate({k: len(v) for k, v in strata.items()}, n).items(), key=str):
        for result, verdict, cells in rng.sample(strata[key], k):
            row = {c: "" for c in columns}
            row.update({
                "verdict_type": kind.name, "suite": result.suite, "lang": result.lang, "system": result.system,
                "index": str(verdict.index), "source": verdict.source, "entity": verdict.entity,
                "translation_marked": mark_words(verdict), "target_entity": " ".join(verdict.target_entity),
                "predicted_gender": verdict.predicted_gender, "gold_gender": verdict.gold_gender, **cells,
            })
            rows.append(row)
    rng.shuffle(rows)  # so the person does not see the strata in order
    for i, row in enumerate(rows, start=1):
        row["id"] = str(i)
    return rows


def verdict_kind(name: str) -> VerdictType:
    if name not in VERDICT_TYPES:
        raise InputError(f"unknown verdict type {name!r}: one of {', '.join(VERDICT_TYPES)}")
    return VERDICT_TYPES[name]


def write_sample(path: str | Path, rows: Sequence[dict[str, str]], columns: Sequence[str] | None = None) -> None:
    """The sheet as CSV; ``columns`` defaults to the first row's (a noun sheet's when there is none)."""
    buffer = io.StringIO()
    fieldnames = list(columns or (rows[0] if rows else sheet_columns(VERDICT_TYPES["noun"])))
    writer = csv.DictWriter(buffer, fieldnames=fieldnames, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_text_atomic(path, buffer.getvalue())


def _answer(row: dict[str, str], column: str, allowed: Sequence[str], path: str | Path, line: int) -> str:
    value = (row.get(column) or "").strip().lower()
    if value not in allowed:
        what = "empty" if not value else f"{value!r}"
        raise InputError(f"{column} is {what}: answer {' or '.join(allowed)}" if len(allowed) == 2 else
                         f"{column} is {what}: answer one of {', '.join(allowed)}", path, line)
    return value


def read_filled(path: str | Path) -> list[dict[str, str]]:
    """Rows of a filled sample, answers checked and lower-cased.

    The yes/no questions must be answered on every row. A person's label column (and every ``_2`` column) is
    either filled on every row of its verdict type or left empty on all of them (then it is not scored); a
    sheet without ``verdict_type`` is a noun sheet.
    """
    header, reader = csv_rows(path)
    missing = [c for c in COLUMNS[:-1] if c not in header]
    if missing:
        raise InputError(f"not a discotest validation sample: missing column(s) {', '.join(missing)}", path, 1)
    rows, lines = [], []
    for line, row in reader:
        if None in row:
            raise InputError("more cells than columns", path, line)
        if None in row.values():
            raise InputError("fewer cells than columns", path, line)
        name = (row.get("verdict_type") or "noun").strip()
        if name not in VERDICT_TYPES:
            raise InputError(f"unknown verdict_type {name!r}: one of {', '.join(VERDICT_TYPES)}", path, line)
        kind = VERDICT_TYPES[name]
        row["verdict_type"] = name
        for column in YES_NO:
            row[column] = _answer(row, column, (YES, NO), path, line)
        if row["verdict"] not in kind.verdicts:
            raise InputError(f"verdict must be {' or '.join(kind.verdicts)}, found {row['verdict']!r}", path, line)
        if kind.person_required and kind.person_column not in header:
            raise InputError(f"a {name} sheet needs the column {kind.person_column}", path, 1)
        rows.append(row)
        lines.append(line)
    if not rows:
        raise InputError("no rows to score", path)
    _check_label_columns(path, header, rows, lines)
    return rows


def _check_label_columns(path: str | Path, header: Sequence[str], rows: list[dict[str, str]],
                         lines: list[int]) -> None:
    """Per verdict type, each label column filled everywhere (answers checked) or nowhere (then dropped)."""
    for name, kind in VERDICT_TYPES.items():
        of_type = [(row, line) for row, line in zip(rows, lines) if row["verdict_type"] == name]
        checks = [(kind.person_column, kind.labels, kind.person_required),
                  (kind.person_column + SECOND, kind.labels, False),
                  *((c + SECOND, (YES, NO), False) for c in YES_NO)]
        for column, allowed, required in checks:
            if column not in header or not of_type:
                continue
            filled = [bool((row.get(column) or "").strip()) for row, _ in of_type]
            if not any(filled) and not required:
                for row, _ in of_type:
                    row.pop(column, None)
                continue
            for row, line in of_type:
                row[column] = _answer(row, column, allowed, path, line)


@dataclass(frozen=True)
class Agreement:
    """κ, AC1 and α of one comparison (tool vs person or person vs person) over the rows both labelled."""

    compared: str  # e.g. "tool~person predicted_gender/person_gender"
    n: int
    observed: float | None  # share of identical labels
    kappa: AgreementCI
    ac1: AgreementCI
    alpha: AgreementCI

    def to_json(self) -> dict:
        return {"compared": self.compared, "n": self.n,
                "observed": None if self.observed is None else round(self.observed, 4),
                **{name: getattr(self, name).to_json() for name in STATISTICS}}


def agreement(compared: str, pairs: Sequence[tuple[str, str]], n_samples: int = 1000,
              seed: int | None = DEFAULT_SEED) -> Agreement:
    units = [tuple(p) for p in pairs]
    cis = {name: bootstrap_agreement(name, units, n_samples, seed) for name in STATISTICS}
    return Agreement(compared, len(units), observed_agreement([u[0] for u in units], [u[1] for u in units]),
                     **cis)


@dataclass(frozen=True)
class ValidationScores:
    """Per verdict type and language, the person's judgement of the automatic reading (percentages of the
    sample) and the agreement statistics.

    ``correct`` is the agreement of the pipeline with the person: the aligned word is the entity and
    its gender was read right, so the item's automatic verdict against the gold stands.
    """

    lang: str
    n: int
    alignment_errors: float  # the aligned word is not the entity
    gender_errors: float  # right word, wrong gender read
    correct: float  # right word, right gender
    wrong_verdicts_explained: float  # share of the "wrong" verdicts that are the pipeline's own errors
    verdict_type: str = "noun"
    agreement: tuple[Agreement, ...] = ()
    notes: tuple[str, ...] = field(default=())  # why an agreement is not reported

    def to_json(self) -> dict:
        out = {k: round(v, 2) if isinstance(v, float) else v for k, v in self.__dict__.items()
               if k not in ("agreement", "notes")}
        return {**out, "agreement": [a.to_json() for a in self.agreement], "notes": list(self.notes)}


def _comparisons(kind: VerdictType, group: Sequence[dict[str, str]], n_samples: int,
                 seed: int | None) -> tuple[list[Agreement], list[str]]:
    """Tool vs person (label, and verdict when it differs from the label) and person vs person."""
    found, notes = [], []
    person = kind.person_column
    if all(person in r for r in group):
        found.append(agreement(f"tool~person {kind.tool_column}/{person}",
                               [(r[kind.tool_column], r[person]) for r in group], n_samples, seed))
        if kind.person_verdict is not None:
            found.append(agreement(f"tool~person verdict/{person}",
                                   [(r["verdict"], kind.person_verdict(r)) for r in group], n_samples, seed))
    else:
        notes.append(f"tool~person: n/a, {person} is not filled; the yes/no answers cannot measure it (the tool "
                     f"always says its own reading is right, so kappa/AC1/alpha would be degenerate): see correct%")
    for column in (person, *YES_NO):
        if all(column in r and column + SECOND in r for r in group):
            found.append(agreement(f"person~person {column}", [(r[column], r[column + SECOND]) for r in group],
                                   n_samples, seed))
    return found, notes


def score(rows: Sequence[dict[str, str]], n_samples: int = 1000, seed: int | None = DEFAULT_SEED
          ) -> list[ValidationScores]:
    """Scores per verdict type and language, and per verdict type over all rows (lang ``all``)."""
    groups: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        kind = row.get("verdict_type", "noun")
        groups[(kind, row["lang"])].append(row)
        groups[(kind, "all")].append(row)
    out = []
    for kind_name, lang in sorted(groups, key=lambda k: (list(VERDICT_TYPES).index(k[0]), k[1] == "all", k[1])):
        kind = VERDICT_TYPES[kind_name]
        group = groups[(kind_name, lang)]
        n = len(group)
        align_bad = sum(r["aligned_word_correct"] == NO for r in group)
        gender_bad = sum(r["aligned_word_correct"] == YES and r["gender_correct"] == NO for r in group)
        wrong = [r for r in group if r["verdict"] == kind.verdicts[1]]
        explained = sum(r["aligned_word_correct"] == NO or r["gender_correct"] == NO for r in wrong)
        found, notes = _comparisons(kind, group, n_samples, seed)
        out.append(ValidationScores(
            lang, n, 100 * align_bad / n, 100 * gender_bad / n, 100 * (n - align_bad - gender_bad) / n,
            100 * explained / len(wrong) if wrong else 0.0, kind_name, tuple(found), tuple(notes),
        ))
    return out


def render_scores(scores: Sequence[ValidationScores]) -> str:
    header = (f"{'type':<11} {'lang':<5} {'n':>4} {'align err%':>10} {'gender err%':>11} {'correct%':>9} "
              f"{'wrong by pipeline%':>18}")
    lines = [header, "-" * len(header)]
    for s in scores:
        lines.append(f"{s.verdict_type:<11} {s.lang:<5} {s.n:>4} {s.alignment_errors:>10.1f} {s.gender_errors:>11.1f} "
                     f"{s.correct:>9.1f} {s.wrong_verdicts_explained:>18.1f}")
    lines.append("correct% = the person agrees with the automatic reading; wrong by pipeline% = share of the "
                 "'wrong' (consistency: 'disagree') verdicts caused by an alignment or gender-reading error")
    rows = [(s, a) for s in scores for a in s.agreement]
    if rows:
        first = rows[0][1].kappa
        lines += ["", f"agreement (95% bootstrap percentile interval, {first.n_samples} resamples of the items, "
                      f"seed {first.seed}; n/a = undefined, e.g. one label only)"]
        head = (f"{'type':<11} {'lang':<5} {'compared':<44} {'n':>4} {'same%':>6} {'kappa':>19} {'AC1':>19} "
                f"{'alpha':>19}")
        lines += [head, "-" * len(head)]
        for s, a in rows:
            same = "n/a" if a.observed is None else f"{100 * a.observed:.1f}"
            lines.append(f"{s.verdict_type:<11} {s.lang:<5} {a.compared:<44} {a.n:>4} {same:>6} "
                         f"{a.kappa.format():>19} {a.ac1.format():>19} {a.alpha.format():>19}")
    for s in scores:
        for note in s.notes:
            lines.append(f"{s.verdict_type} {s.lang}: {note}")
    return "\n".join(lines)


def sample_sheet(suite: str, lang: str, output: str | Path, *, system: str | None = None, input: str | None = None,
                 verdict: str = "noun", annotators: int = 1, n: int = 50, seed: int = 13, jobs: int | None = None,
                 data_dir: str | None = None, quiet: bool = False) -> tuple[int, VerdictType]:
    """``discotest validate sample``: a stratified sample of one kind of verdict, from published outputs
    (``system``) or the user's own translations (``input``, one language), written to ``output`` as a CSV for a
    person to fill. Returns the rows written and the verdict type (its question for the person)."""
    from discotest.gender.run import planned_pairs, run_many, run_one
    from discotest.progress import progress_bar
    from discotest.registry import lang_codes, split_list

    kind = verdict_kind(verdict)
    if (system is None) == (input is None):
        raise InputError("validate sample: give --system (published outputs) or --input (your translations)")
    if input is not None:
        langs = lang_codes(lang)
        if not isinstance(langs, list) or len(langs) != 1:
            raise InputError("validate sample --input needs exactly one --lang")
        results = [run_one(suite, lang=langs[0], input=input, measure=kind.measure, verdict=kind.run_verdict,
                           data_dir=data_dir)]
    else:
        total = sum(map(len, planned_pairs(suite, lang_codes(lang), split_list(system)).values()))
        with progress_bar("system×language pairs", "pair", total=total, quiet=quiet) as bar:
            results = run_many(suite, lang_codes(lang), split_list(system), jobs=jobs, progress=bar.update,
                               measure=kind.measure, verdict=kind.run_verdict, data_dir=data_dir)
    rows = sample(results, n, seed, kind.name, annotators)
    write_sample(output, rows, sheet_columns(kind, annotators))
    return len(rows), kind
