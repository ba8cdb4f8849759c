"""The Host as a program: one message in, one reply out, every rule of the card applied exactly.

`Game` keeps the table's state and applies the classifier's `Decision`. It is deterministic: the same
messages always give the same replies, which is what lets a journal replay a night exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from engine.case import Case, EntryKind, FileEntry, GradePart
from engine.classify import Action, Classifier, Decision, Pending, Situation
from engine.grammar import StateQuestion
from engine.ledger import FullState, full_state, full_state_of, ledger_line
from engine.messages import Command, Message
from engine.replies import PartKind, Reply, ReplyPart
from engine.rules import EXHIBITS, EXHIBITS_PER_ROUND, QUESTIONS_PER_ROUND, ROUNDS
from engine.save import SaveBlock
from engine.scoring import PAR, grade
from engine.state import Accusation, GameState, Phase
from engine.text import bounded, clean, words
from engine.topics import topic_indexes

# Each state question is answered with its one line of FULL STATE.
_STATE_LINE: dict[StateQuestion, Callable[[FullState], str]] = {
    StateQuestion.QUESTIONS: lambda lines: lines.questions,
    StateQuestion.ROUND: lambda lines: lines.round,
    StateQuestion.EXHIBITS: lambda lines: lines.exhibits,
    StateQuestion.LIES: lambda lines: lines.lies,
    StateQuestion.SEATS: lambda lines: lines.seats,
    StateQuestion.ACCUSATION: lambda lines: lines.accusation,
}

MAX_SEATS = 8
MAX_SAVED_TURN = 99_999  # a SAVE's turn outside 1 to this is repaired (a night has about a hundred)

# The card's fixed lines.
ASK_TABLE = "Who is at the table? First names or nicknames, one to eight."
SEATING_HELP = (
    "Give the first name or nickname of each person playing, one to eight, in the order you sit, "
    "with commas between them: Ann, Bob, Cy. Playing alone? Say just me."
)
RESUMED = "The night is resumed where it stopped."
SEALED = "That stays sealed until the accusation. Say give up to end the night and hear it now."
NOTHING_SEARCHED = "Nothing is searched tonight; you have the exhibits."
NOT_YET = "That evidence has not come in yet."
NO_SUCH_EXHIBIT = "There are sixteen exhibits."
ONLY_SUSPECTS = "Only the {number} can be questioned."  # {number}: the case's number word, "six"
ONE_AT_A_TIME = "One at a time."
WHAT_DO_YOU_ASK = "What do you ask?"
ONE_EXHIBIT = "One exhibit at a time: which?"
WHICH_EXHIBIT = "Which exhibit? Cite it by number."
ACCUSE_LATER = "The accusation comes after round four."
QUESTIONS_DONE = "The questions are done."
CONFER = "(The table confers. Speak to one of the {number} by name to ask.)"
SPENT = "The round's questions are spent. Say next."
NEARLY_DONE = (
    "The night is nearly done. Accuse one person, with up to six exhibits: "
    "you score for the right person and for exhibits showing could, how and why."
)
WHICH_ONE = "Which one person?"
NOT_LOCKED = "Not locked."
END_NIGHT = "End the night and hear the answer?"
KILL_ANSWER = "No."
NO_LIE_BROKEN = "No lie has broken yet."
FOUR_ROUNDS = "There are four rounds."
STANDS_BY = "{call} stands by what was said."  # {call}: how the Host calls the suspect, "Mr. Keld"
BREAKS = "{call} breaks."
END_ROUND = "End round {round} with {unused} unused?"


def fixed_lines(case: Case) -> tuple[str, ...]:
    """Every line the Host says word for word whatever the table's names and the night's turns: the card's
    refusals and prompts, each suspect standing by what was said or breaking, each round's end question. A
    voice host makes them ahead, so a reply opening with one is heard at once."""
    number = case.public.number_word
    lines = [
        NOT_YET, NO_SUCH_EXHIBIT, ONLY_SUSPECTS.format(number=number), ONE_AT_A_TIME, WHAT_DO_YOU_ASK, ONE_EXHIBIT,
        WHICH_EXHIBIT, ACCUSE_LATER, QUESTIONS_DONE, CONFER.format(number=number), SPENT, SEALED, NOTHING_SEARCHED,
        WHICH_ONE, NOT_LOCKED, END_NIGHT, NO_LIE_BROKEN, FOUR_ROUNDS,
    ]  # fmt: skip
    for suspect in case.suspects:
        lines += [STANDS_BY.format(call=suspect.call), BREAKS.format(call=suspect.call)]
    for round_number in range(1, ROUNDS + 1):
        lines += [END_ROUND.format(round=round_number, unused=unused) for unused in range(1, QUESTIONS_PER_ROUND + 1)]
    return tuple(lines)


def _sentences(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"(?<=[.!?])\s+", text) if part.strip()]


_KILL = re.compile(
    r"\b(?:did|do)\s+you\b[^?.!]{0,40}?\b(?:kill|killed|murder|murdered|strike|struck|hurt|hit)\b|\bdid\s+you\s+do\s+it\b",
    re.IGNORECASE,
)


@dataclass
class _Seating:
    names: list[str]
    index: int  # which name needs a nickname


@dataclass
class _Table:
    """The game's mutable insides; `Game.state` is the read-only view of them."""

    turn: int = 0
    round: int = 0
    phase: Phase = Phase.SEATING
    in_accusation: bool = False
    questions: int = 0
    seats: list[str] = field(default_factory=list)
    seat: int | None = None  # 0-based seat who asks next
    solo: bool = False
    joining: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    silenced: set[str] = field(default_factory=set)
    accusation: Accusation = Accusation.NONE
    read_back: tuple[str, tuple[int, ...]] | None = None
    pending: Pending | None = None
    seating: _Seating | None = None
    talked: bool = False  # table talk already had its line this round
    exhibits_read: list[int] = field(default_factory=list)
    spoken: dict[str, list[str]] = field(default_factory=dict)


