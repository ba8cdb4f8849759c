"""Before the table screen: an unfinished night is on disk, so ask whether to go on with it.

Either way the unfinished night's file is kept; a new night goes in a file of its own.

The choice is typed and then Enter is pressed, never a lone key: a player who starts typing the table's
names before the offer is drawn ("Ann, Ben") must not choose by the "n" in "Ann".
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from voice_host.loop.journal import Night


class ResumeChoice(App[bool]):
    """Returns True to resume the night, False for a new night; None when the table quits."""

    TITLE = "The Third Carol"
    CSS = """
    Screen { align: center middle; }
    #offer { width: 72; height: auto; border: round $accent; padding: 1 2; }
    #offer-text { margin-bottom: 1; }
    #offer-buttons { height: auto; align: center middle; }
    #offer-buttons Button { margin: 0 2; }
    #offer-input { margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit")]

    def __init__(self, night: Night) -> None:
        super().__init__()
        self.night = night

    def compose(self) -> ComposeResult:
        started = (self.night.started or "").replace("T", " at ")
        when = f", begun {started}" if started else ""
        text = Text.assemble(
            ("An unfinished night is on this computer", "bold"),
            f"{when}, at turn {self.night.turn}.\n\n",
            "Go on with it, or start a new night? The unfinished night is kept either way, in\n",
            str(self.night.path),
        )
        with Vertical(id="offer"):
            yield Static(text, id="offer-text")
            with Horizontal(id="offer-buttons"):
                yield Button("Resume it (R)", id="resume", variant="primary")
                yield Button("New night (N)", id="new")
            yield Input(placeholder="Type R to resume or N for a new night, then Enter", id="offer-input")
            yield Static("", id="offer-notice")

    def on_mount(self) -> None:
        self.query_one("#offer-input", Input).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.exit(event.button.id == "resume")

    @on(Input.Submitted)
    def _typed(self, event: Input.Submitted) -> None:
        choice = typed_choice(event.value)
        if choice is None:
            event.input.clear()
            self.query_one("#offer-notice", Static).update(
                f"{event.value.strip()!r} is not a choice: type R to resume or N for a new night, then Enter."
            )
            return
        self.exit(choice)


_RESUME_WORDS = frozenset({"r", "resume", "resume it", "y", "yes"})
_NEW_WORDS = frozenset({"n", "new", "new night", "no"})


def typed_choice(typed: str) -> bool | None:
    """True to resume, False for a new night, None for anything else (names typed ahead, say)."""
    words = " ".join(typed.lower().replace(".", " ").split())
    if words in _RESUME_WORDS:
        return True
    if words in _NEW_WORDS:
        return False
    return None
