"""The table screen: `third-carol` and `third-carol --no-voice` open this full-screen Textual app.

Data flows one way: a typed (or heard) line goes to the game; the reply's parts go to the night and the
speaker; the ledger, the evidence and FULL STATE are redrawn from `GameState` after every reply.

Keys: Esc stops the Host talking, F2 turns the microphone off and on, F3 repeats the last reply, F5
saves, F6 shows or hides FULL STATE, F7 goes to the exhibits (on a small screen: shows them in place
of the night) and back, F8 shows the house on a small screen, F9 switches light and dark, Ctrl+Q quits
(the night is kept: `--resume` picks it up). The footer lists them all, quit included, at 80 columns.
From 130x36 up the ledger is drawn big beside a side column of evidence and the house; below that the
layout is compact.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from dataclasses import replace
from io import TextIOWrapper
from typing import TYPE_CHECKING, ClassVar, Protocol

from rich.console import Console
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.driver import Driver
from textual.message import Message
from textual.widgets import Footer, Input, OptionList, Static

from engine.messages import MessageKind
from engine.replies import PartKind, Reply, ReplyPart
from engine.rules import QUESTIONS_PER_ROUND
from engine.state import GameState
from voice_host.ears.short_words import ShortWord
from voice_host.loop.barge_in import (
    ONE_AT_A_TIME,
    Answered,
    BargeAction,
    BargeIn,
    HostTalk,
    barge_words,
    finishes,
    finishing_text,
)
from voice_host.loop.events import MicLevel, MicStatus
from voice_host.screen.driver import Exchange, TableDriver
from voice_host.screen.house import house_plan
from voice_host.screen.views import Evidence, find_sentence, full_state_view, ledger_view, plain_taken_as
from voice_host.screen.voice import (
    LockedClassifier,
    MicChanged,
    SentenceStarted,
    ShortWordHeard,
    SpeakerLost,
    Understood,
    VoiceFailed,
    VoiceReady,
    open_table_voice,
)
from voice_host.screen.widgets import (
    EvidenceList,
    ExhibitText,
    FullStatePanel,
    HeardPanel,
    LedgerPanel,
    MicPanel,
    NightEntry,
    StatementsView,
    exhibit_options,
)
from voice_host.understanding.host_requests import is_repeat_request

if TYPE_CHECKING:
    from pathlib import Path

    from engine.case import Case
    from voice_host.loop.listener import ShortHeard
    from voice_host.loop.session import SessionOutput
    from voice_host.screen.voice import SaidWhen
    from voice_host.understanding.understand import Heard

NO_VOICE = MicLevel(MicStatus.OFF, detail="Typed play: type each message below.")
LOADING = MicLevel(MicStatus.THINKING, detail="Loading the speech models; type meanwhile.")
REPEATED = "(the last reply again)"
FIRST_FRAME_WAIT = 10.0  # seconds the voice side waits for the first frame before loading anyway
# A reply with these is read top-down: on a small screen it is shown from its top, not its end.
_READ_FROM_THE_TOP = frozenset({PartKind.EXHIBIT, PartKind.STATEMENT})


class Voice(Protocol):
    """The voice side as the screen uses it (see voice_host/screen/voice.py); all calls return at once."""

    def say(self, reply: Reply) -> None: ...

    def stop(self) -> None: ...

    def toggle_mute(self) -> bool: ...

    def host_talk(self) -> HostTalk | None:
        """The Host's latest talk, on the listener's clock (None: no listener, or it has not talked yet)."""
        ...

    def close(self) -> None: ...


# Compact rules apply when the terminal is narrow OR short; both selectors are listed each time.
CSS = """
Screen { layout: vertical; }

#top { height: auto; }
#ledger { width: 1fr; height: auto; border: round $primary; padding: 0 1; }
#ledger-cells { height: auto; }
.cell { height: auto; margin-right: 1; }
#cell-round { width: 10; }
#cell-questions { width: 24; }
#cell-next { width: 24; }
#next-big { display: none; text-style: bold; }
#cell-next.-big #next-big { display: block; }
#cell-next.-big .value { display: none; }
#cell-broken { width: 14; }
#cell-acc { width: 1fr; min-width: 18; }
.cell .caption { color: $text-muted; text-style: bold; }
.cell .value { text-style: bold; width: auto; }
/* Reversed by colours from the theme, so the block reads on dark and light themes alike. */
#cell-next .value { background: $foreground; color: $background; padding: 0 1; height: 3; content-align: left middle; }
#cell-next.-none .value { background: transparent; color: $foreground; }
#cell-acc.-alert .value { background: $foreground; color: $background; padding: 0 1; }
#round-digits { width: auto; text-style: bold; }
#cell-round .value { color: $text-muted; }
#marks-big { width: auto; }
#ledger-line { color: $text-muted; margin-top: 1; }
#result-line { text-style: bold; }

