"""A second estimate of the Host's echo, learnt apart from speex, that finds a move of the echo's delay at once.

Through a sound server under load the Host's stream underruns (or catches up) and the echo arrives tens of
milliseconds later (or sooner) than before. speex's adaptive filter is then wrong: it takes out next to nothing, and
what it leaves of the Host's voice would reach Silero as a player. `DelayWatch` sees such a move after about a second;
until then the Host's residue passes, and afterwards the microphone is shut over the Host until speex has learnt the
room again (seconds).

The room itself did not change, only the delay. So `ShadowPath` keeps its own estimate of the room's response (Welch:
the cross- and auto-spectra of the microphone and the far end, averaged over the last seconds of the Host), and checks
every 10 ms whether the microphone matches that estimate better a little later or sooner (a move shows at once as a
residual the estimate, shifted, would not leave). Just after a move the room still rings with what sounded before it
at the old delay, so the shifted estimate is also tried as the far end sounded: the old delay up to where the present
estimate stopped fitting, the new one after. When one fits, the response is shifted by as much, and so is what was
learnt. `EchoCanceller` then shuts the microphone over the Host at once, until speex has learnt the room again
(docs/benchmarks.md "The echo's delay found at once").
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from voice_host.ears.sound import SAMPLE_RATE, Audio

FRAME = SAMPLE_RATE // 100  # a move is looked for every 10 ms
ONSET_SEARCH_SECONDS = 0.5  # how far back the start of a move is looked for, just after it
ONSET_SPREAD = 3  # frames either side of where the estimate stopped fitting the move is tried at

Samples = npt.NDArray[np.float64]


class ShadowPath:
    """Microphone and far-end frames in (the same samples of each), the microphone less the estimated echo out.

    `taps`: the room's response it models (the echo's delay and reverberation, room to follow a move); `forget_seconds`:
    how long it remembers the room; `check_seconds`: the stretch a move is looked for over; `most_seconds`: the largest
    move looked for; `better_db`: how much less a shifted estimate must leave than the present one; `agree`: checks in a
    row that must find the same move; `sooner`: an echo come sooner (the server catching up) is looked for too, within
    the direct path's delay (tune night 47 let the Host through after such a move `DelayWatch` found 2 s late);
    `most_left`: the shifted estimate must leave at most this share of the microphone (a move while a player talks is
    left to `DelayWatch`: a player's voice over the Host made shifts of the estimate seem to fit; docs/benchmarks.md
    "The echo's delay found at once"); `onset_aware`: a move is also tried from where the present estimate stopped
    fitting, the room's ringing before it at the old delay (False: only the whole estimate shifted, which fits only
    once that ringing has died down: tune night 77 found a move 0.49 s late, and its residue was taken for "Wait")."""

    def __init__(
        self,
        size: int = 1 << 14,
        hop: int = 1 << 12,
        taps_seconds: float = 0.7,
        forget_seconds: float = 10.0,
        check_seconds: float = 0.05,
        most_seconds: float = 0.1,
        better_db: float = 1.0,
        explained: float = 0.8,
        agree: int = 3,
        sooner: bool = True,
        most_left: float = 0.3,
        onset_aware: bool = True,
    ) -> None:
        self.size, self.hop = size, hop
        self.taps = min(round(taps_seconds * SAMPLE_RATE), size - 2048)
        self.keep = float(np.exp(-hop / (forget_seconds * SAMPLE_RATE)))
        self.window = np.hanning(size)
        self.check = round(check_seconds * SAMPLE_RATE)
        self.most = round(most_seconds * SAMPLE_RATE)
        self.better = 10 ** (-better_db / 10)
        self.agree = agree
        self.sooner = sooner
        self.most_left = most_left
        self.onset_aware = onset_aware
        self.explained = explained
        self.history = size + 2 * self.most  # samples of each signal kept
        self._cross = np.zeros(size // 2 + 1, dtype=np.complex128)
        self._power = np.zeros(size // 2 + 1)
        self._learnt = 0  # Welch frames averaged so far
        self._response: Samples | None = None  # the room's response, `taps` long
        self._direct = 0  # samples before its direct path
        self._spectrum: npt.NDArray[np.complex128] | None = None  # its FFT at `size`
        self._mic: Samples = np.zeros(self.history)
        self._far: Samples = np.zeros(self.history)
        self._echo: Samples = np.zeros(self.history)  # the estimated echo over the same samples
        self._since = 0
        self._candidates: list[int] = []
        self.shifted = 0  # samples its estimate has been moved by, all told (later: positive)
        self.moved_samples_ago = 0  # at the last move followed: how long before it was found the move began

    @property
    def ready(self) -> bool:
        """It has learnt the room (about two seconds of the Host)."""
        return self._response is not None

    def process(self, mic: Audio, far: Audio) -> Audio:
        """Whole 10 ms frames of each, any number; the microphone less the estimated echo (the microphone itself until
        ready). A move is looked for at the end of every frame."""
        count = len(mic)
        self._mic = np.concatenate([self._mic[count:], mic])
        self._far = np.concatenate([self._far[count:], far])
        ahead = self._ahead()
        estimate = self._estimate(self._far, count, ahead) if self._spectrum is not None else np.zeros(count + ahead)
        self._echo = np.concatenate([self._echo[count:], estimate[:count]])
        self._since += count
        if self._since >= self.hop:
            self._since = 0
            self._learn()
        if self._spectrum is not None:
            for back in range(count - FRAME, -1, -FRAME):  # each frame's end, the oldest first
                if self._watch(back, estimate[count:], ahead):
                    break  # followed: the estimate is a new one
        return (self._mic[-count:] - self._echo[-count:]).astype(np.float32)

    def _ahead(self) -> int:
        """Samples of the echo to come that what was played already gives (within the direct path's delay): how
        much sooner an echo can be found to come."""
        return max(0, min(self.most, self._direct - 32)) if self.sooner else 0

    def _estimate(self, far: Samples, count: int, ahead: int = 0) -> Samples:
        """The echo of the last `count` samples of `far` (and `ahead` samples past it, with nothing more played)."""
        assert self._spectrum is not None
        tail = far[-(self.size - ahead) :]
        if ahead:
            tail = np.concatenate([tail, np.zeros(ahead)])
        return np.fft.irfft(np.fft.rfft(tail) * self._spectrum, self.size)[-(count + ahead) :]

    def _learn(self) -> None:
        """One more Welch frame of the room (only while the Host sounds)."""
        far = self._far[-self.size :]
        if float(np.sqrt(np.mean(np.square(far[-self.hop :])))) < 1e-3:
            return
        near = np.fft.rfft(self._mic[-self.size :] * self.window)
        played = np.fft.rfft(far * self.window)
        self._cross = self.keep * self._cross + near * np.conj(played)
        self._power = self.keep * self._power + np.abs(played) ** 2
        self._learnt += 1
        if self._learnt < 16:  # four seconds of the Host: fewer give a response too rough to follow moves with
            return
        response = np.fft.irfft(self._cross / (self._power + 1e-3 * float(np.mean(self._power))), self.size)[: self.taps]
        response[-256:] *= np.hanning(512)[256:]  # no step at its end
        first = self._response is None
        self._set(response)
        if first:  # the estimate so far was nothing: the first checks would find any shift of the room a better fit
            self._echo = self._estimate_history()

    def _estimate_history(self) -> Samples:
        """The echo the present response gives of all the far end kept."""
        assert self._response is not None
        spectrum = np.fft.rfft(self._response, 2 * self.history)
        return np.fft.irfft(np.fft.rfft(self._far, 2 * self.history) * spectrum, 2 * self.history)[: self.history]

    def _set(self, response: Samples) -> None:
        self._response = response
        self._spectrum = np.fft.rfft(response, self.size)
        peak = float(np.max(np.abs(response)))
        self._direct = int(np.argmax(np.abs(response) > 0.1 * peak)) if peak > 0 else 0  # where the echo begins

    def _watch(self, back: int, beyond: Samples, ahead: int) -> bool:
        """Whether the microphone, up to `back` samples before the last, matches the estimate shifted later or sooner,
        clearly and `agree` times running: then the estimate follows (True). `beyond`: the estimate of the `ahead`
        samples after the last."""
        check, most = self.check, self.most
        now = len(self._mic) - back
        if float(np.mean(np.square(self._far[now - check - self._direct : now]))) < 1e-6:
            self._candidates = []  # the Host is silent over these samples: nothing to find
            return False
        echo = np.concatenate([self._echo, beyond])
        span = echo[now - check - most : now + ahead]  # the estimate over the window, shifted by -ahead ... most samples
        mic = self._mic[now - check : now]
        size = 1 << (len(span) + check).bit_length()
        cross = np.fft.irfft(np.fft.rfft(span, size) * np.conj(np.fft.rfft(mic, size)), size)[: len(span) - check + 1]
        squares = np.concatenate([[0.0], np.cumsum(np.square(span))])
        energy = squares[check:] - squares[:-check]
        heard = float(np.sum(np.square(mic)))
        left = heard - 2 * cross + energy  # what each shift of the estimate would leave; index `most`: no shift
        best = int(np.argmin(left))
        shift = most - best  # samples the echo is later than the estimate (negative: sooner)
        inside = -ahead + 16 < shift < most - 16  # a peak at the edge is where the search ended, not a move
        # The microphone must not be near silent against the echo of the last second (the tail of a word); the
        # estimate as it stands must leave a tenth of it and more (else a shift that trims a residual already far
        # under the echo is the voice's own periodicity, not a move); the shifted estimate must carry a tenth of it.
        loud = heard / check > 0.03 * float(np.mean(np.square(self._echo[now - SAMPLE_RATE : now])))
        leaving = loud and left[most] > 0.1 * heard and energy[best] > 0.1 * heard
        if not (shift != 0 and inside and leaving):
            self._candidates = []
            return False
        moved = self._moved_fits(left[best], left[most], energy[best], heard)
        if not moved and self.onset_aware:
            # Just after a move the room still rings with what sounded before it, at the old delay (RT60 0.6 s: for
            # half a second the whole estimate shifted leaves half the microphone, as a player would): the estimate of
            # the far end as it sounded, the old delay up to where the present estimate stopped fitting, the new after.
            at_onset = self._left_if_moved_at_onset(now, shift, mic)
            moved = self._moved_fits(at_onset, left[most], energy[best], heard)
        if not moved:
            self._candidates = []
            return False
        same = bool(self._candidates) and abs(self._candidates[-1] - shift) <= 2
        self._candidates = [*self._candidates, shift] if same else [shift]
        if len(self._candidates) < self.agree:
            return False
        self._candidates = []
        self._follow(shift)
        return True

    def _moved_fits(self, moved: float, present: float, shifted_energy: float, heard: float) -> bool:
        """Whether the estimate of a moved echo (leaving `moved` of the `heard` microphone, the estimate shifted carrying
        `shifted_energy`) clearly fits better than the present one (leaving `present`). A move leaves about twice the
        estimate's energy more at no shift than at the right one, player or no player (their voice is in both alike); a
        player's voice alone never lines up with the estimate so; and the moved estimate must leave at most `most_left`
        of the microphone."""
        clearer = moved < self.better * present and present - moved > self.explained * shifted_energy
        return clearer and moved < self.most_left * heard

    def _left_if_moved_at_onset(self, now: int, shift: int, mic: Samples) -> float:
        """What the estimate leaves of `mic` (the `check` samples up to `now`) if the echo moved by `shift` where the
        present estimate stopped fitting the microphone: the room's response to the far end as it sounded (as played up
        to the move, then `shift` later), the move placed within `ONSET_SPREAD` of that point. inf: the present
        estimate fits nowhere in the last `ONSET_SEARCH_SECONDS` (no onset to place it at)."""
        assert self._spectrum is not None
        onset = self._misfit_onset(now)
        if onset is None:
            return float("inf")
        # The microphone hears a change of what sounded `_direct` samples after it sounded.
        moves = [onset - self._direct + FRAME * k for k in range(-ONSET_SPREAD, ONSET_SPREAD + 1)]
        start = now - self.size
        if start < 0:
            return float("inf")
        hypotheses = np.repeat(self._far[start:now][np.newaxis, :], len(moves), axis=0)
        for row, at in zip(hypotheses, moves, strict=True):
            at = max(at - start, 0)
            if shift > 0:  # an underrun: silence, then the rest later
                row[at + shift :] = row[at : len(row) - shift].copy()
                row[at : at + shift] = 0.0
            else:  # catching up: what was queued dropped (nothing yet played beyond `now` is heard in the window)
                row[at : len(row) + shift] = row[at - shift :].copy()
                row[len(row) + shift :] = 0.0
        estimates = np.fft.irfft(np.fft.rfft(hypotheses, axis=1) * self._spectrum, self.size, axis=1)[:, -self.check :]
        return float(np.min(np.sum(np.square(mic[np.newaxis, :] - estimates), axis=1)))

    def _misfit_onset(self, now: int) -> int | None:
        """Where, in the last `ONSET_SEARCH_SECONDS` up to `now`, the present estimate last fitted the microphone (the
        end of the latest 10 ms it left a twentieth of): where a move began to be heard."""
        span = round(ONSET_SEARCH_SECONDS * SAMPLE_RATE) // FRAME * FRAME
        heard = np.square(self._mic[now - span : now]).reshape(-1, FRAME).sum(axis=1)
        left = np.square(self._mic[now - span : now] - self._echo[now - span : now]).reshape(-1, FRAME).sum(axis=1)
        fitted = np.flatnonzero(left <= 0.05 * heard + 1e-3 * float(np.mean(heard)))
        return None if len(fitted) == 0 else now - span + (int(fitted[-1]) + 1) * FRAME

    def _follow(self, shift: int) -> None:
        """The echo now comes `shift` samples later: move the response, what was learnt and the estimate with it."""
        assert self._response is not None
        moved = np.zeros(self.taps)
        if shift >= 0:
            moved[shift:] = self._response[: self.taps - shift]
        else:
            moved[: self.taps + shift] = self._response[-shift:]
        # When the move began: from there on the moved estimate leaves less than the old one (the latest start
        # of a stretch that favours it most), over what is kept of the microphone.
        old_left = np.square(self._mic - self._echo)
        self._set(moved)
        self._cross = self._cross * np.exp(-2j * np.pi * np.fft.rfftfreq(self.size) * shift)
        # The estimate so far as the moved response gives it: the next checks compare against it.
        self._echo = self._estimate_history()
        # (Less a little for every sample, so that a silence before the Host sounded again counts for the old one: a
        # move in a pause began, as far as anything heard goes, when the Host sounded again.)
        favour = old_left - np.square(self._mic - self._echo) - 0.01 * float(np.mean(np.square(self._mic)))
        from_end = np.cumsum(favour[::-1])  # from the end back: the sum of favour from each sample on
        self.moved_samples_ago = int(np.argmax(from_end)) + 1  # the first best from the end: the latest start
        self._since = -self.size  # the Welch frames that hold the move would mix the two delays: none for a second
        self.shifted += shift
