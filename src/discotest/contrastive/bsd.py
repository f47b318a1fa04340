"""A Japanese→English zero-pronoun suite from real dialogue: the Business Scene Dialogue corpus (BSD, Rikters et al.
2019), built as Shimazu et al. (2020) built theirs.

An item is an English sentence whose personal pronoun the Japanese sentence does not say; its incorrect candidate
replaces that pronoun (and only it, with its case and agreement): the speaker and the listener exchanged (I ↔ you,
``person.swap_persons``) or he ↔ she (``build.swap_chain``). Who "I" and "you" are comes from the speaker fields; a
third person's gender from the nearest earlier turn that shows it. The context is the previous turns, both
languages, each as ``speaker: sentence``. The distance d is the number of turns back to what decides the pronoun:
0 for "I" (the current turn's speaker), the previous turn of the person addressed for "you" (the nearest earlier
speaker, or the one the sentence names), the nearest turn that shows the third person's gender for he/she (a title
before a speaker's name, "Absolutely Mr. Brown", is not the third person's).

An item whose incorrect candidate makes one person the subject and the object of a clause ("great to meet me",
"wanted you to tell you"), says "Let you …" or another form a swap makes wrong anywhere ("I'm very welcome", "Thanks
for my advice", "you … and was coughing": ``person.stands_wrong_alone``), or a he/she decided by a title in its own
sentence (d = 0: "Mr. Sugimoto … her son"; rules5) is wrong without context: it is kept, marked
``context_needed: false``, and its distance is reported apart (``d=0 no context needed``).

What a swap would not make wrong, or what the Japanese says, is left out by the rules of ``leave_out``,
``generic_reading``, ``other_listener``, ``audience`` and ``third_person`` (docs/contrastive.md lists them; the
suite's version names the rule set: rules6 since issue 51's round 8: a listener called by name in the speaker's own
previous turn or pointed at, a third person the sentence names, advice 〜た方がいい that names no one). The suite is
built from the corpus files each time it is loaded (4,171 sentence pairs, well under a second): nothing is stored
but the corpus, whose sha256 the registry pins.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from pathlib import Path

from discotest.contrastive.build import swap_chain
from discotest.contrastive.person import PLURAL_YOU, Unswappable, chains, stands_wrong_alone, swap_persons
from discotest.data.contrastive_item import ContrastiveItem, candidate_pair, make_item
from discotest.data.readers import check_type, require
from discotest.errors import InputError

DEFAULT_CONTEXT = 3  # previous turns kept when --context asks for fewer (Shimazu et al.'s 3 sentences)
JA_FIRST = ("私", "わたし", "わたくし", "僕", "ぼく", "俺", "おれ", "自分", "あたし", "小生")
JA_PLURAL = re.compile(r"(私|わたし|わたくし|僕|ぼく|俺|おれ|あたし)(たち|達|ども|共|ら)|我々|われわれ|"
                       r"私立|私用|私物|私的")
JA_EVERYONE = ("皆さん", "皆様", "みなさん", "みなさま")  # said to everyone: a plural "you"
JA_SECOND = ("あなた", "貴方", "君", "きみ", "お前", "おまえ", "あんた", "貴様", "御社", "貴社", "そちら", "お宅")
JA_THIRD = ("彼", "あの人", "その人", "この人", "あの方", "その方", "この方")
JA_NAMED = ("さん", "様", "氏", "先生", "部長", "課長", "社長", "くん", "ちゃん")  # a person named in the Japanese
# a "you" that means anyone (Japanese says no one): fillers, set phrases, a rule said to anyone
GENERIC_YOU = re.compile(r"(?:^|[,;:.!?]\s*)you (?:know|see)(?:\s*[,.!?]|$)|,\s*you (?:know|see)\b|"
                         r"\byou never know\b|\byou name it\b|\byou bet\b|\bif you ask me\b|\bwhenever you\b|"
                         r"\bwhen you think about it\b|"
                         # "you got it" (will do) answers as well as "I got it"; a habit or a rule of anyone:
                         # "sometimes you just want …", "people expect you to …", "a rule that you're forced …"
                         r"\byou got it\b|\b(?:sometimes|once in a while|usually|often|always) you\b|"
                         r"\bpeople (?:\w+ )?(?:expect|want|make|force|tell|ask)s? you\b|"
                         r"\b(?:rule|custom|tradition) (?:is )?that you\b|"
                         # "You know she comes off as …" reads as the filler "you know, …" unless it asks ("…, right?")
                         r"^(?:\W*\w+,\s+)?you know (?!what\b)(?![^?]*\b(?:right|don't you|didn't you|isn't it)\W*$)",
                         re.IGNORECASE)
GENERIC_SCENES = ("training", "presentation")  # where "you can/should/if you …" is an instruction to anyone
AUDIENCE_SCENES = ("presentation",)  # where a "you" is said to everyone listening (rules5, ``audience``)
MODAL_YOU = re.compile(r"\b(?:you(?:'ll| will| can| could| should| must| may| might| have to| need to| would)|"
                       r"(?:if|when|once|unless|as long as) you)\b", re.IGNORECASE)
# a "you" that can mean anyone in either candidate: "you can see …", "you get to …", "you'll need …" read as a
# general truth, so the swap would not be wrong (the Japanese of such sentences is impersonal: 〜できる, 〜が必要)
GENERIC_MODAL = re.compile(r"\byou(?:'ll|'d| will| would| really| probably| just| also| still| never| always)?"
                           r" (?:can|can't|cannot|could|couldn't|need|needs|have to|has to|get to|should|shouldn't)\b|"
                           # rules5: what anyone is supposed to do ("Is this how you are supposed to work?")
                           r"\b(?:you(?:'re| are| were)?|are you|were you) supposed? to\b",
                           re.IGNORECASE)  # "you should keep your options open": advice to anyone
# idioms whose "you" or "me" is anyone's: "lens alone won't get you anywhere", "it makes you wonder"
GENERIC_IDIOM = re.compile(r"\b(?:get|gets|got|getting|take|takes|took) (?:you|me) (?:anywhere|nowhere)\b|"
                           r"\bmakes? (?:you|me) (?:think|wonder|feel)\b|\bbefore (?:you|I) know it\b|"
                           r"\b(?:you|I) would have had to\b|"  # what anyone would have had to do back then
                           # rules5: "all you have to do is …", "all you had to do was …" (anyone's procedure)
                           r"\ball (?:you|I) (?:had|have|need|needed) to do\b",
                           re.IGNORECASE)
# a clause of condition or time ("if you accidentally choose one …", "when I move the mouse, …"); "if" after a verb
# of knowing or asking is "whether", "that's when …" a time named, "what if …" a proposal, "is it ok if …" a request
CONDITION = re.compile(r"\b(?:if|when|whenever|once|unless) (?:I|you)\b", re.IGNORECASE)
NOT_CONDITION = re.compile(r"\b(?:sure|wonder|wondering|wondered|know|knew|see|ask|asked|asking|check|tell|find out|"
                           r"say|said|told|what|that's|that is|was|is|from|since|than|remember|decide|"
                           r"ok|okay|alright|all right|"
                           r"fine|mind|possible|better|best|appreciate|appreciated|grateful|nice|great|good|helpful)"
                           r"\W*$", re.IGNORECASE)
# an impersonal "it is … to": "It's really a hassle to have your time committed to the company" (anyone's time)
IMPERSONAL_TO = re.compile(r"\bit(?:'s| is| was|'ll be| will be| would be)\s+(?:\w+\s+){0,2}?(?:hassle|hard|difficult|"
                           r"tough|easy|nice|good|great|annoying|boring|fun|important|necessary|pain|impossible|"
                           r"possible|better|best|helpful|useful|convenient|inconvenient|stressful|tiring) to\b",
                           re.IGNORECASE)
OTHER_PEOPLE = re.compile(r"\b(?:we|us|our|ours|ourselves|let's)\b", re.IGNORECASE)
# what the Japanese says only to the listener: honorifics of the listener's doing, requests, offers (見ていただければ,
# お求めになると, よかったら): a sentence with one of them is said to someone, not of anyone
JA_ADDRESSEE = re.compile(r"いただ|頂|くださ|下さ|なさ|召し上が|いらっしゃ|おっしゃ|ご覧|お越し|お求め|ご利用|ご自分|"
                          r"よかったら|良かったら|よければ|良ければ|よろしければ|宜しければ|お.{1,4}になる|ご.{1,4}になる|"
                          r"ませんか|てくれ|てね|なさい")
# the Japanese says what happens to anyone now and then or tends to be:
# びっくりすることある, すがりたい時もある, 偏りがちです
JA_GENERIC = re.compile(r"(?:る|い)(?:こと|時|とき)も?ある|がち(?:だ|です|な|で)")
# rules5: the Japanese asks how one does it, not what one should do: どうしたらそうなれるの ("How do you/I do that?")
JA_HOW = re.compile(r"どう(?:したら|すれば|やったら|やれば)")
# rules5: a proposal that names no one who acts (ジェイミーに頼んで…してもらったらどうだろう): "What if I ask Jaime"
# and "What if you ask Jaime" are both right
PROPOSAL = re.compile(r"\bwhat if (?:I|you)\b", re.IGNORECASE)
JA_PROPOSAL = re.compile(r"(?:たら|れば|ては|では)どう")
# rules5: a clause of concession with no person (クリックしても何もおこらない "I try to click …, but nothing
# happens"): the one who tries is anyone; とても (very) is no such clause
JA_CONCESSIVE = re.compile(r"(?:(?<!と)て|[んい]で)も(?!ら|いい|よ|良|大丈夫|かま|構)")
BUT = re.compile(r",?\s+but\b", re.IGNORECASE)
# rules5: the Japanese asks whether a thing is (音漏れの心配は無いんでしょうか): the English person is the translator's
JA_IS_THERE = re.compile(r"(?:心配|必要|恐れ|おそれ|可能性|問題)(?:は|が|も)?(?:無い|ない|ありません|ある|あります)"
                         r"(?:ん|の)?(?:でしょうか|ですか|か|\?|？)")
# the Japanese asks what one should do: どうしたらいい, どこから始めればよい, どこを見たら分かります
JA_HOW_TO = re.compile(r"(?:どう|どこ|何|なに|いつ|どれ|誰|どの).*"
                       r"(?:たら|れば|ば)(?:いい|良い|よい|よろしい|分か|わか)")
# rules6: advice whose Japanese names no one who acts (やめた方がいいよ, 変更してもらった方がいい？): the English "I'd
# avoid …", "why don't you reschedule …" picks a person the Japanese leaves open, and the swap ("You'd avoid …", "why
# don't I …") is as right. Not 〜たらどう or 〜ませんか, which are said to the listener (確認したらどう？ "Why don't you
# take the paper …" was read valid), nor "I would suggest/say …", the speaker's own act
JA_ADVICE = re.compile(r"(?:た|だ|ない)方が(?:いい|良い|よい|よろしい|良かった|よかった)")
ADVICE = re.compile(r"\b(?:why don't|why not|how about|shall) (?:I|you|me)\b|"
                    r"\b(?:I|you)(?:'d| would| had)(?: (?:probably|rather|really|just|definitely))?"
                    r"(?! (?:like|love|suggest|recommend|advise|say|think|propose|prefer|be glad|be happy)\b)\b",
                    re.IGNORECASE)
# rules6: a listener pointed at, not named (はい、あちらの方。 "Yes, you over there"): a new questioner who may not
# have spoken; no turn says who it is
JA_POINTED = re.compile(r"(?:あちら|そちら|こちら)の方(?:さん)?(?:[、。！？!?]|$)")
HOW_TO = re.compile(r"\b(?:how|what|where|when|which)\b[^?]*\b(?:do|can|could|should|shall|am|are|would|will)"
                    r" (?:I|you)\b(?! (?:suggest|think|recommend|want|mean|propose|say|like|prefer)\b)[^?]*\?",
                    re.IGNORECASE)

THIRD = {"he": "he", "him": "he", "his": "he", "himself": "he", "she": "she", "her": "she", "hers": "she",
         "herself": "she"}
TITLES = {"mr": "he", "mrs": "she", "ms": "she", "miss": "she"}
TITLE_WORDS = {"mr", "mrs", "ms", "miss", "dr", "san"}
QUOTES = ('"', "“", "”", "「", "『")
SPLITS = {"dev", "test"}


def _turns(path: Path) -> list[dict]:
    """The corpus file's scenarios, every field checked; a bad one names the file and scenario."""
    try:
        scenarios = json.loads(path.read_text("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"not a BSD JSON file: {exc}", path) from None
    check_type(scenarios, list, "the BSD file (a list of scenarios)", path)
    for k, scenario in enumerate(scenarios):
        where = f"{path} scenario {k}"
        check_type(scenario, dict, f"scenario {k}", path)
        for name in ("id", "original_language"):
            require(scenario, name, str, where)
        require(scenario, "tag", str, where, default="")
        for turn in require(scenario, "conversation", list, where):
            check_type(turn, dict, "a turn", where)
            for name in ("en_speaker", "ja_speaker", "en_sentence", "ja_sentence"):
                require(turn, name, str, where)
            require(turn, "no", int, where)
            if not turn["en_sentence"].strip():
                raise InputError(f"turn {turn['no']}: empty English sentence", where)
    return scenarios


def _names(ja_speaker: str) -> list[str]:
    """A speaker's names as the Japanese writes them: ベン シャーマンさん -> ベン, シャーマン; 森さん -> 森さん."""
    suffix = re.search(r"(さん|様|氏)$", ja_speaker.strip())
    names = re.sub(r"(さん|様|氏)$", "", ja_speaker.strip()).split()
    # a one-character name (森さん) is matched with its suffix only: 森 alone is also a word (森林)
    return [n if len(n) >= 2 else n + suffix.group(1) for n in names if len(n) >= 2 or suffix]


def leave_out(en: str, ja: str, first: Sequence[int], second: Sequence[int], speaker_names: Sequence[str],
              other_names: Sequence[str], scene: str) -> tuple[bool, bool] | str:
    """Which persons an I/you item swaps (first, second): those the Japanese does not say; or why it is left out.
    The rules, in order (docs/contrastive.md, BSD)."""
    if any(q in en or q in ja for q in QUOTES):
        return "quoted speech (its I and you are someone else's)"
    singular = JA_PLURAL.sub("", ja)  # 私たち is "we", which is not swapped; 私立 is no pronoun
    says_first = bool(first) and (any(p in singular for p in JA_FIRST) or any(n in ja for n in speaker_names))
    says_second = bool(second) and (any(p in ja for p in JA_SECOND) or any(n in ja for n in other_names))
    swap = (bool(first) and not says_first, bool(second) and not says_second)
    if not any(swap):
        return "the Japanese says the speaker or the listener (a pronoun or their name)"
    text = en.replace("’", "'")
    if second and PLURAL_YOU.search(text):
        return "a plural 'you'"
    if second and any(w in ja for w in JA_EVERYONE):
        return "a plural 'you' (the Japanese is said to everyone: 皆さん)"
    if second and GENERIC_YOU.search(text):
        return "a generic 'you' (you know, you never know, whenever you …)"
    if bool(first) != bool(second) and impersonal_clause(text, ja, first or second):
        return "a generic 'you' (a clause of condition or time holds the only person; the Japanese names no listener)"
    if bool(first) != bool(second) and JA_GENERIC.search(ja) and not (
            JA_ADDRESSEE.search(ja) or OTHER_PEOPLE.search(text) or text.rstrip().endswith("?")):
        return "a generic 'you' (the Japanese says what happens to anyone: 〜することある, 〜がちです)"
    if bool(first) != bool(second) and HOW_TO.search(text) and (JA_HOW_TO.search(ja) or JA_HOW.search(ja)):
        return "a generic 'you' (how or what to do: the Japanese asks what one should do, どうしたらいい)"
    if bool(first) != bool(second) and PROPOSAL.search(text) and JA_PROPOSAL.search(ja) and not JA_ADDRESSEE.search(ja):
        return "a person the Japanese leaves open (a proposal: 〜たらどうだろう names no one who acts)"
    if bool(first) != bool(second) and ADVICE.search(text) and JA_ADVICE.search(ja):
        return "a person the Japanese leaves open (advice or a suggestion: 〜た方がいい names no one who acts; rules6)"
    if bool(first) != bool(second) and text.rstrip().endswith("?") and JA_IS_THERE.search(ja) and not (
            JA_ADDRESSEE.search(ja) or OTHER_PEOPLE.search(text)):
        return "a generic 'you' (the Japanese asks whether a thing is: 〜の心配は無いんでしょうか names no one)"
    if second and scene in GENERIC_SCENES and MODAL_YOU.search(text) and not text.rstrip().endswith("?"):
        return "a generic 'you' (an instruction in a training or presentation scene)"
    return swap


def impersonal_clause(text: str, ja: str, persons: Sequence[int]) -> bool:
    """Whether every pronoun of the sentence's one person sits in a clause of condition or time (or after an
    impersonal "it is hard/a hassle … to"), nothing else in the sentence is anyone's (no we), it asks nothing, and
    the Japanese has no word said to the listener: "it would be pretty harsh if you accidentally choose one …",
    "When I move the mouse, the cursor doesn't move." Such a "you" (or the "you" the swap makes of "I") may be
    anyone's, so the swap would not be wrong."""
    if JA_ADDRESSEE.search(ja) or OTHER_PEOPLE.search(text) or text.rstrip().endswith("?"):
        return False  # a question is put to the listener
    tokens = text.split()
    spans = []
    for m in CONDITION.finditer(text):  # the person is the clause's subject: "if you …", "when I …"
        if NOT_CONDITION.search(text[:m.start()]):
            continue
        start = len(text[:m.start()].split())
        end = next((k + 1 for k in range(start, len(tokens))
                    if tokens[k].endswith(",") or tokens[k].lower() == "then"), len(tokens))
        spans.append((start, end))
    spans += [(len(text[:m.end()].split()) - 1, len(tokens)) for m in IMPERSONAL_TO.finditer(text)]
    but = BUT.search(text)
    if but and JA_CONCESSIVE.search(ja):  # rules5: "I try to click …, but nothing happens" (〜しても何もおこらない)
        spans.append((-1, len(text[:but.start()].split())))
    return bool(spans) and all(any(a < i < b for a, b in spans) for i in persons)


def generic_reading(correct: str, incorrect: str) -> bool:
    """Either candidate says a "you" that may mean anyone (a modal of ability or need, a filler "you know"), so the
    swapped candidate might be a right translation too: the item is left out."""
    texts = [t.replace("’", "'") for t in (correct, incorrect)]
    return any(GENERIC_MODAL.search(t) or GENERIC_YOU.search(t) or GENERIC_IDIOM.search(t) for t in texts)


def _gender_signals(en: str, participants: Collection[str] = ()) -> set[str]:
    """Genders an English sentence shows: he/she forms and Mr./Ms./Mrs./Miss before a name. A title before the name
    of someone who has spoken, said to them ("Mr. Takada, thank you", "Absolutely Mr. Brown."), is no signal: a he
    or she is never the listener, so that title shows another person's gender than the pronoun's."""
    words = re.findall(r"[A-Za-z]+", en.replace("’", "'"))
    found = {THIRD[w.lower()] for w in words if w.lower() in THIRD}
    vocative = re.compile(r"^\W*(?:Mr|Mrs|Ms|Miss)\.? ([A-Z][A-Za-z]*)\W*(?: [A-Z][A-Za-z]*)?\s*,"
                          r"|(?:Mr|Mrs|Ms|Miss)\.? ([A-Z][A-Za-z]*)(?: [A-Z][A-Za-z]*)?\W*$")
    said_to = {name for m in vocative.finditer(en.strip()) for name in m.groups() if name in participants}
    found |= {TITLES[w.lower()] for w, nxt in zip(words, words[1:])
              if w.lower() in TITLES and nxt[:1].isupper() and nxt not in said_to}
    return found


def participant_words(en_speakers: Collection[str]) -> set[str]:
    """The names the dialogue's speakers go by in English ("Mr. Joe Brown", "Takada-san" -> Joe, Brown, Takada)."""
    return {w for speaker in en_speakers for w in re.findall(r"[A-Za-z]+", speaker)
            if w[:1].isupper() and len(w) >= 2 and w.lower() not in TITLE_WORDS}


VOCATIVE_FILLERS = {"oh", "hi", "hello", "hey", "dear", "well", "yes", "ok", "okay", "sorry", "um", "uh", "ah"}


def addressed_by_name(en: str, speaker: str, speakers: Collection[str]) -> str | None:
    """The one other speaker (of ``speakers``, English names) whom the sentence calls by name in a phrase of its own
    ("Oh, m-Mori-san, … can you get it?", "…, Kento?"), or None: in a talk of three, the one called is the one
    addressed, not always the last to speak."""
    called = set()
    for part in re.split(r"[,;:.!?]+", en):
        words = [w for w in re.findall(r"[A-Za-z]+", part)
                 if len(w) > 1 and w.lower() not in TITLE_WORDS | VOCATIVE_FILLERS]
        if words:
            called |= {other for other in set(speakers) - {speaker} if set(words) <= participant_words([other])}
    return called.pop() if len(called) == 1 else None


def _names_someone(word: str) -> bool:
    """An English word that names a person: Tanaka-san, or a capitalised word other than I."""
    word = word.strip(".,!?;:()'\"")
    return word.endswith("-san") or (word[:1].isupper() and word not in ("I", "I'm", "I'll", "I've", "I'd"))


def _third_names(words: Sequence[str], participants: Collection[str]) -> set[str]:
    """The names of people who are not speakers in ``words`` (no sentence's first word): a capitalised word that is
    not I, not an acronym ("the IT conference") and not a speaker's name ("Oh right, Keith, you were …")."""
    bare = (re.sub(r"['’]s$", "", w.strip(".,!?;:()'\"“”")) for w in words)
    return {w for w in bare if w[:1].isupper() and not w.isupper() and w not in participants
            and w.lower() not in TITLE_WORDS and not w.startswith("I'")}


def third_person(en: str, ja: str, earlier: Sequence[str],
                 participants: Collection[str] = ()) -> tuple[str, list[int], int] | str:
    """(pronoun, its chain, distance) for a he/she sentence, or why it is left out. ``earlier``: the previous
    English sentences, nearest last; ``participants``: the speakers' names (``participant_words``)."""
    tokens = en.split()
    genders = {}
    for i, token in enumerate(tokens):
        bare = re.sub(r"['’](s|ll|d|ve)$", "", token.lower().strip(".,!?;:)(\"“”"))  # he's, she'll
        if bare in THIRD:
            genders.setdefault(THIRD[bare], []).append(i)
    if len(genders) != 1:
        return "both he and she in the sentence"
    if any(q in en or q in ja for q in QUOTES):
        return "quoted speech"
    if any(p in ja for p in JA_THIRD):
        return "the Japanese says the person (a third-person pronoun)"
    (pronoun, chain), = genders.items()
    before = tokens[:chain[0]]
    if any(p in ja for p in JA_NAMED) and not any(_names_someone(w) for w in before[1:]):
        return "the Japanese names the person where the English says the pronoun"
    own = _gender_signals(" ".join(before), participants)
    if own:
        return (pronoun, chain, 0) if own == {pronoun} else "the sentence names someone of the other gender first"
    named = _third_names(before[1:], participants)
    if named:  # rules6: "covering for Mark while he's off": the turn that decides is one that names Mark
        for back, sentence in enumerate(reversed(earlier), 1):
            if named & set(re.findall(r"[A-Za-z]+", sentence)) and _gender_signals(sentence, participants) == {pronoun}:
                return pronoun, chain, back
        return "a third person named in the sentence whose gender no earlier turn shows with the name (rules6)"
    for back, sentence in enumerate(reversed(earlier), 1):
        shown = _gender_signals(sentence, participants)
        if shown:
            return (pronoun, chain, back) if shown == {pronoun} else "the nearest gendered turn does not decide it"
    return "the dialogue never shows the referent's gender"


def _line(speaker: str, sentence: str, sep: str) -> str:
    return f"{speaker}{sep}{sentence}"


def load_bsd(path: str | Path, split: str, context_size: int = 0) -> list[ContrastiveItem]:
    """The items of one BSD file (``split``: dev or test), in corpus order, with ``max(context_size, 3)`` previous
    turns of context."""
    path = Path(path)
    keep = max(context_size, DEFAULT_CONTEXT)
    items: list[ContrastiveItem] = []
    for scenario in _turns(path):
        turns = scenario["conversation"]
        for t, turn in enumerate(turns):
            for row in _rows_of(scenario, turns, t):
                ctx = turns[max(0, t - keep):t]
                items.append(make_item(
                    len(items), src=_line(turn["ja_speaker"], turn["ja_sentence"], "："),
                    correct=row["correct"], incorrect=[row["incorrect"]],
                    src_context=tuple(_line(c["ja_speaker"], c["ja_sentence"], "：") for c in ctx),
                    tgt_context=tuple(_line(c["en_speaker"], c["en_sentence"], ": ") for c in ctx),
                    phenomenon=f"zero-pronoun:{row['pronoun']}", distance=row["distance"],
                    pair=candidate_pair(row["correct"], row["incorrect"]),
                    meta={"id": f"{scenario['id']}#{turn['no']}{row['suffix']}", "split": split,
                          "original_language": scenario["original_language"], "scene": scenario["tag"],
                          "speaker": turn["en_speaker"], "pronoun": row["pronoun"],
                          **({} if row["context_needed"] else {"context_needed": False})},
                    where=str(path)))
    if not items:
        raise InputError("no zero-pronoun items in the BSD file", path)
    return items


LISTENER_WINDOW = 2  # turns before the nearest other speaker's in which a third person makes the listener unclear


def other_listener(turns: Sequence[dict], t: int, addressed: int) -> bool:
    """Whether, in a talk of three or more, someone other than the speaker and the nearest other speaker spoke within
    ``LISTENER_WINDOW`` turns before that one: then the "you" may be either (Mori turns back to the caller on the
    phone after a word with a colleague; Vaughn asks Kosugi about his patents after Ko's "That is a lot!"), and the
    distance would name one of them by guess."""
    speaker, nearest = turns[t]["en_speaker"], turns[t - addressed]["en_speaker"]
    window = turns[max(0, t - addressed - LISTENER_WINDOW):t - addressed]
    return any(u["en_speaker"] not in (speaker, nearest) for u in window)


def audience(scenario: dict, turns: Sequence[dict], en: str) -> bool:
    """rules5: in a presentation with three or more people, a "you" that asks nothing is said to the audience, some of
    whom may not have spoken yet ("Product A can organize your contacts" is the clients', not the co-presenter's who
    spoke last; "You, on the front row"), so no turn says who it is; a question is put to one person and answered."""
    return (scenario["tag"] in AUDIENCE_SCENES and len({u["en_speaker"] for u in turns}) >= 3
            and not en.rstrip().endswith("?"))


def _rows_of(scenario: dict, turns: list[dict], t: int) -> list[dict]:
    """The items one turn gives: its I/you item and its he/she item, each when no rule leaves it out."""
    turn = turns[t]
    en, ja = turn["en_sentence"].strip(), turn["ja_sentence"]
    out = []
    first, second = chains(en)
    if first or second:
        speaker = turn["en_speaker"]
        others = sorted({n for u in turns if u["en_speaker"] != speaker for n in _names(u["ja_speaker"])})
        speakers = {u["en_speaker"] for u in turns}
        named = addressed_by_name(en, speaker, speakers)
        own_previous = t > 0 and turns[t - 1]["en_speaker"] == speaker
        if named is None and own_previous:  # rules6: "Oh, Okada-san." / "Did you get …?" is said to Okada
            named = addressed_by_name(turns[t - 1]["en_sentence"].strip(), speaker, speakers)
        pointed = JA_POINTED.search(ja) or (own_previous and JA_POINTED.search(turns[t - 1]["ja_sentence"]))
        addressed = next((back for back in range(1, t + 1) if turns[t - back]["en_speaker"] != speaker
                          and named in (None, turns[t - back]["en_speaker"])), None)
        swap = leave_out(en, ja, first, second, _names(turn["ja_speaker"]), others, scenario["tag"])
        if not isinstance(swap, str) and swap[1] and pointed:
            swap = "the listener is pointed at, not named (あちらの方: no turn says who it is; rules6)"
        elif not isinstance(swap, str) and swap[1] and addressed is None:
            swap = "the listener has not spoken yet (nothing before says who 'you' is)"
        elif not isinstance(swap, str) and swap[1] and named is None and other_listener(turns, t, addressed):
            swap = "the listener is not clear (in a talk of three or more, another person spoke just before)"
        elif not isinstance(swap, str) and swap[1] and audience(scenario, turns, en):
            swap = "the listener is an audience (a presentation to three or more: not the last to speak)"
        if not isinstance(swap, str):
            try:
                incorrect = swap_persons(en, *swap)
            except Unswappable:
                incorrect = None
            if incorrect is not None and generic_reading(en, incorrect):
                incorrect = None
            if incorrect is not None and incorrect != en:
                pronoun = "+".join(p for p, swapped in zip(("I", "you"), swap) if swapped)
                out.append({"correct": en, "incorrect": incorrect, "pronoun": pronoun, "suffix": "",
                            "distance": addressed if swap[1] else 0,
                            "context_needed": not stands_wrong_alone(incorrect) or stands_wrong_alone(en)})
    found = third_person(en, ja, [u["en_sentence"] for u in turns[:t]],
                         participant_words({u["en_speaker"] for u in turns[:t + 1]}))
    if not isinstance(found, str):
        pronoun, chain, distance = found
        try:
            incorrect = swap_chain(en, chain, "she" if pronoun == "he" else "he")
        except (ValueError, IndexError):
            incorrect = None
        if incorrect is not None and incorrect != en:
            # rules5: a gender shown in the sentence itself ("Mr. Sugimoto … her son") decides it with no context
            out.append({"correct": en, "incorrect": incorrect, "pronoun": pronoun, "suffix": "/3",
                        "distance": distance, "context_needed": distance > 0})
    return out
