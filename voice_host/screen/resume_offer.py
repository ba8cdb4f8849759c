"""Before the table screen: an unfinished night is on disk, so ask whether to go on with it.

Either way the unfinished night's file is kept; a new night goes in a file of its own.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

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
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose(True)", "Resume"),
        Binding("n", "choose(False)", "New night"),
        Binding("ctrl+q", "quit", "Quit"),
    ]

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

    def on_mount(self) -> None:
        self.query_one("#resume", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.exit(event.button.id == "resume")

    def action_choose(self, resume: bool) -> None:
        self.exit(resume)