class Game:
    def __init__(self, case: Case) -> None:
        self.case = case
        self.classifier = Classifier(case)
        self._t = _Table()
        self._parts: list[ReplyPart] = []
        self._result: str | None = None  # the RESULT line, printed once, after the final LEDGER
        self._topics = topic_indexes(case)  # built once per case
        self.journal: list[str] = []  # every message handled, in order: replaying them rebuilds the game

    # -- public API ---------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        t = self._t
        return GameState(
            turn=t.turn,
            round=t.round,
            phase=t.phase,
            questions_used=t.questions,
            seats=tuple(t.seats),
            next_seat=None if t.seat is None else t.seat + 1,
            broken=tuple(t.broken),
            accusation=t.accusation,
            exhibits_read=tuple(sorted(t.exhibits_read)),
            solo=t.solo,
            in_accusation=t.in_accusation,
            over=t.phase is Phase.OVER,
        )

    @property
    def _number(self) -> str:
        """The suspects counted in words, as the fixed lines say it: "the six"."""
        return self.case.public.number_word

    @property
    def joining(self) -> tuple[str, ...]:
        return tuple(self._t.joining)

    def start(self) -> Reply:
        """The opening: dry facts, the six, the game in brief, the seal's opening, and who is at the table."""
        public = self.case.public
        self._narrate(public.opening)
        self._system(
            f"The case is sealed under SHA-256: {self.case.notice.commitment_opening} "
            f"Check it at {public.verify} after the night."
        )
        self._system(ASK_TABLE)
        return self._reply()

    def resumed(self) -> Reply:
        """What a night rebuilt from its journal opens with (the card: on resume print FULL STATE above
        the LEDGER): one line saying so, FULL STATE, the LEDGER. Not a reply of the night: t stays."""
        state = self.state
        return Reply(
            (
                ReplyPart(PartKind.SYSTEM, RESUMED),
                ReplyPart(PartKind.FULL_STATE, full_state(state, self.joining)),
                ReplyPart(PartKind.LEDGER, ledger_line(state, self.case.public.version)),
            )
        )

    def preview(self, text: str, situation: Situation | None = None) -> Message:
        """What `text` would be taken as now (or in an earlier `situation`), without applying it."""
        return self.decide(text, situation).message

    def situation(self) -> Situation:
        """The game as the classifier sees it now: what a message said now is classified against."""
        return self._situation()

    def accusing(self) -> bool:
        """Whether the night is at THE ACCUSATION (round A), where an accusation is weighed, not refused."""
        return self.state.in_accusation

    def decide(self, text: str, situation: Situation | None = None) -> Decision:
        """What the Host would do with `text` now (or in an earlier `situation`: the classifier's whole decision),
        without applying it."""
        return self.classifier.classify(bounded(text), self._situation() if situation is None else situation)

    def handle(self, text: str) -> Reply:
        # Bounded here, so typed, spoken, pasted and replayed text is all taken the same way.
        text = bounded(text)
        decision = self.classifier.classify(text, self._situation())
        self.journal.append(text)
        self._apply(decision)
        return self._reply()

    # -- applying a decision ------------------------------------------------------------------------

    def _situation(self) -> Situation:
        t = self._t
        return Situation(
            phase=t.phase,
            round=t.round,
            seats=tuple(t.seats),
            solo=t.solo,
            exhibits_read=frozenset(t.exhibits_read),
            accusation=t.accusation,
            read_back=t.read_back,
            pending=t.pending,
            first_message=not self.journal,
            awaiting_nickname=t.seating is not None,
            questions_used=t.questions,
        )

    def _apply(self, d: Decision) -> None:
        t = self._t
        if d.action not in (Action.CONFIRM, Action.DECLINE):
            t.pending = None
        handler = getattr(self, f"_do_{d.action.name.lower()}")
        handler(d)

    def _do_seat(self, d: Decision) -> None:
        t = self._t
        if t.seating is not None:
            if len(d.names) != 1 or self._needs_nickname(d.names[0], t.seating.names, t.seating.index):
                self._ask_nickname(t.seating.names[t.seating.index])
                return
            t.seating.names[t.seating.index] = d.names[0]
            names = t.seating.names
        else:
            names = list(d.names)
        if len(names) > MAX_SEATS:
            t.seating = None
            self._system(f"That is {len(names)} names, and the table seats eight. Which eight are playing?")
            return
        for index, name in enumerate(names):
            if name != "you" and self._needs_nickname(name, names, index):
                t.seating = _Seating(names, index)
                self._ask_nickname(name)
                return
        t.seating = None
        t.seats = names
        t.solo = names == ["you"]
        t.seat = 0
        t.phase = Phase.ROUNDS
        self._open_round(1, with_save=False)

    def _needs_nickname(self, name: str, names: list[str], index: int) -> bool:
        if self.classifier.names.is_reserved(name):
            return True
        lowered = name.lower()
        return lowered in {command.value for command in Command} or any(other.lower() == lowered for other in names[:index])

    def _ask_nickname(self, name: str) -> None:
        self._system(f"{name} is already a name at this table or among the {self._number}. What nickname shall we use instead?")

    def _do_seating_help(self, d: Decision) -> None:
        self._system(SEATING_HELP)

    def _do_ask_seats(self, d: Decision) -> None:
        if self._t.seating is not None:
            self._ask_nickname(self._t.seating.names[self._t.seating.index])
        else:
            self._system(ASK_TABLE)

    def _do_resume(self, d: Decision) -> None:
        assert d.save is not None
        self._resume(d.save)

    def _do_bad_save(self, d: Decision) -> None:
        self._system("That save is from another game or rules edition; it can't be resumed here.")

    def _do_save_ignored(self, d: Decision) -> None:
        self._system("A save is read only as the first message of a new game.")

    def _do_command(self, d: Decision) -> None:
        t = self._t
        command = d.message.command
        if command is Command.GIVE_UP:
            t.pending = Pending.GIVE_UP
            self._system(END_NIGHT)
        elif command is Command.NEXT:
            self._next()
        elif command is Command.PASS:
            if t.in_accusation:
                self._system(QUESTIONS_DONE)
            else:
                self._advance_seat()
                self._prompt()
        elif command is Command.SAVE:
            if t.in_accusation:
                self._system("No save in the accusation.")
            else:
                self._save_part()
        elif command is Command.READ:
            for number in d.message.exhibits:  # one, or several in turn ("read E3 and E4")
                if not 1 <= number <= EXHIBITS:
                    self._system(NO_SUCH_EXHIBIT)
                elif number not in t.exhibits_read:
                    self._system(NOT_YET)
                else:
                    self._exhibit(number)
        elif command is Command.STATEMENTS:
            number = d.command_round or t.round
            if not 1 <= number <= ROUNDS:
                self._system(FOUR_ROUNDS)
            elif number > t.round:
                self._system("Those statements have not come in yet.")
            else:
                for statement in self.case.round(number).statements:
                    self._statement(statement.suspect, statement.words)
        elif command is Command.LIES:
            self._lies()
        elif command is Command.ANSWERS:
            self._answers(d.suspect)

    def _do_confirm(self, d: Decision) -> None:
        t = self._t
        pending, t.pending = t.pending, None
        if pending is Pending.END_ROUND:
            self._end_round(with_save=True)  # ended early: no SAVE was offered yet
        elif pending is Pending.GIVE_UP:
            self._finish(None, ())

    def _do_decline(self, d: Decision) -> None:
        t = self._t
        t.pending = None
        if t.phase is Phase.SEATING:
            self._system(ASK_TABLE)
        elif t.in_accusation:
            self._system(NEARLY_DONE)
        else:
            self._prompt()

    def _do_sealed(self, d: Decision) -> None:
        self._system(SEALED)

    def _do_nothing_searched(self, d: Decision) -> None:
        self._system(NOTHING_SEARCHED)

    def _do_rules(self, d: Decision) -> None:
        assert d.passage is not None
        self._system(d.passage.text)

    def _do_state(self, d: Decision) -> None:
        """A question about the state: one line of FULL STATE (or the whole), never an interpretation."""
        t = self._t
        question = d.state_question
        if question is StateQuestion.FULL:
            self._full_state()
        elif question is StateQuestion.TURN:
            if t.in_accusation:
                self._system(QUESTIONS_DONE)
            else:
                self._prompt()  # "Question 2 of 4: Ben." (or the round's end line)
        elif question is not None:
            line = _STATE_LINE[question]
            self._system(line(full_state_of(self._state_at(t.turn + 1), self.joining)))

    def _do_who_is(self, d: Decision) -> None:
        """ "Who is the butler?" -> "Abel Thwaite, the butler.": THE SIX's own words."""
        assert d.suspect is not None
        suspect = self.case.suspect(d.suspect)
        self._system(f"{suspect.name}, {suspect.role}.")

    def _do_latecomer(self, d: Decision) -> None:
        t = self._t
        name = d.names[0]
        if self.classifier.seat_names(name) != [name]:
            self._do_table_talk(d)  # "everyone is here" names no one
        elif len(t.seats) + len(t.joining) >= MAX_SEATS:
            self._system("The table seats eight already.")
        elif self._needs_nickname(name, t.seats + t.joining, len(t.seats) + len(t.joining)):
            self._system(f"{name} is already a name at this table or among the {self._number}. Add them by a nickname.")
        else:
            t.joining.append(name)
            self._system(f"{name} joins as the last seat from the next round.")

    def _do_table_talk(self, d: Decision) -> None:
        if not self._t.talked:
            self._t.talked = True
            self._system(CONFER.format(number=self._number))

    def _do_only_suspects(self, d: Decision) -> None:
        self._system(ONLY_SUSPECTS.format(number=self._number))

    def _do_redirect(self, d: Decision) -> None:
        assert d.suspect is not None
        suspect = self.case.suspect(d.suspect)
        self._system(f"{suspect.name}? Call {suspect.pronouns.object} {suspect.call}.")

    def _do_one_at_a_time(self, d: Decision) -> None:
        self._system(ONE_AT_A_TIME)

    def _do_what_do_you_ask(self, d: Decision) -> None:
        self._system(WHAT_DO_YOU_ASK)

    def _do_one_exhibit(self, d: Decision) -> None:
        self._system(ONE_EXHIBIT)

    def _do_which_exhibit(self, d: Decision) -> None:
        self._system(WHICH_EXHIBIT)

    def _do_not_yet(self, d: Decision) -> None:
        self._system(NOT_YET)

    def _do_no_such_exhibit(self, d: Decision) -> None:
        self._system(NO_SUCH_EXHIBIT)

    def _do_question(self, d: Decision) -> None:
        assert d.suspect is not None
        if self._t.questions >= QUESTIONS_PER_ROUND:
            self._system(SPENT)
            return
        self._say(d.suspect, self._answer(d.suspect, d.rest))
        self._spend()

    def _do_confront(self, d: Decision) -> None:
        assert d.suspect is not None and d.exhibit is not None
        t = self._t
        if t.questions >= QUESTIONS_PER_ROUND:
            self._system(SPENT)
            return
        suspect = self.case.suspect(d.suspect)
        lie = next((entry for entry in self._standing_lies(d.suspect) if d.exhibit in entry.catch), None)
        if lie is not None and lie.label is not None:
            self._system(BREAKS.format(call=suspect.call))
            t.broken.append(lie.label)
            if lie.admit is not None:
                self._say(d.suspect, lie.admit)
                if lie.silence is not None:
                    t.silenced.add(d.suspect)
            else:
                assert lie.gives_way_to is not None
                self._say(d.suspect, self.case.lie(lie.gives_way_to).words)
        else:
            self._system(STANDS_BY.format(call=suspect.call))
            if d.suspect in t.silenced or words(d.rest):
                self._say(d.suspect, self._answer(d.suspect, d.rest))
        self._spend()

    def _do_accuse_too_early(self, d: Decision) -> None:
        self._system(ACCUSE_LATER)

    def _do_questions_done(self, d: Decision) -> None:
        self._system(QUESTIONS_DONE)

    def _do_accuse(self, d: Decision) -> None:
        assert d.suspect is not None
        t = self._t
        t.accusation, t.read_back = Accusation.READ, (d.suspect, d.exhibits)
        counted = ", ".join(f"E{n}" for n in d.exhibits) or "none"
        self._system(
            f"You accuse {self.case.suspect(d.suspect).name}. Exhibits counted: {counted}. "
            "Say yes when the whole table agrees, or give the accusation again."
        )

    def _do_which_one(self, d: Decision) -> None:
        self._system(WHICH_ONE)

    def _do_lock(self, d: Decision) -> None:
        assert d.suspect is not None
        self._t.accusation = Accusation.LOCKED
        self._finish(d.suspect, d.exhibits)

    def _do_not_locked(self, d: Decision) -> None:
        self._t.accusation, self._t.read_back = Accusation.NONE, None
        self._system(NOT_LOCKED)

    def _do_night_over(self, d: Decision) -> None:
        if d.suspect is not None and words(d.rest):
            self._say(d.suspect, self._answer(d.suspect, d.rest), record=False)
        else:
            self._narrate(self.case.reveal.solution)

    # -- rounds, seats, questions -------------------------------------------------------------------

    def _open_round(self, number: int, *, with_save: bool) -> None:
        t = self._t
        t.round, t.questions, t.talked = number, 0, False
        if t.joining:
            t.seats.extend(t.joining)
            t.joining.clear()
            t.solo = False
        round_ = self.case.round(number)
        self._system(f"Round {number} of {ROUNDS}.")
        if number == 1:
            self._narrate(self.case.public.house)
        self._narrate(round_.scene)
        for exhibit in round_.exhibits:
            if exhibit.number not in t.exhibits_read:
                t.exhibits_read.append(exhibit.number)
            self._exhibit(exhibit.number)
        for statement in round_.statements:
            self._statement(statement.suspect, statement.words)
        if with_save:
            self._save_part(turn=t.turn + 1)
        self._full_state()
        self._prompt()

    def _next(self) -> None:
        t = self._t
        if t.in_accusation:
            self._system(NEARLY_DONE)
        elif t.questions >= QUESTIONS_PER_ROUND:
            self._end_round(with_save=False)  # the SAVE came with the round's last question
        else:
            t.pending = Pending.END_ROUND
            self._system(END_ROUND.format(round=t.round, unused=QUESTIONS_PER_ROUND - t.questions))

    def _end_round(self, *, with_save: bool) -> None:
        t = self._t
        if t.round < ROUNDS:
            self._open_round(t.round + 1, with_save=with_save)
        else:
            t.in_accusation, t.phase, t.talked = True, Phase.ACCUSATION, False
            t.questions = QUESTIONS_PER_ROUND
            self._system(NEARLY_DONE)

    def _spend(self) -> None:
        t = self._t
        t.questions += 1
        self._advance_seat()
        if t.questions >= QUESTIONS_PER_ROUND:
            self._system(SPENT)
            self._save_part(turn=t.turn + 1)
        else:
            self._prompt()

    def _advance_seat(self) -> None:
        t = self._t
        if t.seat is not None and t.seats:
            t.seat = (t.seat + 1) % len(t.seats)

    def _prompt(self) -> None:
        t = self._t
        if t.questions >= QUESTIONS_PER_ROUND:
            self._system(SPENT)
        else:
            self._system(f"Question {t.questions + 1} of {QUESTIONS_PER_ROUND}: {self.state.next_seat_name}.")

    # -- the FILEs ----------------------------------------------------------------------------------

    def _in_file(self, entry: FileEntry) -> bool:
        broken = self._t.broken
        if entry.kind is EntryKind.LINE:
            return True
        if entry.kind is EntryKind.HELD:
            return any(self.case.lie(label).suspect == entry.suspect for label in broken)
        if entry.kind is EntryKind.LIE:
            return entry.after is None or entry.after in broken
        return False

    def _standing_lies(self, suspect: str) -> list[FileEntry]:
        return [
            entry
            for entry in self.case.entries_for(suspect)
            if entry.kind is EntryKind.LIE and self._in_file(entry) and entry.label not in self._t.broken
        ]

    def _words_of(self, entry: FileEntry) -> str:
        if entry.kind is EntryKind.LIE and entry.label in self._t.broken:
            if entry.admit is not None:
                return entry.admit
            assert entry.gives_way_to is not None
            return self._words_of(self.case.lie(entry.gives_way_to))
        return entry.words

    def topic_entry(self, suspect: str, question: str) -> FileEntry | None:
        """The in-FILE entry a question asks about now (engine.topics: the first topic it asks)."""
        return self._topics[suspect].choose(question, self._in_file)

    def _answer(self, suspect: str, question: str) -> str:
        if suspect in self._t.silenced:
            return next(
                entry.silence
                for entry in self.case.entries_for(suspect)
                if entry.silence is not None and entry.label in self._t.broken
            )
        if _KILL.search(question):
            return KILL_ANSWER
        entry = self.topic_entry(suspect, question)
        if entry is None:
            entry = next(e for e in self.case.entries_for(suspect) if e.kind is EntryKind.DEFLECT)
        return self._words_of(entry)

    # -- reply building -----------------------------------------------------------------------------

    def _system(self, text: str) -> None:
        self._parts.append(ReplyPart(PartKind.SYSTEM, text))

    def _narrate(self, text: str) -> None:
        self._parts.append(ReplyPart(PartKind.NARRATION, text))

    def _say(self, suspect: str, text: str, *, record: bool = True) -> None:
        if record:
            self._t.spoken.setdefault(suspect, []).append(text)
        name = self.case.suspect(suspect).name
        self._parts.append(ReplyPart(PartKind.SUSPECT, text, speaker=suspect, speaker_name=name))

    def _statement(self, suspect: str, text: str) -> None:
        spoken = self._t.spoken.setdefault(suspect, [])
        if text not in spoken:
            spoken.append(text)
        name = self.case.suspect(suspect).name
        self._parts.append(ReplyPart(PartKind.STATEMENT, text, speaker=suspect, speaker_name=name))

    def _exhibit(self, number: int) -> None:
        exhibit = self.case.exhibit(number)
        self._parts.append(ReplyPart(PartKind.EXHIBIT, exhibit.text, exhibit=number, title=exhibit.title))

    def _full_state(self) -> None:
        self._parts.append(ReplyPart(PartKind.FULL_STATE, full_state(self._state_at(self._t.turn + 1), self.joining)))

    def _state_at(self, turn: int) -> GameState:
        return replace(self.state, turn=turn)

    def save_block(self, turn: int | None = None) -> SaveBlock:
        t = self._t
        public = self.case.public
        return SaveBlock(
            game=public.game,
            mystery=public.mystery,
            rules=public.rules,
            turn=t.turn + 1 if turn is None else turn,
            round=str(t.round),
            questions=t.questions,
            seat=(t.seat or 0) + 1,
            table=tuple(t.seats),
            broken=tuple(t.broken),
        )

    def _save_part(self, turn: int | None = None) -> None:
        self._parts.append(ReplyPart(PartKind.SAVE, self.save_block(turn).render()))

    def _reply(self) -> Reply:
        self._t.turn += 1
        parts = [*self._parts, ReplyPart(PartKind.LEDGER, ledger_line(self.state, self.case.public.version))]
        if self._result is not None:
            parts.append(ReplyPart(PartKind.RESULT, self._result))
            self._result = None
        self._parts = []
        return Reply(tuple(parts))

    # -- the free commands --------------------------------------------------------------------------

    def _lies(self) -> None:
        if not self._t.broken:
            self._system(NO_LIE_BROKEN)
            return
        for label in self._t.broken:
            lie = self.case.lie(label)
            replaced = lie.admit if lie.admit is not None else self.case.lie(lie.gives_way_to or "").words
            name = self.case.suspect(lie.suspect).name
            heard = self._heard_claim(lie)
            claimed = f'claimed "{heard}"; ' if heard is not None else ""
            self._system(f'{label}, {name}: {claimed}now "{replaced}"')

    def _heard_claim(self, lie: FileEntry) -> str | None:
        """What the table heard of a lie: the answer itself, or a statement read tonight that says part of it."""
        said = self._t.spoken.get(lie.suspect, [])
        if lie.words in said:
            return lie.words
        sentences = set(_sentences(lie.words))
        return next((line for line in said if sentences & set(_sentences(line))), None)

    def _answers(self, suspect: str | None) -> None:
        if suspect is None:
            self._system(f"Whose answers? Name one of the {self._number}.")
            return
        said = self._t.spoken.get(suspect, [])
        if not said:
            self._system(f"{self.case.suspect(suspect).call} has said nothing yet.")
        for line in said:
            self._say(suspect, line, record=False)

    # -- save and resume ----------------------------------------------------------------------------

    def _resume(self, save: SaveBlock) -> None:
        t = self._t
        repaired = False
        if save.round == "A":
            number, questions, repaired = ROUNDS, QUESTIONS_PER_ROUND, True
        elif save.round.isdigit() and 1 <= int(save.round) <= ROUNDS:
            number, questions = int(save.round), save.questions
        else:
            number, questions, repaired = 1, save.questions, True
        if not 0 <= questions <= QUESTIONS_PER_ROUND:
            questions, repaired = min(max(questions, 0), QUESTIONS_PER_ROUND), True
        table = self._saved_table(save.table)
        if tuple(table) != save.table and save.table != ():
            repaired = True
        turn = save.turn
        if not 1 <= turn <= MAX_SAVED_TURN:
            turn, repaired = min(max(turn, 1), MAX_SAVED_TURN), True
        seat = save.seat
        if not 1 <= seat <= len(table):
            seat, repaired = min(max(seat, 1), len(table)), True
        read_through = number * EXHIBITS_PER_ROUND
        kept: list[str] = []
        for label in save.broken:
            try:
                lie = self.case.lie(label)
            except KeyError:
                continue
            if label in kept or (lie.after is not None and lie.after not in kept):
                continue
            if not any(n <= read_through for n in lie.catch):
                continue
            kept.append(label)
        dropped = len(save.broken) - len(kept)
        t.turn = turn
        t.round, t.questions, t.phase = number, questions, Phase.ROUNDS
        t.seats, t.solo, t.seat = table, table == ["you"], seat - 1
        t.broken = kept
        t.silenced = {self.case.lie(label).suspect for label in kept if self.case.lie(label).silence is not None}
        t.exhibits_read = list(range(1, read_through + 1))
        if repaired or dropped:
            self._system(f"Save repaired: {dropped} label(s) dropped.")
        self._system(f"Round {number} of {ROUNDS}.")
        for exhibit in self.case.round(number).exhibits:
            self._exhibit(exhibit.number)
        self._full_state()
        self._prompt()

    def _saved_table(self, saved: tuple[str, ...]) -> list[str]:
        """A SAVE's seat names, cleaned and checked as typed names are; one that would not be taken
        typed is dropped (the pasted text is data, never a name that breaks a later reply)."""
        if [clean(name).lower() for name in saved] == ["you"]:
            return ["you"]
        table: list[str] = []
        for raw in saved:
            taken = self.classifier.seat_names(self.classifier.prestrip(clean(raw), ()))
            if taken is None or len(taken) != 1 or self._needs_nickname(taken[0], table, len(table)):
                continue
            table.append(taken[0])
        return table[:MAX_SEATS] or ["you"]

    # -- the end ------------------------------------------------------------------------------------

    def _finish(self, accused: str | None, counted: tuple[int, ...]) -> None:
        t = self._t
        public = self.case.public
        outcome = grade(self.case.reveal.grading, accused, counted, len(t.broken))
        if accused is not None:
            self._system("Correct." if outcome.correct else f"Not {self.case.suspect(accused).name}.")
        self._narrate(self.case.reveal.solution)
        parts = ", ".join(part.value for part in GradePart if part in outcome.parts) or "none"
        self._system(f"Parts counted: {parts}.")
        self._system(f"Lies broken: {outcome.lies}.")
        self._system(f"Score: {outcome.score} (par {PAR}). Verdict: {outcome.verdict.value}.")
        self._system(
            f"To check the seal, hash the reveal at {public.reveal_address} at {public.verify}. "
            f"The epilogue is at {public.epilogue}."
        )
        t.phase = Phase.OVER
        t.pending = None
        turns = t.turn + 1
        result = (
            f"RESULT: AIGC|{public.game}|{public.mystery}|{public.version}|end:{outcome.end}|ch:{public.chapter}|"
            f"turns:{turns}|players:{len(t.seats)}|links:{len(outcome.parts)}|lies:{outcome.lies}|"
            f"score:{outcome.score}|tape:0|sha:none"
        )
        self._result = result