#mic { width: 30; height: auto; border: round $secondary; padding: 0 1; }
#mic-status { text-style: bold; }
#mic.-unavailable #mic-status, #mic.-muted #mic-status { background: $foreground; color: $background; width: auto; }
#mic-detail, #mic-keys { color: $text-muted; }

#full-state { height: auto; border: round $accent; padding: 0 1; display: none; }
#full-state.-shown { display: block; }

#body { height: 1fr; }
#night { width: 1fr; border: round $primary; padding: 0 1; }
#night .entry { height: auto; margin-bottom: 1; padding-left: 1; border-left: blank; }
#night .entry.-current { border-left: thick $accent; }
#night .said { color: $text-muted; }
#night .part { margin-bottom: 1; }
#night .part:last-of-type { margin-bottom: 0; }
#night .part.-speaking { background: $boost; }
#night .-save, #night .-result { border: round $warning; padding: 0 1; }

#side { width: 66; }
#evidence-box { height: 1fr; border: round $secondary; padding: 0 1; }
#exhibit-list { height: auto; max-height: 8; border: none; padding: 0; }
#exhibit-scroll { height: auto; max-height: 10; margin-bottom: 1; }
#statements { height: 1fr; }
#statements .statement { margin-bottom: 1; }
#statements .statements-head { text-style: bold; }
#house-box { height: auto; border: round $secondary; padding: 0 1; }
#house { width: auto; }

#heard { height: auto; padding: 0 1; }
#typed { margin: 0; }

