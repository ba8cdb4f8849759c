"""The panels of the table screen. Each shows one view model and knows nothing of the engine's insides."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Digits, OptionList, Static
from textual.widgets.option_list import Option

from engine.replies import PartKind, Reply, ReplyPart
from engine.rules import QUESTIONS_PER_ROUND
from voice_host.loop.events import HeardUtterance, MicLevel, MicStatus
from voice_host.screen.bigtext import big_text
from voice_host.screen.views import (
    ExhibitView,
    FullStateView,
    LedgerView,
    StatementView,
    sentence_spans,
    speaker_label,
)

# Parts that are shown elsewhere than in the night's scrollback.
_NOT_IN_NIGHT = frozenset({PartKind.LEDGER, PartKind.FULL_STATE})

NEXT_BIG_WIDTH = 23  # the ASKS NEXT cell's width: six letters of big text

_BIG_FILLED = ("█████", "█████", "█████")
_BIG_HOLLOW = ("┌───┐", "│   │", "└───┘")


def big_marks(left: int) -> str:
    """A mark a question, three rows tall: a solid block for each question left, a hollow box for each spent."""
    boxes = [_BIG_FILLED] * left + [_BIG_HOLLOW] * (QUESTIONS_PER_ROUND - left)
    return "\n".join(" ".join(box[row] for box in boxes) for row in range(3))


class LedgerCell(Vertical):
    """One field of the ledger: a caption, an optional big form (wide layouts) and a plain value."""

    def __init__(self, caption: str, *, id: str, big: Static | Digits | None = None) -> None:
        super().__init__(id=f"cell-{id}", classes="cell")
        self._caption = caption
        self._big = big
        self.value = Static("", id=f"ledger-{id}", classes="value")

    def compose(self) -> ComposeResult:
        yield Static(self._caption, classes="caption")
        if self._big is not None:
            yield self._big
        yield self.value


class LedgerPanel(Vertical):
    """The compact ledger, big: round, questions left as marks, who asks next, lies broken, accusation."""

    def __init__(self) -> None:
        super().__init__(id="ledger")
        self.view: LedgerView | None = None
        self.round_digits = Digits("-", id="round-digits", classes="big")
        self.marks_big = Static(big_marks(4), id="marks-big", classes="big")
        self.round = LedgerCell("ROUND", id="round", big=self.round_digits)
        self.questions = LedgerCell("QUESTIONS LEFT", id="questions", big=self.marks_big)
        self.next_big = Static("", id="next-big", classes="big")
        self.next_seat = LedgerCell("ASKS NEXT", id="next", big=self.next_big)
        self.broken = LedgerCell("LIES BROKEN", id="broken")
        self.accusation = LedgerCell("ACCUSATION", id="acc")
        self.line = Static("", id="ledger-line")
        self.result = Static("", id="result-line")

    def compose(self) -> ComposeResult:
        with Horizontal(id="ledger-cells"):
            yield self.round
            yield self.questions
            yield self.next_seat
            yield self.broken
            yield self.accusation
        yield self.line
        yield self.result

    def show(self, view: LedgerView, result: str | None = None) -> None:
        self.view = view
        self.round_digits.update(view.round)
        self.round.value.update(view.round_caption)
        self.marks_big.update(big_marks(view.questions_left))
        self.questions.value.update(f"{view.marks}  {view.questions_left} of {QUESTIONS_PER_ROUND}")
        self.next_seat.value.update(Text(view.next_seat))  # a name is data, never markup
        self.next_seat.set_class(view.next_seat == "-", "-none")
        # In the big layout a short name is drawn three rows tall; a long one stays a reversed block.
        big = big_text(view.next_seat, NEXT_BIG_WIDTH) if view.next_seat != "-" else None
        self.next_big.update(big or "")
        self.next_seat.set_class(big is not None, "-big")
        self.broken.value.update(view.broken)
        self.accusation.value.update(view.accusation)
        self.accusation.set_class(view.accusation != "none", "-alert")
        self.line.update(Text(view.ledger_line))
        self.result.update(Text(result or ""))
        self.result.display = bool(result)


_MIC_SIGNS = {
    MicStatus.LISTENING: ("●", "LISTENING"),
    MicStatus.HEARING: ("◉", "HEARING"),
    MicStatus.THINKING: ("…", "THINKING"),
    MicStatus.SPEAKING: ("♪", "SPEAKING"),
    MicStatus.MUTED: ("✕", "MUTED"),
    MicStatus.UNAVAILABLE: ("⚠", "NO MICROPHONE"),
    MicStatus.OFF: ("⌨", "VOICE OFF"),
}


def level_bar(level: float, width: int = 10) -> str:
    filled = round(max(0.0, min(1.0, level)) * width)
    return "▮" * filled + "▯" * (width - filled)


class MicPanel(Vertical):
    """The microphone's status in a word and a sign (never colour alone), a live level, and the keys."""

    def __init__(self) -> None:
        super().__init__(id="mic")
        self.level = MicLevel(MicStatus.OFF)
        self.status = Static("", id="mic-status")
        self.detail = Static("", id="mic-detail")
        self.keys = Static("Esc stop talking · F2 mic\nF3 repeat · F5 save", id="mic-keys")

    def compose(self) -> ComposeResult:
        yield self.status
        yield self.detail
        yield self.keys

    def show(self, level: MicLevel) -> None:
        self.level = level
        sign, word = _MIC_SIGNS[level.status]
        status = f"{sign} {word}"
        if level.status is MicStatus.HEARING:
            status += f" {level_bar(level.level)}"
        self.status.update(status)
        for other in MicStatus:
            self.set_class(other is level.status, f"-{other.value}")
        self.detail.update(Text(level.detail))
        self.detail.display = bool(level.detail)


