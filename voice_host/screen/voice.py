"""Voice for the table screen: loads the speech side off the UI thread and reports to the app.

Everything slow (whisper, Silero, piper, opening the sound devices) runs in a worker thread. The voice
side's threads never touch widgets: they post Textual messages, which are thread-safe, and the app
handles them on its own thread. If anything is missing the app says so plainly and play goes on typed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from engine.messages import Message as GameMessage
from engine.replies import Reply
from voice_host.loop.barge_in import HostTalk, meant_after_stop
from voice_host.loop.events import MicLevel

if TYPE_CHECKING:
    from engine.case import Case
    from engine.game import Game
    from voice_host.ears.asr import Recognizer
    from voice_host.ears.sound import Audio
    from voice_host.loop.listener import ShortHeard, Utterance
    from voice_host.mouth.tts import SpeechLine
    from voice_host.screen.voice_io import VoiceIO
    from voice_host.understanding.understand import Heard


log = logging.getLogger(__name__)


class MicChanged(Message):
    def __init__(self, level: MicLevel) -> None:
        super().__init__()
        self.level = level


class Understood(Message):
    """One utterance, recognised and understood against the game, ready for the session.

    `said` has when it was said and the Host's latest talk (with the microphone open over the Host),
    for the barge-in decision; None when the microphone is shut while the Host speaks."""

    def __init__(self, heard: Heard, said: SaidWhen | None = None) -> None:
        super().__init__()
        self.heard = heard
        self.said = said


class ShortWordHeard(Message):
    """A stop, repeat, next or skip word said over the Host, taken by the short path: the Host has
    already been stopped (docs/speech.md "Barge-in")."""

    def __init__(self, heard: ShortHeard) -> None:
        super().__init__()
        self.heard = heard


@dataclass(frozen=True)
class SaidWhen:
    """When an utterance was said, and the Host's latest talk then (the listener's clock)."""

    began_at: float
    ended_at: float
    host: HostTalk


class SentenceStarted(Message):
    """The speaker has started a sentence of `reply` (part index and the words as said)."""

    def __init__(self, reply: Reply, part_index: int, text: str) -> None:
        super().__init__()
        self.reply = reply  # a stopped reply's last sentence may be reported late: the screen checks
        self.part_index = part_index
        self.text = text


class SpeakerLost(Message):
    """The speaker went away mid-reply: the Host fell silent; its words stay on the screen."""


class VoiceReady(Message):
    def __init__(self, io: VoiceIO[Heard]) -> None:
        super().__init__()
        self.io = io


class VoiceFailed(Message):
    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


@dataclass
class LockedClassifier:
    """The game's classifier for the recognition thread: it reads the game only under the table's lock."""

    game: Game
    lock: threading.Lock

    def preview(self, text: str) -> GameMessage:
        with self.lock:
            return self.game.preview(text)

    def seats(self) -> tuple[str, ...]:
        with self.lock:
            return self.game.state.seats

    def accusing(self) -> bool:
        with self.lock:
            return self.game.accusing()


def open_table_voice(
    case: Case,
    classifier: LockedClassifier,
    post: Callable[[Message], object],
    *,
    recognizer: Recognizer | None = None,
    input_device: int | str | None = None,
    output_device: int | str | None = None,
    hear_over_host: bool = True,
) -> None:
    """Load the models and open the devices (slow: run in a worker thread); report through `post`.

    Posts VoiceReady with the open voice side, or VoiceFailed with a plain sentence. `recognizer`
    defaults to whisper with the measured best options; the devices to the system's defaults.
    `hear_over_host`: the microphone stays open while the Host speaks (`open_voice`).
    """
    try:
        from voice_host.ears.asr import RecognitionOptions, Recognizer
        from voice_host.ears.side_decode import SideDecoder
        from voice_host.loop.barge_in import barge_turn
        from voice_host.loop.listener import StoppableUnderstanding
        from voice_host.mouth.tts import opening_lines
        from voice_host.screen.voice_io import open_voice
        from voice_host.understanding.cascade import RecognitionPasses
        from voice_host.understanding.passes.shared import Vocabulary
        from voice_host.understanding.understand import Understander

        understander = Understander(case.suspects)
        whisper = recognizer or Recognizer(RecognitionOptions())
        # The check pass decodes beside the first pass on a second instance of the model (peak memory about 60 MB more).
        beside = SideDecoder.beside(whisper) if isinstance(whisper, Recognizer) else None
        passes = RecognitionPasses(whisper, Vocabulary.for_suspects(case.suspects), understander, beside=beside)

        def understand(audio: Audio, abandoned: Callable[[], bool]) -> Heard:
            recognised = passes.hear(audio, classifier, classifier.seats(), abandoned)
            heard = recognised.heard
            log.debug(
                "heard %r, taken as %r, in %.2f s over %d passes (%s)%s%s",
                heard.transcript,
                heard.text,
                recognised.seconds,
                recognised.passes,
                recognised.timings_text(),
                " (to confirm)" if heard.needs_confirmation else "",
                ", stopped there: speech went on" if recognised.abandoned else "",
            )
            return heard

        def on_utterance(utterance: Utterance[Heard]) -> None:
            said = None
            if utterance.began_at is not None and utterance.host is not None:
                said = SaidWhen(utterance.began_at, utterance.ended_at, utterance.host)
            post(Understood(meant_after_stop(utterance.result, utterance.after_stop), said))

        def on_sentence(reply: Reply, line: SpeechLine) -> None:
            post(SentenceStarted(reply, line.part_index, line.text))

        def on_status(level: MicLevel) -> None:
            post(MicChanged(level))

        def on_speaker_lost() -> None:
            post(SpeakerLost())

        io = open_voice(
            StoppableUnderstanding(understand),
            on_utterance,
            on_status,
            tuple(suspect.key for suspect in case.suspects),
            on_sentence=on_sentence,
            on_speaker_lost=on_speaker_lost,
            input_device=input_device,
            output_device=output_device,
            turn_complete=barge_turn,
            speak_ahead=opening_lines(case),
            on_short_word=lambda heard: post(ShortWordHeard(heard)),
            hear_over_host=hear_over_host,
        )
    except Exception as error:  # any failure of the voice side leaves typed play working
        log.exception("the voice side could not open; the table plays by typing")
        post(VoiceFailed(_plain_reason(error)))
        return
    if post(VoiceReady(io)) is False:
        io.close()  # the screen closed while the models loaded: let the devices go


def _plain_reason(error: Exception) -> str:
    text = str(error).strip() or type(error).__name__
    return text if text.endswith((".", "!", "?")) else text + "."