Screen.-narrow #ledger, Screen.-short #ledger { border: none; padding: 0; }
Screen.-narrow .big, Screen.-short .big { display: none; }
Screen.-narrow #cell-next #next-big, Screen.-short #cell-next #next-big { display: none; }
Screen.-narrow #cell-next .value, Screen.-short #cell-next .value { display: block; }
Screen.-narrow .cell, Screen.-short .cell { margin-right: 1; }
Screen.-narrow #cell-round, Screen.-short #cell-round { width: 11; }
Screen.-narrow #result-line, Screen.-short #result-line { display: none; }
Screen.-narrow #cell-questions, Screen.-short #cell-questions { width: 15; }
Screen.-narrow #cell-next, Screen.-short #cell-next { width: 12; }
Screen.-narrow #cell-broken, Screen.-short #cell-broken { width: 12; }
Screen.-narrow #ledger-line, Screen.-short #ledger-line { margin-top: 0; }
Screen.-narrow #cell-next .value, Screen.-short #cell-next .value { height: 1; }
Screen.-narrow #top, Screen.-short #top { layout: vertical; }
Screen.-narrow #mic, Screen.-short #mic { width: 1fr; layout: horizontal; border: none; padding: 0; }
Screen.-narrow #mic-status, Screen.-short #mic-status { width: auto; margin-right: 2; }
Screen.-narrow #mic-detail, Screen.-short #mic-detail { width: 1fr; }
Screen.-narrow #mic-keys, Screen.-short #mic-keys { display: none; }
Screen.-narrow #night, Screen.-short #night { border: none; padding: 0; }
Screen.-narrow #night .part, Screen.-short #night .part { margin-bottom: 0; }
Screen.-narrow #side, Screen.-short #side { display: none; width: 1fr; }
Screen.-narrow.-show-evidence #side, Screen.-short.-show-evidence #side,
Screen.-narrow.-show-house #side, Screen.-short.-show-house #side { display: block; }
Screen.-narrow.-show-evidence #night, Screen.-short.-show-evidence #night,
Screen.-narrow.-show-house #night, Screen.-short.-show-house #night { display: none; }
Screen.-narrow.-show-evidence #house-box, Screen.-short.-show-evidence #house-box { display: none; }
Screen.-narrow.-show-house #evidence-box, Screen.-short.-show-house #evidence-box { display: none; }
Screen.-narrow #typed, Screen.-short #typed { border: none; height: 1; padding: 0 1; }
"""


def driver_drawing_on(terminal: TextIOWrapper) -> type[Driver]:
    """Textual's terminal driver, drawing on `terminal` instead of the process's stderr (which Textual
    uses by default, and which voice play sends to a log: see `native_stderr_to`)."""
    from textual.drivers.linux_driver import LinuxDriver

    class TerminalDriver(LinuxDriver):
        def __init__(
            self, app: App[object], *, debug: bool = False, mouse: bool = True, size: tuple[int, int] | None = None
        ) -> None:
            super().__init__(app, debug=debug, mouse=mouse, size=size)
            self._file = terminal  # LinuxDriver's output (its default: sys.__stderr__)

    return TerminalDriver


class TableApp(App[int]):
    """The table screen around one game."""

    TITLE = "The Third Carol"
    CSS = CSS
    # Below 130 columns the big ledger and the side column do not fit beside each other: compact.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (130, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "stop_talking", "Stop", priority=True),
        Binding("f2", "toggle_mic", "Mic", priority=True),
        Binding("f3", "repeat", "Repeat", priority=True),
        Binding("f5", "save", "Save", priority=True),
        Binding("f6", "toggle_full_state", "State", priority=True),
        Binding("f7", "evidence", "Exhibits", priority=True),
        Binding("f8", "house", "House", priority=True),
        Binding("f9", "light_or_dark", "Light", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        driver: TableDriver,
        *,
        voice: Voice | None = None,
        mic: MicLevel = NO_VOICE,
        load_voice: Callable[[Callable[[Message], object]], None] | None = None,
        terminal: TextIOWrapper | None = None,
    ) -> None:
        # `terminal`: where to draw when the process's stderr is not the terminal (voice play).
        super().__init__(driver_class=driver_drawing_on(terminal) if terminal is not None else None)
        if terminal is not None:
            # A crash report printed as the app closes goes where the table can read it.
            self.error_console = Console(markup=False, highlight=False, file=terminal)
        self.driver = driver
        self.voice = voice
        self._load_voice = load_voice  # opens the voice side in a worker thread, posting what happens
        self._voice_orphaned = threading.Event()
        self.evidence = Evidence()
        self.current: NightEntry | None = None
        self.ledger = LedgerPanel()
        self.mic = MicPanel()
        self.full_state = FullStatePanel()
        self.heard = HeardPanel()
        self._first_mic = mic
        # How the speaker words a shown sentence (set by the voice side), to find the one being spoken.
        self.spoken_form: Callable[[str], str] = lambda text: text
        self.barge_in = BargeIn()
        self._answering_voice = False  # the Host's current talk answers a spoken message
        self._answered: Answered | None = None  # ... and what it was (for words said after it that finish it)
        self._kept: Heard | None = None  # said over the Host: answered when it stops
        # The table silenced the Host (a stop word, Esc) and it has not spoken since: words said as it fell
        # silent ("Stop, ... please.") are taken as always, never kept or dropped with a word.
        self._table_silenced = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield self.ledger
            yield self.mic
        yield self.full_state
        with Horizontal(id="body"):
            yield VerticalScroll(id="night")
            with Vertical(id="side"):
                with Vertical(id="evidence-box"):
                    yield EvidenceList(id="exhibit-list")
                    with VerticalScroll(id="exhibit-scroll"):
                        yield ExhibitText("No exhibits read yet.", id="exhibit-text")
                    yield StatementsView(id="statements")
                with Vertical(id="house-box"):
                    yield Static(id="house")
        yield self.heard
        yield Input(placeholder=f"Type here and press Enter, e.g.  {self.driver.example_question}", id="typed")
        # Compact: every key, quit included, fits on one line at 80 columns.
        yield Footer(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        self.query_one("#evidence-box").border_title = "THE EVIDENCE IN"
        self.query_one("#house-box").border_title = "THE HOUSE"
        night = self.query_one("#night", VerticalScroll)
        night.border_title = "THE NIGHT"
        plan, _drawn = house_plan(self.driver.house_text)
        self.query_one("#house", Static).update(plan)
        self.show_mic(self._first_mic)
        exchanges = self.driver.begin()
        for exchange in exchanges:
            self.show_reply(exchange.reply, exchange.said, exchange.taken_as)
        last = exchanges[-1].reply
        if self.driver.resumed:
            # The card: on resume, FULL STATE above the LEDGER, and a line saying the night was resumed.
            last = self.driver.game.resumed()
            self.show_reply(last, None, None)
        self._say(last)
        self._show_problems()
        self.query_one("#typed", Input).focus()
        if self._load_voice is not None:
            load = self._load_voice
            drawn = threading.Event()
            self.call_after_refresh(drawn.set)
            self.run_worker(lambda: self._load_voice_once_drawn(drawn, load), thread=True, name="voice", exit_on_error=False)

    def _load_voice_once_drawn(self, drawn: threading.Event, load: Callable[[Callable[[Message], object]], None]) -> None:
        """Load the voice side (in the worker) once the first frame is drawn: loading the models imports
        and reads a lot under Python's lock, and the table must not wait for that to see its screen."""
        drawn.wait(timeout=FIRST_FRAME_WAIT)
        load(self._post_from_voice)

    def _post_from_voice(self, message: Message) -> bool:
        """Post from the voice side's threads; False once the screen has closed (nobody will read it)."""
        if self._voice_orphaned.is_set():
            return False
        return self.post_message(message)

    def on_unmount(self) -> None:
        self._voice_orphaned.set()
        if self.voice is not None:
            self.voice.close()

    # --- input -------------------------------------------------------------------------------------

    @on(Input.Submitted, "#typed")
    def typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.clear()
        if text:
            self.send(text)

    def send(self, text: str, key: str | None = None, heard: str | None = None) -> Exchange:
        """Send one typed line (or the command a `key` stands for, or a short word `heard` over the Host)
        to the game, show what comes back and say it."""
        self._silence()
        self._answering_voice = heard is not None
        self._answered = Answered(text, self.driver.situation()) if heard is not None else None
        exchange = self.driver.typed(text)
        said: str | None
        if heard is not None:
            self.heard.show_notice("Heard", f"{heard!r} over the Host  →  taken as: {exchange.taken_as or text}")
            said = heard
        elif key is None:
            self.heard.show_typed(text, exchange.taken_as or "")
            said = exchange.said
        else:
            self.heard.show_key(key, exchange.taken_as or text)
            said = f"{key}: {text}"
        self.show_reply(exchange.reply, said, exchange.taken_as)
        self._say(exchange.reply)
        self._show_problems()
        return exchange

    def _show_problems(self) -> None:
        """What went wrong with the journal or the SAVE file, one line each under what was said (not a
        pop-up, which covers the input at 80x24): the night goes on."""
        for line in self.driver.take_problems():
            self.heard.add_notice("Not saved", line)

    # --- what the voice side reports (on the UI thread: the voice side uses call_from_thread) --------

    def show_mic(self, level: MicLevel) -> None:
        self.mic.show(level)

    def take_heard(self, heard: Heard, said: SaidWhen | None = None) -> None:
        """An utterance, understood: through the session (which may ask to confirm) to the screen.

        Said over the Host (`said`), it may only silence or restart it, or wait until it stops."""
        if said is not None and self._barge(heard, said):
            return
        if heard.usable:
            self._silence()
        elif heard.transcript.strip():
            # Heard something but could not use it: say so, so the table repeats it or types it.
            self.heard.show_unusable(heard.transcript)
        before = self.driver.state  # what the utterance was taken as depends on the state it came in
        self._answering_voice = True
        self._answered = Answered(heard.text, self.driver.situation()) if heard.usable else None
        self.show_output(self.driver.heard(heard), before)
        self._show_problems()

    def _barge(self, heard: Heard, said: SaidWhen) -> bool:
        """Words said over the Host (docs/speech.md "Barge-in"); True when they were dealt with here."""
        words = barge_words((heard.transcript, heard.text), heard.message, is_repeat_request(heard.text, heard.message))
        host = replace(said.host, answering_voice=self._answering_voice)
        latest = self.voice.host_talk() if self.voice is not None else None
        finishing = self._finishes_answered(heard)
        action = self.barge_in.decide(words, said.began_at, said.ended_at, host, finishing=finishing, latest=latest)
        if action in (BargeAction.KEEP, BargeAction.DROP) and self._table_silenced:
            # The Host is silent at the table's word: a card message is taken as always, and talk ("... please.")
            # is only shown, so the Host stays quiet.
            if heard.message is not None and heard.message.kind is not MessageKind.TABLE_TALK:
                return False
            self.heard.show_notice("Heard", f"{heard.transcript.strip()!r}: the Host stays quiet.")
            return True
        if action is BargeAction.SILENCE:
            self._silence(by_table=True)
            self.heard.show_notice("Heard", f"{heard.transcript.strip()!r}: the Host stopped. F3 repeats the reply.")
        elif action is BargeAction.RESTART:
            self.heard.show_notice("Heard", f"{heard.transcript.strip()!r}: again from the start.")
            self.action_repeat()
        elif action is BargeAction.FINISHED:
            answered = self._answered.text if self._answered is not None else ""
            self.heard.show_notice("Heard", f"{heard.transcript.strip()!r}: the rest of {answered!r}, already answered.")
        elif action is BargeAction.KEEP:
            self._kept = heard  # the latest only: what the table said last is what it wants answered
            self.heard.show_notice("Heard", f"{heard.transcript.strip()!r}: answered when the Host stops.")
        elif action is BargeAction.PASSED:
            self.heard.show_notice("Heard", f"{heard.transcript.strip()!r}: the Host had already stopped.")
        elif action is BargeAction.DROP:
            self.heard.show_notice("Heard", f"{heard.transcript.strip()!r}: {ONE_AT_A_TIME}")
            self._say(Reply((ReplyPart(PartKind.SYSTEM, ONE_AT_A_TIME),)))
        else:
            return False  # not over the Host, or a command that acts at once: handled as always
        return True

    def _finishes_answered(self, heard: Heard) -> bool:
        """Whether words heard over the Host only finish the spoken message it is answering (`finishes`)."""
        answered = self._answered
        # Whisper's words as well as the repaired text: repair may have made a name of them ("Round, please."
        # read as "Ruddock, please.").
        said = [words for words in dict.fromkeys((heard.text, heard.transcript)) if words.strip()]
        if answered is None or not said:
            return False
        meant = self.driver.preview(answered.text, answered.situation)
        return any(
            finishes(meant, self.driver.preview(finishing_text(answered.text, words), answered.situation)) for words in said
        )

    def take_short_word(self, short: ShortHeard) -> None:
        """A stop, repeat, next or skip word over the Host, taken by the short path (the voice side has
        already stopped the Host): stop stays silent, repeat says the reply again, next and skip go to
        the game as the card's next and pass."""
        said = short.scores.phrase[short.word]
        if short.word is ShortWord.STOP:
            self._silence(by_table=True)
            self.heard.show_notice("Heard", f"{said!r}: the Host stopped. F3 repeats the reply.")
        elif short.word is ShortWord.REPEAT:
            self.heard.show_notice("Heard", f"{said!r}: again from the start.")
            self.action_repeat()
        else:
            self.send("next" if short.word is ShortWord.NEXT else "pass", heard=said)

    def _take_kept(self) -> None:
        """The Host has stopped: answer what was said over it."""
        kept, self._kept = self._kept, None
        if kept is not None:
            self.take_heard(kept)

    def show_output(self, output: SessionOutput, before: GameState | None = None) -> None:
        """Show and say what the session gave back for a heard utterance or a repeat."""
        said = output.heard.text if output.heard is not None else None
        taken_as = plain_taken_as(output.heard.taken_as, before or self.driver.state) if output.heard is not None else None
        if output.heard is not None:
            self.heard.show_heard(output.heard, taken_as)
        if output.replay and output.reply is not None:
            self._add_entry(output.reply, REPEATED, None)
            self._say(output.reply)
        elif output.reply is not None:
            self.show_reply(output.reply, said, taken_as)
            self._say(output.reply)
        elif output.host_line is not None:
            # The session's own line ("I heard: ... Say yes or no."): shown and said, never a game turn.
            line = Reply((ReplyPart(PartKind.SYSTEM, output.host_line),))
            self._add_entry(line, said, taken_as)
            self._say(line)

    def show_speaking(self, part_index: int | None, sentence: str = "") -> None:
        """Highlight the sentence being spoken in the current reply (None: the Host fell silent)."""
        if self.current is None:
            return
        span = None
        if part_index is not None and part_index in self.current.parts:
            text = self.current.parts[part_index].part.text
            span = find_sentence(text, sentence, self.spoken_form) if sentence else None
            if span is None:
                span = (0, len(text))
        view = self.current.speak(part_index, span)
        night = self.query("#night").results(VerticalScroll)
        # (A sentence reported as the screen closes finds no night left to scroll.)
        if view is not None and (shown := next(night, None)) is not None:
            shown.scroll_to_widget(view, animate=False)

    @on(MicChanged)
    def _mic_changed(self, event: MicChanged) -> None:
        self.show_mic(event.level)
        if event.level.status is not MicStatus.SPEAKING:
            self.show_speaking(None)
            self._take_kept()

    @on(Understood)
    def _understood(self, event: Understood) -> None:
        self.take_heard(event.heard, event.said)

    @on(ShortWordHeard)
    def _short_word(self, event: ShortWordHeard) -> None:
        self.take_short_word(event.heard)

    @on(SentenceStarted)
    def _sentence_started(self, event: SentenceStarted) -> None:
        # Only a sentence of the latest reply: one of a reply stopped by new input may come late, and
        # must neither mark the latest reply as spoken nor move the night.
        if self.current is not None and event.reply is self.current.reply:
            self.show_speaking(event.part_index, event.text)

    @on(SpeakerLost)
    def _speaker_lost(self, event: SpeakerLost) -> None:
        from voice_host.ears.audio import SPEAKER_LOST

        self.show_speaking(None)
        self.heard.add_notice("Voice", SPEAKER_LOST)

    @on(VoiceReady)
    def _voice_ready(self, event: VoiceReady) -> None:
        from voice_host.mouth.tts import spoken_text

        self.voice = event.io
        self.spoken_form = spoken_text
        if event.io.listener is None:
            self.show_mic(MicLevel(MicStatus.UNAVAILABLE, detail=" ".join(event.io.problems)))
        elif event.io.problems:
            self.heard.show_notice("Voice", " ".join(event.io.problems))
        if self.current is not None and len(self.query(NightEntry)) == 1:
            self._say(self.current.reply)  # nothing typed yet: read the opening aloud

    @on(VoiceFailed)
    def _voice_failed(self, event: VoiceFailed) -> None:
        reason = event.reason if "type" in event.reason.lower() else f"{event.reason} Type instead."
        self.show_mic(MicLevel(MicStatus.UNAVAILABLE, detail=reason))

    # --- replies --------------------------------------------------------------------------------------

    def show_reply(self, reply: Reply, said: str | None, taken_as: str | None) -> NightEntry:
        state = self.driver.state
        result = next((part.text for part in reply.parts if part.kind is PartKind.RESULT), None)
        # The LEDGER is the last part, except at the end where the RESULT line follows it.
        ledger = next((part.text for part in reversed(reply.parts) if part.kind is PartKind.LEDGER), None)
        if ledger is not None:
            self.ledger.show(ledger_view(state, ledger), result)
        has_full_state = any(part.kind is PartKind.FULL_STATE for part in reply.parts)
        # Always redrawn, shown or not, so F6 never shows an older state than the ledger's.
        self.full_state.show(full_state_view(state))
        self.full_state.set_class(has_full_state, "-shown")
        changed = self.evidence.take(reply, state)
        for number in state.exhibits_read:
            # A resumed game has exhibits read before this screen opened: show them too.
            if number not in self.evidence.exhibits and (view := self.driver.read_exhibit(number)):
                self.evidence.exhibits[number] = view
                changed = True
        if changed:
            self._show_evidence()
        read = [part.exhibit for part in reply.parts if part.kind is PartKind.EXHIBIT and part.exhibit is not None]
        if len(read) == 1:
            # "read E{n}": the panel shows the exhibit being read, not the one it showed before. A round
            # opening reads four and keeps showing the first of them.
            self._show_exhibit(read[0])
        return self._add_entry(reply, said, taken_as)

    def _add_entry(self, reply: Reply, said: str | None, taken_as: str | None) -> NightEntry:
        if self.current is not None:
            self.current.remove_class("-current")
            self.current.speak(None, None)
        entry = NightEntry(reply, said, taken_as)
        entry.add_class("-current")
        self.current = entry
        night = self.query_one("#night", VerticalScroll)
        night.mount(entry)  # once it is laid out (NightEntry.LaidOut), the new reply is brought into view
        return entry

    @on(NightEntry.LaidOut)
    def _entry_laid_out(self, event: NightEntry.LaidOut) -> None:
        # The latest reply was laid out, first or again at a new width (a resized terminal re-wraps
        # the whole night, which would leave it at an old round): bring it into view.
        if event.entry is self.current:
            self._follow()

    def _follow(self) -> None:
        """Show the latest reply: the sentence being spoken; else a reply that reads evidence from its
        top (a round's opening is taller than a small screen: its scene and new exhibits come first,
        the ledger says who asks next); else the reply's end, where its prompt is."""
        # (A reply laid out as the screen closes finds no night left to scroll: seen in a loaded test run.)
        night = next(self.query("#night").results(VerticalScroll), None)
        if self.current is None or night is None:
            return
        speaking = next((view for view in self.current.parts.values() if view.speaking is not None), None)
        if speaking is not None:
            night.scroll_to_widget(speaking, animate=False)
        elif any(part.kind in _READ_FROM_THE_TOP for part in self.current.reply.parts):
            night.scroll_to_widget(self.current, animate=False, top=True)
        else:
            night.scroll_end(animate=False, immediate=True)

    def on_resize(self) -> None:
        # After the screen has taken its new size and layout classes.
        self.call_after_refresh(self._after_resize)

    def _after_resize(self) -> None:
        if not self._compact():
            # Where the evidence and the house are always shown, F7's and F8's small-screen views end,
            # so a later shrink shows the night again.
            self.screen.remove_class("-show-house", "-show-evidence")

    def _compact(self) -> bool:
        return self.screen.has_class("-narrow") or self.screen.has_class("-short")

    def _show_evidence(self) -> None:
        exhibits = self.evidence.ordered(self.driver.state.exhibits_read)
        listing = self.query_one("#exhibit-list", EvidenceList)
        highlighted = listing.highlighted
        options = exhibit_options(exhibits)
        shown = [option.id for option in listing.options]
        if shown != [option.id for option in options[: len(shown)]]:
            listing.clear_options()
            shown = []
        new = options[len(shown) :]
        if new:
            listing.add_options(new)  # the usual case: new exhibits come after the old
            listing.highlighted = len(shown)  # new evidence in: show the first of it
            listing.scroll_to_highlight(top=True)
        elif options and highlighted is not None:
            listing.highlighted = min(highlighted, len(options) - 1)
        self.query_one("#statements", StatementsView).show(self.evidence.statements_round, self.evidence.statements)

    def _show_exhibit(self, number: int) -> None:
        listing = self.query_one("#exhibit-list", EvidenceList)
        index = next((i for i, option in enumerate(listing.options) if option.id == f"E{number}"), None)
        if index is not None:
            listing.highlighted = index
            listing.scroll_to_highlight()

    @on(OptionList.OptionHighlighted, "#exhibit-list")
    def exhibit_chosen(self, event: OptionList.OptionHighlighted) -> None:
        number = int(str(event.option.id).removeprefix("E"))
        view = self.evidence.exhibits.get(number)
        text = self.query_one("#exhibit-text", ExhibitText)
        if view is None:
            text.update(f"E{number}: say “read E{number}” to hear it again.")
        else:
            text.update(Text.assemble((view.heading, "bold underline"), "\n", view.text))

    # --- speech ---------------------------------------------------------------------------------------

    def _say(self, reply: Reply) -> None:
        self._table_silenced = False
        if self.voice is not None:
            self.voice.say(reply)

    def _silence(self, by_table: bool = False) -> None:
        """New input interrupts the Host: what it was saying is on the screen anyway (and what was said
        over it is dropped: the table has moved on). `by_table`: a stop word or Esc asked for the silence."""
        self._kept = None
        self._table_silenced = self._table_silenced or by_table
        if self.voice is not None:
            self.voice.stop()
        self.show_speaking(None)

    # --- keys -----------------------------------------------------------------------------------------

    def action_stop_talking(self) -> None:
        speaking = self.mic.level.status is MicStatus.SPEAKING or (
            self.current is not None and any(view.speaking is not None for view in self.current.parts.values())
        )
        self._silence(by_table=True)
        if speaking:
            self.heard.show_notice("Esc", "the Host stopped talking. F3 repeats the reply.")
        else:
            self.heard.show_notice("Esc", "the Host is not talking.")

    def action_toggle_mic(self) -> None:
        if self.voice is None or self.mic.level.status is MicStatus.UNAVAILABLE:
            said = "Voice is off: type instead." if self.mic.level.status is MicStatus.OFF else "No microphone: type instead."
            self.heard.show_notice("F2", said)
            return
        self.voice.toggle_mute()  # the listener reports the new status itself

    def action_repeat(self) -> None:
        self._silence()
        self.show_output(self.driver.repeat())

    def action_save(self) -> None:
        self.send("save", key="F5")

    def action_toggle_full_state(self) -> None:
        self.full_state.show(full_state_view(self.driver.state))  # as the ledger stands now
        self.full_state.toggle_class("-shown")

    def action_evidence(self) -> None:
        """Go to the exhibit list (compact: show the evidence in place of the night) and back."""
        listing = self.query_one("#exhibit-list", EvidenceList)
        going = not listing.has_focus
        self.screen.remove_class("-show-house")
        self.screen.set_class(going, "-show-evidence")
        if going:
            listing.focus()
        else:
            self.query_one("#typed", Input).focus()

    @on(OptionList.OptionSelected, "#exhibit-list")
    def exhibit_selected(self) -> None:
        # Enter on an exhibit: its words stay shown and the table goes back to typing.
        self.screen.remove_class("-show-evidence")
        self.query_one("#typed", Input).focus()

    def action_light_or_dark(self) -> None:
        """A bright room reads a light screen better; the colours come from the theme either way."""
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def action_house(self) -> None:
        if not self._compact():
            self.heard.show_notice("F8", "the house is always shown beside the evidence at this size.")
            return
        self.screen.remove_class("-show-evidence")
        self.screen.toggle_class("-show-house")