class HeardPanel(Static):
    """What was heard (or typed) last, and what it was taken as; the screen's own notices."""

    def __init__(self) -> None:
        super().__init__("", id="heard")
        self.line = Text()
        self.plain = ""

    def show_typed(self, text: str, taken_as: str) -> None:
        self._show("Typed", text, taken_as, confirm=False)

    def show_heard(self, heard: HeardUtterance, taken_as: str | None = None) -> None:
        self._show("Heard", heard.text, taken_as or heard.taken_as, confirm=heard.needs_confirmation)

    def show_unusable(self, transcript: str) -> None:
        self._show("Heard", transcript, "nothing usable: say it again, or type it", confirm=False)

    def show_key(self, key: str, taken_as: str) -> None:
        """A key that stands for a command (F5: save): shown as the key pressed, not as typed words."""
        self._set(Text.assemble(("Key: ", "bold"), key, ("  →  taken as: ", "bold"), taken_as))

    def show_notice(self, title: str, text: str) -> None:
        """A short word from the screen itself (Esc, F2, F8 ...), on this line above the input so it
        never covers what the table types."""
        self._set(Text.assemble((f"{title}: ", "bold"), text))

    def add_notice(self, title: str, text: str) -> None:
        """A notice under what is shown, which stays (the move it is about): a move or the SAVE file
        that could not be written. Here above the input, never in a pop-up over it."""
        notice = Text.assemble((f"{title}: ", "bold"), text)
        self._set(Text("\n").join((self.line, notice)) if self.plain else notice)

    def _show(self, how: str, text: str, taken_as: str, *, confirm: bool) -> None:
        line = Text.assemble((f"{how}: ", "bold"), f"“{text}”", ("  →  taken as: ", "bold"), taken_as)
        if confirm:
            line.append("  (? say yes to confirm)", "bold")
        self._set(line)

    def _set(self, line: Text) -> None:
        self.line = line
        self.plain = line.plain
        self.update(line)


