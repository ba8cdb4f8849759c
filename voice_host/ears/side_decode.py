"""A decode beside the first pass: a second instance of the same Whisper model hears the utterance unprompted
while the first instance decodes it with the prompt.

A decode keeps about one of the two cores busy, so the check pass's unprompted greedy decode costs the
first pass's decode about 0.007 s when it runs beside it, and a checked message is understood about 0.15 s
sooner than when the check decodes after the first pass (docs/benchmarks.md, "the check pass's decode
beside the first pass's"). The second instance decodes on the first instance's encoder output
(`KeptEncodings`), so the audio is encoded once.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from voice_host.ears.asr import Recognizer, Transcript
from voice_host.ears.sound import Audio


@dataclass(frozen=True)
class SideRequest:
    """What the side decode is asked: the utterance unprompted (no prompt, no hotwords), at this beam."""

    beam_size: int = 1


@dataclass
class SideDecoder:
    """Runs one unprompted decode of an utterance on a second model instance, started before the first pass.

    `start` is called with the utterance before the first pass runs; `take` gives its transcript for the
    same audio (the very array), waiting for it if it is still decoding, or None when it was started for
    other audio or not at all (an earlier utterance's decode, never taken, was still going when it was to
    start). Only the latest utterance is kept.
    """

    side: Recognizer  # the second instance (`Recognizer(options, lender=first.model)`)
    _pool: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="side-decode"))
    _pending: tuple[Audio, SideRequest, Future[Transcript]] | None = None  # the decode started, until taken
    _running: Future[Transcript] | None = None  # the latest decode started, taken or not

    @classmethod
    def beside(cls, first: Recognizer, cpu_threads: int = 1) -> SideDecoder:
        """A side decoder for `first`'s model: the same weights and options, `cpu_threads` threads."""
        options = replace(first.options, cpu_threads=cpu_threads)
        return cls(Recognizer(options, first.cache_dir, lender=first.model))

    def start(self, audio: Audio, request: SideRequest) -> None:
        if self._running is not None and not self._running.done():
            # An earlier utterance's decode is still going (it was never taken): this one would queue
            # behind it, so the check decodes on the first instance instead.
            self._pending = None
            return
        self._running = self._pool.submit(
            self.side.transcribe, audio, initial_prompt="", hotwords=None, beam_size=request.beam_size
        )
        self._pending = (audio, request, self._running)

    def take(self, audio: Audio, request: SideRequest) -> Transcript | None:
        if self._pending is None:
            return None
        started_for, asked, future = self._pending
        if started_for is not audio or asked != request:
            return None
        self._pending = None
        return future.result()