def _device(choice: str | None) -> int | str | None:
    """A device given on the command line: its number, or part of its name, as sounddevice takes it."""
    if choice is None:
        return None
    return int(choice) if choice.isdigit() else choice


def run_screen(args: argparse.Namespace) -> int:
    """Load the case, start (or resume) the game and run the table screen until the table quits."""
    from engine.game import Game
    from voice_host.loop.journal import StateProblem, read_night
    from voice_host.loop.opening import choose_night_or_say, open_case_and_folder

    opened = open_case_and_folder(args.case, args.state_dir, sys.stdout)
    if opened is None:
        return 1
    case, folder = opened
    with folder:
        chosen = choose_night_or_say(folder, case.public.mystery, args.night, args.resume)
        if chosen is None:
            return 1
        night = chosen.night
        if chosen.unfinished is not None:
            from voice_host.screen.resume_offer import ResumeChoice

            choice = ResumeChoice(chosen.unfinished).run()
            if choice is None:
                return 0
            try:
                night = read_night(chosen.unfinished.path) if choice else None
            except StateProblem as problem:
                print(problem.line, file=sys.stderr)
                return 1
        game = Game(case)
        journal = folder.journal(case.public.mystery, night)
        driver = TableDriver(game, journal, night)
        try:
            if args.no_voice:
                code = TableApp(driver).run() or 0
            else:
                code = _run_with_voice(driver, case, args, folder.root / "audio.log")
        finally:
            journal.close()
    _say_the_night_is_kept(driver.state)
    return code


def _run_with_voice(driver: TableDriver, case: Case, args: argparse.Namespace, audio_log: Path) -> int:
    from voice_host.ears.audio import native_stderr_to

    classifier = LockedClassifier(driver.game, driver.lock)
    # ALSA and PortAudio complain on file descriptor 2 when a device is missing or lost; keep that
    # off the full-screen app and in a log beside the journal. The screen draws on the terminal itself.
    with native_stderr_to(audio_log) as terminal:
        app = TableApp(
            driver,
            mic=LOADING,
            load_voice=lambda post: open_table_voice(
                case,
                classifier,
                post,
                input_device=_device(args.input_device),
                output_device=_device(args.output_device),
                hear_over_host=not args.no_barge_in,
            ),
            terminal=terminal,
        )
        return app.run() or 0


def _say_the_night_is_kept(state: GameState) -> None:
    """Printed on the terminal when the table quits mid-night (the journal has every message)."""
    if state.round > 0 and not state.over:
        print(f"The night is kept (round {state.round_label}, {state.questions_left} of {QUESTIONS_PER_ROUND} questions left).")
        print("To go on: ./carol play --resume  (or third-carol play --resume)")
