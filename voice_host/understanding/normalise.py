"""Turn a raw transcript into the text the card's classifier expects.

Whisper writes numbers as words or digits, exhibits as "E-7", "e7", "exhibit seven" or worse
("3D7", "he 6"), and adds its own punctuation. The card cites an exhibit only as "E7", "exhibit 7",
"#7" or numbers after "exhibits", so everything here aims at "E7" — and never turns a clock time
into an exhibit. Everything is pure text in, text out; each repair is reported as a `Correction`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from rapidfuzz import fuzz
from text_to_num import alpha2digit

from engine.case import NUMBER_WORDS
from engine.classify import ACCUSE_FORM
from engine.grammar import IntentKind, grammar, phrases
from engine.messages import Command
from engine.rules import EXHIBITS
from voice_host.understanding.settings import DEFAULT_SETTINGS, RepairWeights


class CorrectionKind(Enum):
    NAME = "name"  # a misheard suspect's name put right (names.py)
    EXHIBIT = "exhibit"  # a misheard exhibit citation read leniently ("3D7" -> "E7")
    COMMAND = "command"  # a misheard command repaired ("nest" -> "next")
    REPEAT = "repeat"  # whisper said it more than once ("Yes, yes, yes."): kept once, but doubted
    FOCUS = "focus"  # only the loudest speaker's words kept (the others were the room talking)
    WHOLE_COMMAND = "whole_command"  # a short utterance heard as one of the card's commands by the closed set
    PHRASED_COMMAND = "phrased_command"  # a command in other words the closed set heard (the phrased-command pass)
    PHRASED_CONFRONTATION = "phrased_confrontation"  # the card's confrontation the closed set heard around a name and number
    NBEST = "nbest"  # another of the beam's hypotheses taken for the transcript (the cascade's n-best pass)
    SLOWER = "slower"  # what Whisper heard with the utterance played slower (the cascade's slower pass)


@dataclass(frozen=True)
class Correction:
    """One repair of the transcript: what was heard, what it became, and how sure (0-1)."""

    kind: CorrectionKind
    heard: str
    corrected: str
    score: float


@dataclass(frozen=True)
class Normalised:
    text: str
    corrections: tuple[Correction, ...] = ()


# Exhibits are 1-16 (EXHIBITS), so these few words are all a citation can use; "one" is left alone by
# alpha2digit (it is usually a pronoun), so citations spelt out are read with this table too.
#: "one" to "sixteen" and their numbers.
NUMBER_WORD_VALUES = {word: number for number, word in enumerate(NUMBER_WORDS[:EXHIBITS], start=1)}
_NUMBER_WORD_RE = "|".join(sorted(NUMBER_WORD_VALUES, key=len, reverse=True))

# The spoken letter E as whisper writes it: "E", "e", "ee", "E.", "eee".
_E = r"(?:e{1,3}\.?)"
# Words that introduce a clock time: a number right after these is a time, never an exhibit.
_TIME_LEAD = r"(?:at|about|around|by|till|until|before|after|past|gone|near|nearly|from|since|to)"

# "number seven" cites an exhibit only at the end of a phrase ("with number seven.", "number 7 and
# 9"), never as an adjective ("number one suspect").
_CITATION_END = r"(?=\s*(?:$|[,.;:!?)]|and\b|or\b|please\b|then\b))"
#: An exhibit cited in normalised text: every citation is written E{n} ("E7"), however it was said.
CITATION = re.compile(r"\bE\d{1,2}\b")
_SPACES = re.compile(r"\s+")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})


_REPEATED_PHRASE = re.compile(r"\b(\w[\w' ]*?\w)(?:[,.!?]\s*\1\b)+", re.IGNORECASE)


def _said_once(text: str) -> str:
    """Whisper in noise repeats itself: "We give up. We give up." and "Yes, yes, yes." are said once."""
    sentences = re.findall(r"[^.?!]+[.?!]*", text)
    kept: list[str] = []
    for sentence in sentences:
        if not kept or sentence.strip().lower() != kept[-1].strip().lower():
            kept.append(sentence)
    return _REPEATED_PHRASE.sub(r"\1", "".join(kept).strip())


def _tidy(text: str) -> str:
    """Plain quotes and dashes, no ellipses, single spaces."""
    return _SPACES.sub(" ", text.translate(_QUOTES).replace("...", " ").replace("\u2026", " ")).strip()


def has_repeats(raw: str) -> bool:
    """Whether Whisper said something more than once back to back (a sign of noise or a loop)."""
    text = _tidy(raw)
    return _said_once(text) != text


def _cleanup(text: str) -> str:
    text = _said_once(_tidy(text))
    # Whisper sometimes wraps a short utterance in quotes or brackets.
    return text.strip("\"'[]() ")


def _spelled_citations(text: str) -> str:
    """'E seven', 'exhibit one', 'E-seven' -> digits, before alpha2digit sees them."""

    def repl(match: re.Match[str]) -> str:
        return f"{match.group(1)} {NUMBER_WORD_VALUES[match.group(2).lower()]}"

    text = re.sub(rf"\b({_E}|exhibit|exhibits)[\s-]*({_NUMBER_WORD_RE})\b", repl, text, flags=re.IGNORECASE)
    return re.sub(rf"\b(number|no\.)\s+({_NUMBER_WORD_RE})\b{_CITATION_END}", repl, text, flags=re.IGNORECASE)


def _times(text: str) -> str:
    """'at 10 35' -> 'at 10.35'; '10:35' -> '10.35'. A time stays a time, never an exhibit."""
    text = re.sub(r"\b(at|about|around|before|after|till|until) then\b(?=\s*[?.!,]|$)", r"\1 10", text, flags=re.I)
    text = re.sub(r"\b(\d{1,2}):(\d{2})\b", r"\1.\2", text)
    return re.sub(
        rf"\b({_TIME_LEAD}) (\d{{1,2}}) ([0-5]\d)\b(?!\s*(?:,|and)\s*\d)",
        lambda m: f"{m.group(1)} {m.group(2)}.{m.group(3)}",
        text,
        flags=re.IGNORECASE,
    )


def _citations(text: str) -> str:
    """'E 7', 'E-7', 'e7', 'ee 7', 'exhibit 7', 'exhibit number 7', 'number 7', '#7' -> 'E7'.

    "exhibit 2, 9 and 14" is a list (Whisper runs the plural's s into the next word): it reads as
    "exhibits 2, 9 and 14", so every number in it is cited, as the card's list rule says.
    """
    _list = r"\s+\d{1,2}\b(?![.:]\d)\s*(?:,|and\b)\s*\d{1,2}\b(?![.:]\d)"
    text = re.sub(rf"\bexhibit(?={_list})", "exhibits", text, flags=re.I)
    text = re.sub(r"\bexhibit\s+(?:number\s+|no\.\s*|#\s*)?(?:e\s*-?\s*)?(\d{1,2})\b", r"E\1", text, flags=re.I)
    text = re.sub(rf"(?<![\w.]){_E}\s*[-#]?\s*(\d{{1,2}})(?![\d.:]\d)\b", r"E\1", text, flags=re.I)
    # "number 7": a citation unless it is a time ("number 10.35" is not a thing anyone says).
    text = re.sub(rf"\bnumber\s+(\d{{1,2}})\b(?![.:]\d){_CITATION_END}", r"E\1", text, flags=re.I)
    return re.sub(r"(?<!\w)#\s*(\d{1,2})\b", r"E\1", text)


_LEADING_QUESTION = r"(?:who|what|where|when|why|how|did|were|was|is|are|do|does|have|had|can|could|would|will)"


_OPENING_WORDS = r"(?:(?:" + "|".join(re.escape(word) for word in phrases("opener")) + r")\b[\s,]*)*"
_TITLE = r"(?:mr|mrs|miss|ms|reverend|rev)\.?\s+"


def _prompt_punctuation(text: str) -> str:
    """Undo the commas and stops a name list in the prompt teaches whisper to put round names.

    "Confront, Martha Ruddock, with E4" -> "Confront Martha Ruddock with E4"; "Answer, Joel." ->
    "Answer Joel."; "exhibit, two" -> "exhibit two"; "The companion. Who did you ..." -> "The
    companion, who did you ...". Only these fixed places; the words are never changed.
    """
    text = re.sub(r"^(\W*(?:confront|ask|answers?|accuse|we accuse|question for|to|read))\s*[,.:;]\s*", r"\1 ", text, flags=re.I)
    confront = re.match(r"^\W*confront\b", text, re.IGNORECASE)
    if confront:
        text = re.sub(r"\s*,\s*(with)\b", r" \1", text, count=1, flags=re.IGNORECASE)
    text = re.sub(r"\b(exhibits?|with)\s*,\s*", r"\1 ", text, flags=re.IGNORECASE)
    # "NAME. Who did you ...?": one sentence cut in two after the name at the start (an opener and
    # a title may come before it: "Excuse me, Miss Marsden. Did you ...?").
    return re.sub(
        rf"^(\W*{_OPENING_WORDS}(?:the\s+|{_TITLE})?[A-Za-z']+(?:\s+[A-Za-z']+)?)\.\s+({_LEADING_QUESTION})\b"
        r"(?=[^.]*\b(?:you|your)\b)",
        lambda m: f"{m.group(1)}, {m.group(2).lower()}",
        text,
        count=1,
        flags=re.IGNORECASE,
    )


def normalise(raw: str) -> str:
    """Numbers to digits, exhibit citations to "E7", times kept as times, whisper's noise tidied."""
    text = _cleanup(raw)
    if not text:
        return ""
    text = _prompt_punctuation(text)
    # "Confront Phoebe within iron": "with E-" run together.
    text = re.sub(r"^(\W*confront\b.*?\b)within\b", r"\1with", text, count=1, flags=re.IGNORECASE)
    # Whisper writes the spoken title "Miss" as "Ms."; the card's names say Miss.
    text = re.sub(r"\bMs\b\.?(?=\s)", "Miss", text)
    text = _spelled_citations(text)
    text = alpha2digit(text, "en")
    text = _times(text)
    text = _citations(text)
    text = _SPACES.sub(" ", text).strip()
    return text


# --- The lenient exhibit reader -----------------------------------------------------------------
#
# In an exhibit slot (after "read", after "confront ... with", in a list after "exhibits" or an
# accusation's colon) whisper's mishearings of "E seven" are read as the number they end in:
# "3D7", "A7", "P6", "C3", "he 6", "the 16". Anywhere else they are left alone.

_LETTER_LIKE_E = r"(?:3[a-z]|[abcdegptvz]|he|the|a|ee|eat|it|me|be|see|sea|key|tea)"
# Number words as whisper mishears them in noise; read as numbers only inside an exhibit slot.
_NUMBER_HOMOPHONES = {
    "won": 1, "one": 1, "to": 2, "too": 2, "tree": 3, "free": 3, "for": 4, "fore": 4, "fife": 5, "sicks": 6,
    "sex": 6, "heaven": 7, "ate": 8, "aid": 8, "eat": 8, "nein": 9, "tin": 10, "leven": 11,
}  # fmt: skip
_NUMBER_HOMOPHONES.update(NUMBER_WORD_VALUES)  # and the number words alpha2digit leaves alone ("the two")
_HOMOPHONE_RE = "|".join(sorted(_NUMBER_HOMOPHONES, key=len, reverse=True))
# "thirteen" .. "sixteen" heard as "thirty" .. "sixty": in an exhibit slot only the teen fits.
TEEN_FOR_TY = {30: 13, 40: 14, 50: 15, 60: 16}
_SLOT_OPENERS = re.compile(
    r"\b(read|reed|with|exhibits?|accuse\s+\w+(?:\s+\w+)?\s*(?::|,|-|of|with|because of)?)\s*", re.IGNORECASE
)
_LENIENT_TOKEN = re.compile(rf"^(?:{_LETTER_LIKE_E})[\s-]?(\d{{1,2}})$", re.IGNORECASE)
# "E6, E13, and E14" too; and Whisper's dashes between numbers said in a row ("exhibits 8-9-11").
_LIST_SEPARATOR = re.compile(r"^\s*(?:,\s*(?:and|&)\b|,|and|&|[-–—](?=\s*\d))?\s*", re.IGNORECASE)
_TY_CITATION = re.compile(r"\bE(" + "|".join(str(ty) for ty in TEEN_FOR_TY) + r")\b(?![.:]\d)")
# "NAME, explain E15." with the E lost or run into the verb: "explain 15", "explainy 15", "explain me 7", "explain
# for.", "explain it, too.". A number (1-16, a teen heard as its -ty, or a word that sounds like one) right after
# "explain" and ending the message or the citation can only be an exhibit.
_EXPLAIN_CITATION = re.compile(
    rf"\b(explain)(?:y|ee?)?\s+(?:(?:{_LETTER_LIKE_E})[\s,-]*)?(\d{{1,2}}|{_HOMOPHONE_RE})\b(?![.:]\d){_CITATION_END}",
    re.IGNORECASE,
)


def _teen_citation(match: re.Match[str], corrections: list[Correction], weight: float) -> str:
    """ "E30" (group 1 the -ty) as its teen, "E13", the repair recorded."""
    corrected = f"E{TEEN_FOR_TY[int(match.group(1))]}"
    corrections.append(Correction(CorrectionKind.EXHIBIT, match.group(0), corrected, weight))
    return corrected


def _explained_citation(match: re.Match[str], corrections: list[Correction], weight: float) -> str:
    """ "explain 15" (group 1 the verb as heard, group 2 the number) as "explain E15", the repair recorded."""
    said = match.group(2).lower()
    number = _NUMBER_HOMOPHONES[said] if said in _NUMBER_HOMOPHONES else int(said)
    number = TEEN_FOR_TY.get(number, number)
    if not 1 <= number <= EXHIBITS:
        return match.group(0)
    corrected = f"{match.group(1)} E{number}"
    if corrected == match.group(0):
        return corrected  # said as the card writes it
    corrections.append(Correction(CorrectionKind.EXHIBIT, match.group(0), corrected, weight))
    return corrected


def _read_slot(text: str, start: int, corrections: list[Correction], weight: float) -> tuple[str, int]:
    """Read exhibit-like tokens from `start` on; returns the new text and where the slot ended."""
    pos = start
    while True:
        match = re.match(rf"({_LETTER_LIKE_E})[\s-]?(\d{{1,2}})\b(?![.:]\d)", text[pos:], flags=re.IGNORECASE)
        if match is None:
            # "exhibit too", "the aid": a number heard as a word that sounds like it.
            match = re.match(rf"((?:exhibit|{_LETTER_LIKE_E})[\s-]?)({_HOMOPHONE_RE})\b", text[pos:], re.IGNORECASE)
            after_exhibit = re.search(r"\bexhibits?\s*$", text[:pos], re.IGNORECASE)
            if match is None and after_exhibit:
                match = re.match(rf"()({_HOMOPHONE_RE})\b", text[pos:], re.IGNORECASE)
            if match:
                number_text = str(_NUMBER_HOMOPHONES[match.group(2).lower()])
            else:
                # "Confront Keld with 7": the E swallowed; a number in the slot is an exhibit, not a time.
                match = re.match(r"()(\d{1,2})\b(?![.:]\d|\s*(?:o'?clock|am\b|pm\b|a\.m|p\.m|past|to\b))", text[pos:])
                number_text = match.group(2) if match else ""
        elif int(match.group(2)) in TEEN_FOR_TY:
            number_text = str(TEEN_FOR_TY[int(match.group(2))])
        else:
            number_text = match.group(2)
        plain = re.match(r"E(\d{1,2})\b", text[pos:])
        if match is None:
            number_text = ""
        # "exhibits 2, 3, 716": a list's last numbers run together. Read as the fewest exhibits that
        # spell it, when only one way does ("413" is 4 and 13; "112" could be 1, 12 or 11, 2).
        run = re.match(r"(\d{3,4})\b(?![.:]\d)", text[pos:]) if match is None else None
        in_list = run is not None and (pos > start or re.search(r"\bexhibits\s*$", text[:pos], re.IGNORECASE))
        numbers = _split_run(run.group(1)) if run and in_list else None
        if plain and int(plain.group(1)) in TEEN_FOR_TY:
            corrected = _teen_citation(plain, corrections, weight)
            text = text[:pos] + corrected + text[pos + plain.end() :]
            pos += len(corrected)
        elif plain:
            pos += plain.end()
        elif run and numbers:
            corrected = ", ".join(f"E{number}" for number in numbers)
            corrections.append(Correction(CorrectionKind.EXHIBIT, run.group(0), corrected, weight))
            text = text[:pos] + corrected + text[pos + run.end() :]
            pos += len(corrected)
        elif match:
            number = TEEN_FOR_TY.get(int(number_text), int(number_text))  # "exhibits 2, 6 and 40": 14
            if not 1 <= number <= EXHIBITS:
                break
            corrected = f"E{number}"
            corrections.append(Correction(CorrectionKind.EXHIBIT, match.group(0), corrected, weight))
            text = text[:pos] + corrected + text[pos + match.end() :]
            pos += len(corrected)
        else:
            break
        sep = _LIST_SEPARATOR.match(text[pos:])
        if sep is None or not sep.group(0).strip() and not text[pos:].startswith(" "):
            break
        pos += sep.end()
    return text, pos


def _split_run(digits: str) -> list[int] | None:
    """The one shortest way to read a run of digits as exhibit numbers ("716" -> 7, 16), or None."""
    # ways[i]: the shortest readings of digits[:i] (all of them, to tell when there are two).
    ways: list[list[list[int]]] = [[[]], *([] for _ in digits)]
    for end in range(1, len(digits) + 1):
        for size in (1, 2):
            part = digits[end - size : end] if end >= size else ""
            if part and part[0] != "0" and 1 <= int(part) <= EXHIBITS:
                ways[end] += [[*way, int(part)] for way in ways[end - size]]
        shortest = min((len(way) for way in ways[end]), default=0)
        ways[end] = [way for way in ways[end] if len(way) == shortest]
    return ways[-1][0] if len(ways[-1]) == 1 else None


def read_exhibits_leniently(text: str, weights: RepairWeights = DEFAULT_SETTINGS.repairs) -> Normalised:
    """Read "3D7", "A7", "he 6" as E-numbers, but only where the card expects an exhibit."""
    corrections: list[Correction] = []
    pos = 0
    while True:
        opener = _SLOT_OPENERS.search(text, pos)
        if opener is None:
            break
        word = opener.group(1).lower()
        # "read" is a slot only as the command at the start ("read E7"), not "she read a letter".
        if word in ("read", "reed") and text[: opener.start()].strip(" ,.:;!?-"):
            pos = opener.end()
            continue
        # "with" is a slot only in a confrontation.
        if word == "with" and not re.search(r"\bconfront", text[: opener.start()], re.IGNORECASE):
            pos = opener.end()
            continue
        text, pos = _read_slot(text, opener.end(), corrections, weights.exhibit)
        pos = max(pos, opener.end())
    # An accusation lists its exhibits after the name, whatever the name was heard as.
    # "Verdict:", "It was", "The killer is", "We accuse": the engine's own accusation openings.
    lead = len(text) - len(re.sub(r"^\W+", "", text))
    accusation = ACCUSE_FORM.match(text[lead:])
    if accusation:
        pos = lead + accusation.end()
        while True:
            token = re.compile(rf"\b(?:{_LETTER_LIKE_E})[\s-]?\d{{1,2}}\b", re.IGNORECASE).search(text, pos)
            if token is None:
                break
            text, end = _read_slot(text, token.start(), corrections, weights.exhibit)
            pos = max(end, token.end())
    text = _EXPLAIN_CITATION.sub(lambda match: _explained_citation(match, corrections, weights.exhibit), text)
    # "E30" anywhere ("Marsden, explain E30."): no exhibit has it, and "thirteen" heard as "thirty" is
    # the one reading that cites one (the slots' own rule).
    text = _TY_CITATION.sub(lambda match: _teen_citation(match, corrections, weights.exhibit), text)
    if corrections:
        text = re.sub(r"\bexhibit\s+(E\d{1,2})\b", r"\1", text, flags=re.IGNORECASE)
    return Normalised(text, tuple(corrections))


# --- Command repair ---------------------------------------------------------------------------
#
# The card's free commands are single words or short phrases said alone. A transcript that is
# nothing but a near miss of one ("nest", "safe", "reed E7") is repaired; anything longer is left
# for the classifier, so "next to the kitchen" never becomes "next".


# Near misses whisper actually produces for a command said alone; checked before fuzzy matching
# because several are ordinary words a ratio would not reach ("text" is as close to "test").
_COMMAND_SOUNDALIKES: dict[str, Command] = {
    "nest": Command.NEXT, "text": Command.NEXT, "necks": Command.NEXT, "nex": Command.NEXT, "next one": Command.NEXT,
    "nixed": Command.NEXT, "neck": Command.NEXT,
    "safe": Command.SAVE, "same": Command.SAVE, "saved": Command.SAVE, "save it": Command.SAVE, "save game": Command.SAVE,
    "saves": Command.SAVE,
    "past": Command.PASS, "parse": Command.PASS, "pause": Command.PASS, "pas": Command.PASS, "passed": Command.PASS,
    "statement": Command.STATEMENTS, "the statements": Command.STATEMENTS,
    "lie": Command.LIES, "lice": Command.LIES, "wise": Command.LIES, "eyes": Command.LIES, "lines": Command.LIES,
    "lyes": Command.LIES, "the lies": Command.LIES,
    "give it up": Command.GIVE_UP, "giveup": Command.GIVE_UP, "give-up": Command.GIVE_UP, "we give up": Command.GIVE_UP,
    "gave up": Command.GIVE_UP, "give op": Command.GIVE_UP, "we get up": Command.GIVE_UP, "get up": Command.GIVE_UP,
    "we gave up": Command.GIVE_UP,
    "yess": Command.YES, "yas": Command.YES, "know": Command.NO, "noh": Command.NO,
}  # fmt: skip
# The card's commands said alone, which a near miss is fuzzily matched to (other words for them, "yeah",
# "next please", are the phrase grammar's, engine/phrases.toml).
_FUZZY_COMMANDS = tuple(
    c.value for c in (Command.NEXT, Command.SAVE, Command.PASS, Command.STATEMENTS, Command.LIES, Command.GIVE_UP)
)
_TRIM = " \t.,!?;:'\"-"
_OPENERS = re.compile(r"^(?:(?:" + "|".join(re.escape(word) for word in phrases("opener")) + r")\b[\s,.]*)+", re.IGNORECASE)


def strip_openers(text: str) -> str:
    """The message without its opening filler: "Okay, so, read E7." -> "read E7"."""
    return _OPENERS.sub("", text.strip(_TRIM)).strip(_TRIM)


def repair_command(
    text: str, weights: RepairWeights = DEFAULT_SETTINGS.repairs, fuzzy_at_least: float = DEFAULT_SETTINGS.fuzzy_command_at_least
) -> Normalised:
    """Repair a command said alone: "nest" -> "next", "safe" -> "save", "reed E7" -> "read E7"."""
    body = strip_openers(text)
    lowered = _SPACES.sub(" ", body.lower().replace(",", " "))
    if not lowered:
        return Normalised(text)
    # "read E7" misheard as "reed E7" / "red E7" / "reads E7".
    read = re.fullmatch(r"(read|reed|red|reads|re-read|reread|ride|rid|re[a-z]{2,6})[\s,]+(e\d{1,2})", lowered)
    if read:
        fixed = f"read {read.group(2).upper()}"
        if read.group(1) == "read":
            return Normalised(fixed)
        return Normalised(fixed, (Correction(CorrectionKind.COMMAND, body, fixed, weights.misheard_read),))
    # "read E7" heard as the citation alone ("E7", "3D7"): the only command that is just a number.
    alone = re.fullmatch(rf"(?:{_LETTER_LIKE_E})[\s-]?(\d{{1,2}})", lowered)
    if alone and 1 <= int(alone.group(1)) <= EXHIBITS:
        fixed = f"read E{int(alone.group(1))}"
        return Normalised(fixed, (Correction(CorrectionKind.COMMAND, body, fixed, weights.citation_alone),))
    # "answers NAME" misheard as "answer's NAME", "answer NAME", "answers of NAME".
    answers = re.fullmatch(r"(answer'?s?|answers of|answer is|ansers)[\s,]+(.+)", body, flags=re.IGNORECASE)
    if answers and answers.group(1).lower() != "answers":
        fixed = f"answers {answers.group(2)}"
        return Normalised(fixed, (Correction(CorrectionKind.COMMAND, body, fixed, weights.misheard_answers),))
    if lowered in {c.value for c in Command}:
        return Normalised(lowered)
    said = grammar().match(lowered)
    if said is not None and said.intent.kind is IntentKind.COMMAND:
        # The same command in other words ("yeah", "next please"): the card's word, and nothing repaired.
        return Normalised(said.card_message if "{" not in said.intent.card else text)
    soundalike = _COMMAND_SOUNDALIKES.get(lowered)
    if soundalike is not None:
        return Normalised(
            soundalike.value, (Correction(CorrectionKind.COMMAND, body, soundalike.value, weights.command_soundalike),)
        )
    if len(lowered.split()) <= 2:
        best = max(_FUZZY_COMMANDS, key=lambda cmd: fuzz.ratio(lowered, cmd))
        score = fuzz.ratio(lowered, best) / 100
        if score >= fuzzy_at_least:
            return Normalised(best, (Correction(CorrectionKind.COMMAND, body, best, score),))
    return Normalised(text)