class PartView(Static):
    """One part of a reply: who says it, then the words; the sentence being spoken is highlighted."""

    def __init__(self, part: ReplyPart) -> None:
        super().__init__("", classes=f"part -{part.kind.value}")
        self.part = part
        self.speaking: tuple[int, int] | None = None
        self.update(self.render_part())

    def speak(self, span: tuple[int, int] | None) -> None:
        self.speaking = span
        self.set_class(span is not None, "-speaking")
        self.update(self.render_part())

    def render_part(self) -> Text:
        part = self.part
        span = self.speaking
        marker = "▶ " if span is not None else ""
        if part.kind is PartKind.EXHIBIT:
            head = Text.assemble((f"{marker}Host reads E{part.exhibit}  ", "bold"), (part.title or "", "bold italic"))
            body = Text(part.text)
        elif part.kind is PartKind.SAVE:
            head = Text(f"{marker}SAVE (copy this to resume in a new game)", "bold")
            body = Text(part.text)
        elif part.kind is PartKind.RESULT:
            head = Text(f"{marker}THE NIGHT IS OVER", "bold")
            body = Text(part.text, "bold")
        else:
            who = speaker_label(part)
            head = Text(f"{marker}{who.upper()}", "bold")
            quoted = part.kind in (PartKind.STATEMENT, PartKind.SUSPECT)
            body = Text(f"“{part.text}”" if quoted else part.text)
            if quoted and span is not None:
                span = (span[0] + 1, span[1] + 1)  # past the opening quote
        if span is not None:
            body.stylize("reverse bold", *span)
        return Text.assemble(head, "\n", body)


class NightEntry(Vertical):
    """One exchange of the night: what the table said and the Host's reply, part by part."""

    def __init__(self, reply: Reply, said: str | None, taken_as: str | None) -> None:
        super().__init__(classes="entry")
        self.reply = reply
        self.said = said
        self.taken_as = taken_as
        # Keyed by the part's index in the reply, the index the speaker reports progress by.
        self.parts: dict[int, PartView] = {
            index: PartView(part) for index, part in enumerate(reply.parts) if part.kind not in _NOT_IN_NIGHT
        }

    def compose(self) -> ComposeResult:
        if self.said is not None:
            said = Text.assemble(("» ", "bold"), self.said)
            if self.taken_as:
                said.append(f"   ({self.taken_as})", "italic")
            yield Static(said, classes="said")
        yield from self.parts.values()

    class LaidOut(Message):
        """The entry has (new) room on the screen: its words have wrapped to the night's width."""

        def __init__(self, entry: NightEntry) -> None:
            super().__init__()
            self.entry = entry

    def on_resize(self) -> None:
        self.post_message(self.LaidOut(self))

    def speak(self, index: int | None, span: tuple[int, int] | None) -> PartView | None:
        """Highlight a sentence of one part (None: nothing is being spoken); returns that part."""
        for part_index, view in self.parts.items():
            view.speak(span if part_index == index else None)
        return self.parts.get(index) if index is not None else None


def first_sentence(part: ReplyPart) -> tuple[int, int] | None:
    spans = sentence_spans(part.text)
    return spans[0] if spans else None


class EvidenceList(OptionList):
    """Exhibits read so far, by number and title; highlighting one shows its words below."""


class ExhibitText(Static):
    pass


class StatementsView(VerticalScroll):
    def show(self, round_number: int, statements: tuple[StatementView, ...]) -> None:
        self.remove_children()
        if not statements:
            self.mount(Static("No statements yet.", classes="empty"))
            return
        self.mount(Static(f"STATEMENTS, ROUND {round_number}", classes="statements-head"))
        for statement in statements:
            self.mount(
                Static(
                    Text.assemble((statement.speaker.upper(), "bold"), "\n", f"“{statement.text}”"),
                    classes="statement",
                )
            )


def exhibit_options(exhibits: list[ExhibitView]) -> list[Option]:
    return [Option(Text(view.heading), id=f"E{view.number}") for view in exhibits]


def full_state_table(view: FullStateView) -> Table:
    """FULL STATE as labelled rows: a list, never an interpretation."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    table.add_row("Round", view.round)
    table.add_row("Seats", Text("   ".join(view.seats) or "-"))
    table.add_row("Asks next", Text(view.next_seat))
    table.add_row("Exhibits read", view.exhibits_read)
    table.add_row("Lies broken", view.broken)
    table.add_row("Questions left", view.questions_left)
    return table


class FullStatePanel(Static):
    """FULL STATE at round openings and on resume, as a panel."""

    def __init__(self) -> None:
        super().__init__("", id="full-state")
        self.view: FullStateView | None = None
        self.border_title = "FULL STATE  (F6 hides)"

    def show(self, view: FullStateView) -> None:
        self.view = view
        self.update(full_state_table(view))
