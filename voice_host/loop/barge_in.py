"""Barge-in: what to do with words said while the Host was talking.

Like Home Assistant's assist_pipeline VAD, the decision is pure: `BargeIn.decide` is given what the
words were (`BargeWords`, from the text alone) and the timings (when the utterance began and ended,
when the Host's talk began and stopped), and says what the screen does (`BargeAction`):

- "stop", "wait" (and "hold on", "quiet"...): the Host falls silent; nothing goes to the game. Said
  over the Host they never mean give up or no (docs/rulings.md);
- "repeat" ("say that again"): the current reply again, from its start;
- either of those understood only once the Host has begun another talk (the short path stopped the one they were
  said over, and the table asked for more): nothing, the new talk goes on;
- "next", "skip": the card's commands (next, pass), at once: the Host stops and the game answers;
- words that only finish the spoken message the Host has just begun to answer ("Next ... round, please.",
  "Read exhibit four ... again, please."): the Host answered at the pause, and nothing more happens;
- anything else: kept and answered when the Host stops; but over an answer to a *spoken* message it is
  dropped with a word, since the Host cannot tell voices apart and takes it for the asker talking over
  their own answer (docs/rulings.md).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from engine.classify import Situation
from engine.messages import Command, Message, MessageKind
from voice_host.ears.short_words import ShortView, ShortViews, ShortWord, ShortWordScores
from voice_host.ears.sound import Audio
from voice_host.ears.stop_spotter import SpottedScores
from voice_host.ears.turn import TurnText
from voice_host.understanding.complete import heard_turn
from voice_host.understanding.understand import Heard

ONE_AT_A_TIME = "One at a time, please: ask me again when I have finished."

# Said over the Host, these silence it. Whole utterances only ("wait for the statements" is not one).
SILENCE_PHRASES = frozenset(
    {
        "stop", "wait", "pause", "hold on", "hang on", "quiet", "be quiet", "shh", "shush", "hush",
        "stop talking", "stop there", "stop it", "wait a moment", "wait a minute", "wait a second",
        "one moment", "one second", "just a moment", "just a second", "hold it", "enough",
    }
)  # fmt: skip
_FILLER = frozenset({"please", "ok", "okay", "oh", "um", "uh", "er", "host", "now", "sorry", "hey", "no", "just"})
# The card's commands that act at once over the Host (the brief's "next" and "skip"; skip is pass).
AT_ONCE_COMMANDS = frozenset({Command.NEXT, Command.PASS})


# A scorer of the short words on one audio.
Scoring = Callable[[Audio], ShortWordScores]


class ScoredWord(NamedTuple):
    """A short word taken (None: none) with the scores it was taken on."""

    scores: ShortWordScores
    word: ShortWord | None
    whole: bool = False  # taken on the whole utterance, scored as one phrase ("Stop, ... please."), not its last stretch


class BargeWords(Enum):
    SILENCE = "silence"  # stop, wait
    REPEAT = "repeat"  # the current reply again
    COMMAND = "command"  # next or skip
    OTHER = "other"  # anything else


class BargeAction(Enum):
    NOT_OVER_HOST = "not over host"  # the Host was not talking: handled as always
    SILENCE = "silence"  # the Host falls silent; nothing goes to the game
    RESTART = "restart"  # the current reply is said again from its start
    COMMAND = "command"  # the Host falls silent and the command goes to the game
    FINISHED = "finished"  # the words finish the message being answered: nothing more happens
    KEEP = "keep"  # handled when the Host stops talking
    DROP = "drop"  # not handled; the Host says so in a word
    PASSED = "passed"  # would silence or restart a talk the Host has since left for another: nothing happens


def silence_words(text: str) -> bool:
    """The whole utterance asks the Host to be quiet ("Stop.", "Wait, please.", "Hold on, hold on")."""
    words = [w for w in re.findall(r"[a-z']+", text.lower()) if w not in _FILLER]
    if not words:
        return False
    phrase = " ".join(words)
    if phrase in SILENCE_PHRASES:
        return True
    # The same short phrase said twice or more ("stop stop", "wait, wait").
    for size in (1, 2, 3):
        if len(words) % size == 0 and len(words) > size:
            head = words[:size]
            if words == head * (len(words) // size) and " ".join(head) in SILENCE_PHRASES:
                return True
    return False


def barge_words(heard_as: Iterable[str], message: Message | None, repeat_request: bool) -> BargeWords:
    """What words said over the Host are, from what was heard (Whisper's words and the repaired text:
    repair may have turned "wait" into the card's "no"), the game's reading of it, and whether the phrase
    grammar took it as a request to repeat."""
    if any(silence_words(text) for text in heard_as):
        return BargeWords.SILENCE
    if repeat_request:
        return BargeWords.REPEAT
    if message is not None and message.command in AT_ONCE_COMMANDS:
        return BargeWords.COMMAND
    return BargeWords.OTHER


@dataclass(frozen=True)
class Answered:
    """The spoken message the Host is answering: its words, and the game as it was when they were said (what
    they and any words that finish them are classified against)."""

    text: str
    situation: Situation


def finishing_text(answered: str, words: str) -> str:
    """The words of the message being answered with those said after them, as one sentence ("Next." and
    "round, please." -> "Next round, please.")."""
    return f"{answered.strip().rstrip('.!?,;:')} {words.strip()}"


def finishes(answered: Message, joined: Message) -> bool:
    """Whether words said after a message only finish it: the message with them (`joined`) is the very message
    the Host is answering ("Next" and "Next round, please." are both the card's next; "Thwaite, where were
    you" and "Thwaite, where were you at ten?" are two questions)."""
    return joined == answered


def meant_after_stop(whole: Heard, after: Heard | None) -> Heard:
    """An utterance that went on after a stop word the short path took (the Host is silent already): the whole
    of it when that is a card message ("Thwaite, ... where were you at ten?", its name taken for "Wait."), else
    what was said after the word when that is one ("Stop. ... Read exhibit four."), else the whole (talk: shown,
    and the Host stays quiet)."""
    if after is None or _card_message(whole) or not _card_message(after):
        return whole
    return after


def _card_message(heard: Heard) -> bool:
    return heard.usable and heard.message is not None and heard.message.kind is not MessageKind.TABLE_TALK


def barge_turn(heard: Heard) -> TurnText:
    """The app's text signal for the end of turn (`heard_turn`), with a lone stop word told apart: said
    over the Host it ends the turn at once (`EndOfTurn.stop_seconds`), since nothing of it goes to the game.
    "Wait," is still unfinished (a name heard wrong before its question: "Thwaite, where were you?")."""
    grade = heard_turn(heard)
    if grade is not TurnText.UNFINISHED and any(silence_words(text) for text in (heard.transcript, heard.text)):
        return TurnText.STOP_WORDS
    return grade


@dataclass(frozen=True)
class HostTalk:
    """When the Host's latest talk began and stopped (None: still talking), on the listener's clock."""

    started_at: float
    stopped_at: float | None = None
    answering_voice: bool = False  # the talk answers a message heard by voice (not typed, not narration)


@dataclass(frozen=True)
class BargeIn:
    """Whether an utterance was said over the Host, and what then happens to it."""

    # The Host's voice in the room outlasts its last sample (reverberation, the device's buffer): words
    # begun this soon after it stopped still overlapped it.
    tail_seconds: float = 0.3
    # Words that finish the spoken message being answered count as its end only when begun this soon after the
    # Host began answering: a player who stops to think goes on after 0.3-0.7 s (audio_fixtures/paused.py),
    # and the Host begins at the earliest 0.2 s into that pause. Later, the same words are a message of their own.
    finishing_seconds: float = 1.0

    def over_host(self, began_at: float, ended_at: float, host: HostTalk | None) -> bool:
        """The utterance overlapped the Host's talk."""
        if host is None or ended_at <= host.started_at:
            return False
        return host.stopped_at is None or began_at < host.stopped_at + self.tail_seconds

    def decide(
        self,
        words: BargeWords,
        began_at: float,
        ended_at: float,
        host: HostTalk | None,
        finishing: bool = False,
        latest: HostTalk | None = None,
    ) -> BargeAction:
        """What happens to words said over the Host (its talk `host`); `finishing`: they only finish the message the
        Host is answering (`finishes`), which counts when that message was spoken and they began soon after.
        `latest`: the Host's latest talk now. Understanding takes a second or two; by then the short path may have
        stopped the talk the words were over and the Host begun another (the next exhibit asked for): a "wait" or a
        "repeat" said over the first does nothing to it (live, a late "Wait." stopped the next exhibit 1.3 s into it)."""
        if host is None or not self.over_host(began_at, ended_at, host):
            return BargeAction.NOT_OVER_HOST
        since = latest is not None and latest.started_at > host.started_at
        if since and words in (BargeWords.SILENCE, BargeWords.REPEAT):
            return BargeAction.PASSED
        if words is BargeWords.SILENCE:
            return BargeAction.SILENCE
        if finishing and host.answering_voice and began_at - host.started_at <= self.finishing_seconds:
            return BargeAction.FINISHED
        if words is BargeWords.REPEAT:
            return BargeAction.RESTART
        if words is BargeWords.COMMAND:
            return BargeAction.COMMAND
        return BargeAction.DROP if host.answering_voice else BargeAction.KEEP


@dataclass(frozen=True)
class ShortPath:
    """The short path over the Host (docs/speech.md "Barge-in"): when a short utterance is scored as a
    stop, repeat, next or skip word, and when that score is clear enough to act on at once.

    Pure, like `BargeIn`: fed the Host's talk, the listener's clock, how much speech the latest stretch
    has (since the utterance began, or since a pause at least `pause_seconds` long within it) and how
    long the pause after it is so far, and the short words' scores (voice_host/ears/short_words.py).
    The thresholds were shaped on tune voices over the Host's echo (docs/benchmarks.md "Barge-in"):
    "stop" silences, so it may be taken on less than a command, which the game acts on.
    """

    pause_seconds: float = 0.09  # a pause this long (three 32 ms blocks) after a short stretch has it scored
    # Scored ahead: a stretch is scored from `scored_from_seconds` into its pause, while the pause is still too short
    # to count, and what the scoring finds is acted on once the pause reaches `pause_seconds`, or dropped if speech
    # goes on first (the listener's `PauseGate`): the same stretches, ending two blocks sooner, acted on up to two
    # blocks sooner (tune, the probe and test: stops 0.06 s sooner at p50, as many within 0.5 s; docs/benchmarks.md
    # "A short stretch scored a block into its pause").
    # None: scored only once the pause counts.
    scored_from_seconds: float | None = 0.03
    max_speech_seconds: float = 1.2  # a longer stretch is never a short word: the whole understanding hears it
    # A phrase said with a pause inside ("Stop, ... please.") is scored whole too, when the stretch alone
    # is not taken and the utterance is no longer than this: its last stretch alone ("please") fits no
    # phrase (tune: the espeak voices' "Stop," is heard as "So", their "Stop, please." whole at -2.1 to -3.0).
    max_phrase_seconds: float = 1.5
    tail_seconds: float = 0.3  # as `BargeIn.tail_seconds`: the Host's voice outlasts its last sample
    stop_floor: float = -3.0  # "stop" is taken when its mean token log-probability reaches this
    command_floor: float = -2.0  # repeat, next and skip must reach this
    margin: float = 1.5  # ... and the best kind must beat every other kind by this much
    # The second opinion (voice_host/ears/short_words.py `second_opinion_scorer`): asked when "stop" ranks
    # among the first `second_opinion_rank` kinds at `second_opinion_from` or better but is not taken
    # (tiny.en hears espeak's clipped "Stop!" as "Next one." too), and taken when Whisper base gives the
    # first word "stop" `second_stop_floor` or better. Tune, 66 stop trials and run 10's 80 other words: base's
    # first word on the stop words taken -0.3 to -4.9, on the 42 other words it was asked about -5.8 and under
    # (docs/benchmarks.md "Barge-in", run 5 and session 25; tune only).
    second_opinion_from: float = -6.5
    second_opinion_rank: int = 2
    second_stop_floor: float = -5.0
    # The third opinion (voice_host/ears/stop_spotter.py `StopSpotter`; third as it came last): asked whenever the
    # second is, and before it (it costs 0.02 s, base 0.04 s idle and up to 0.25 s on busy cores; either may take the
    # word, so the words taken are the same in either order: tune, six stop words both take went about 0.03 s sooner,
    # docs/benchmarks.md "Barge-in", run 14). Taken when the speech embedding's log-odds of "stop" reach
    # `spotter_floor`. Tune, each word scored by a classifier fitted without its voice or its words
    # (bench/stop_spotter.py): at 2.5, 89 of 146 stop words and none of 131 other words, sound-alikes included (the
    # highest: "Stomp." at 2.39, "Spot on." 2.24).
    spotter_floor: float = 2.5
    # Both near: "stop" is taken too when the spotter reaches `both_spotter_floor` and base `both_second_floor`.
    # Shaped on the probe's espeak variants that no split has (bench/barge_in.py --voices probe, 192 trials: 28
    # missed, most with the spotter at 1.3-2.4 and base at -5.0 to -6.4, each just under its own floor). Tune's other
    # words reach the spotter's 0.32 at most; the nights' highest spotter score on the Host, 2.04, came with base at
    # -7.32 (docs/benchmarks.md "Barge-in", run 16). None: off.
    both_spotter_floor: float | None = 1.5
    both_second_floor: float = -6.5
    # The canceller's signals the words are scored on, in turn, until one is taken (each with the whole
    # phrase and the second opinion as above). Tune, 66 stop trials and 80 other words (bench/barge_in.py,
    # docs/benchmarks.md "Barge-in", run 8): the linear output alone took 53, this order 60; other words
    # taken 1 of 80 either way ("Nice one." as "Next one.").
    views: tuple[ShortView, ...] = (ShortView.GATED, ShortView.SUPPRESSED)
    # A word too short to start an utterance: over the Host, afresh after the gate's silence, Silero often
    # calls a clipped word speech for fewer blocks in a row than the segmenter's start (five). A stretch of
    # `unstarted_seconds` of speech in a row, then the pause, is scored as well, by this path alone: the whole
    # understanding never hears it, so no utterance is cut anew (a shorter start for every utterance did
    # that). Tune: 60 -> 62 of 66 stop words acted on, other words 2 of 80 either way; 0.35 for speech found
    # one more word but scored it worse (docs/benchmarks.md "Barge-in", run 10). None: off.
    unstarted_seconds: float | None = 0.09
    # A word Silero never calls speech with confidence: espeak's klatt voices over the Host often stay at 0.2-0.4 a
    # block, so neither the segmenter nor the unstarted stretch above ever hears them. The stretch of blocks at
    # `faint_from` or more around such a word is scored as an unstarted one, when no stretch within it was scored
    # already. Tune, 198 stop trials and 80 other words (bench/barge_in.py, docs/benchmarks.md "Barge-in", run 15):
    # stop words acted on 193 -> 197, other words 2 of 80 either way; nights 1-10 scored 34 -> 88 times, nothing
    # taken, and no scoring nearer a floor than before. None: off.
    faint_from: float | None = 0.2
    # Held on doubt: when the spotter does not take "stop" but reaches `hold_from`, the Host's voice is held
    # silent while Whisper base, the last opinion, is asked (0.15-0.4 s on busy cores: most stop words it took came
    # later than 0.5 s, docs/benchmarks.md "Barge-in", session 43), and plays on from a little before where it was if
    # base does not take it either. A person talked over pauses too. Tune (session 47, 80 stop trials, 40 other words): every stop
    # word base or both took had the spotter at 1.3 or more; the other words at -1.4 at most (0.32 at most in run
    # 16). Held whenever base was asked, the Host was held on 23 of the 40 other words. None: never held.
    hold_from: float | None = 0.5
    # Held for a wait: when the spotter's second regression (`SpottedScores.wait`) reaches `wait_hold_from`, the Host is
    # held silent while tiny.en judges a "wait" or "hold on" (it takes most, but 0.2-0.4 s after the pause on busy
    # cores: most late stops of the fresh test trials 1120-1919), and plays on if nothing is taken. Shaped on the wait
    # regression's held-out scores (bench/stop_spotter.py, tune voices and espeak-ng variants no split has): at 1.5,
    # 61% of the wait utterances and none of 96 tune fixtures and corpus lines, 8 of 57 sound-alikes ("Way.",
    # "Weight.", "Cop."); at 1.0, 74% and 4 of 96 (docs/benchmarks.md "Barge-in", session 53). None: never held so.
    wait_hold_from: float | None = 1.5
    # Base put off: when the spotter is under `hold_from` (the Host reads on), base is asked only after every other
    # view's tiny.en and spotter, so a word tiny.en takes on the next view does not wait 0.15-0.4 s behind base (the
    # words base takes are mostly held by then). Session 43 tried base last for every word: the words base took came
    # later; tune, session 47: "Hold on." taken on the second view 0.39 s after its end, behind base on the first.
    base_last_unless_held: bool = True
    # The spotter asked before tiny.en on the first view, so a hold on doubt comes before tiny.en's scoring (0.1 s idle,
    # 0.2-0.4 s on busy cores) rather than after it; what is taken is decided as before (the spotter's score still
    # counts only once tiny.en ranks "stop" near). Tune (session 51): stops held this way fell silent 0.1-0.14 s sooner;
    # a word tiny.en takes waits the spotter's 0.02-0.03 s more. False: the spotter is asked only after tiny.en.
    spotter_first: bool = True

    def unstarted(self, speech_threshold: float) -> UnstartedWatch | None:
        """A tracker of the stretches too short to start an utterance (speech at `speech_threshold`, and the faint
        ones), or None when that is off."""
        if self.unstarted_seconds is None:
            return None
        return UnstartedWatch(UnstartedStretch(self.unstarted_seconds, self.pause_seconds), speech_threshold, self.faint_from)

    def host_talking(self, host: HostTalk | None, now: float) -> bool:
        return host is not None and (host.stopped_at is None or now < host.stopped_at + self.tail_seconds)

    def should_score(
        self, host: HostTalk | None, now: float, speech_seconds: float, pause_seconds: float, ahead: bool = False
    ) -> bool:
        """Score the short words now: the Host talks, the utterance is short and a pause follows it (`ahead`: a
        pause of `scored_from_seconds` will do, its verdict waiting until the pause counts)."""
        if not self.host_talking(host, now):
            return False
        needed = self.pause_seconds
        if ahead and self.scored_from_seconds is not None:
            needed = min(needed, self.scored_from_seconds)
        return 0 < speech_seconds <= self.max_speech_seconds + 1e-9 and pause_seconds + 1e-9 >= needed

    def pause_counts(self, pause_seconds: float) -> bool:
        """The pause is long enough to end a stretch: a verdict scored ahead of it may be acted on."""
        return pause_seconds + 1e-9 >= self.pause_seconds

    def wants_second_opinion(self, scores: ShortWordScores) -> bool:
        """tiny.en ranks "stop" among the first kinds, near its floor, but not clearly enough to act on."""
        ranked = scores.ranked()
        if self.verdict(scores) is not None or ShortWord.STOP not in [word for word, _ in ranked[: self.second_opinion_rank]]:
            return False
        return scores.best[ShortWord.STOP] >= self.second_opinion_from

    def second_verdict(self, second: ShortWordScores) -> ShortWord | None:
        """The second opinion's word: "stop" when the second model's first word is "stop" clearly enough."""
        return _stop_reaching(second, self.second_stop_floor)

    def views_of(self, stretch: ShortViews, phrase: ShortViews | None) -> list[tuple[Audio, Audio | None]]:
        """What to score, in turn: each of `views` once (without the detector's signal every view is the words
        themselves), as the stretch and, when the whole phrase is scored too, as the phrase."""
        found: list[tuple[Audio, Audio | None]] = []
        for view in self.views or (ShortView.WORDS,):
            seen = stretch.view(view)
            if not any(seen is earlier for earlier, _ in found):
                found.append((seen, phrase.view(view) if phrase is not None else None))
        return found

    def both_verdict(self, spotted: ShortWordScores, second: ShortWordScores) -> ShortWord | None:
        """ "stop" when the spotter and the second opinion, neither sure enough alone, both come near their floors."""
        if self.both_spotter_floor is None or _stop_reaching(spotted, self.both_spotter_floor) is None:
            return None
        return _stop_reaching(second, self.both_second_floor)

    def holds(self, spotted: ShortWordScores) -> bool:
        """Whether the spotter's scores ask the Host held while the word is judged: its "stop" log-odds, under its
        floor, reach `hold_from` (base will be asked), or its "wait" log-odds reach `wait_hold_from` (tiny.en judges)."""
        return self.holds_for_base(spotted) or (
            self.wait_hold_from is not None and isinstance(spotted, SpottedScores) and spotted.wait >= self.wait_hold_from
        )

    def holds_for_base(self, spotted: ShortWordScores) -> bool:
        """Whether the spotter's "stop" log-odds, under its floor, still reach `hold_from`: hold the Host while base is
        asked (base is then asked at once, not put off)."""
        return self.hold_from is not None and _stop_reaching(spotted, self.hold_from) is not None

    def spotted(self, spotted: ShortWordScores) -> ShortWord | None:
        """The third opinion's word: "stop" when the spotter's log-odds reach `spotter_floor`."""
        return _stop_reaching(spotted, self.spotter_floor)

    def take(
        self,
        views: Sequence[tuple[Audio, Audio | None]],
        score: Scoring,
        second_opinion: Scoring | None,
        spotter: Scoring | None = None,
        on_doubt: Callable[[], None] | None = None,
        wanted: Callable[[], bool] | None = None,
    ) -> ScoredWord:
        """Score each view in turn until a short word is taken: the stretch, then the whole phrase, then the
        spotter's opinion on it, then the second opinion's (the cheaper first; the second put off until every view
        has been scored when the spotter is under `hold_from`, `base_last_unless_held`). The word taken with the scores it
        was taken on, or the first view's scores and None. One call per view costs less than all in one batch, and
        most words are taken on the first (tune: scoring both at once took a word later, 0.36 s p50 against 0.33 s).
        `on_doubt` is called once, before the first time base is asked after the spotter reached `hold_from`; with
        `spotter_first`, as soon as the spotter reaches it, before tiny.en scores the view.
        `wanted`: asked before each scoring after the first; when it says no (a pause scored ahead, and speech went on
        before it counted) nothing more is scored, and the first view's scores are given with no word."""
        first: ScoredWord | None = None
        doubted = False
        put_off: list[tuple[Audio, ShortWordScores | None]] = []  # views whose base waits for the other views

        def unwanted() -> bool:
            return wanted is not None and not wanted()

        for audio, whole in views:
            if first is not None and unwanted():
                return first
            spotted: ShortWordScores | None = None
            # The spotter first on the first view, where most words are decided: a hold (kept for base's wait) need not
            # wait for tiny.en. Not on the second, so a word tiny.en takes there does not wait for the spotter again.
            early = self.spotter_first and first is None and second_opinion is not None
            if early and spotter is not None and on_doubt is not None:
                spotted = spotter(audio)
                if self.holds(spotted):
                    doubted = True
                    on_doubt()
            scores = score(audio)
            first = first or ScoredWord(scores, None)
            word = self.verdict(scores)
            if word is not None:
                return ScoredWord(scores, word)
            if unwanted():
                return first
            if whole is not None:
                whole_scores = score(whole)
                if (whole_word := self.verdict(whole_scores, whole=True)) is not None:
                    return ScoredWord(whole_scores, whole_word, whole=True)
            if self.wants_second_opinion(scores):
                if spotted is None and spotter is not None:
                    spotted = spotter(audio)  # the cheaper first
                if spotted is not None and (spotted_word := self.spotted(spotted)) is not None:
                    return ScoredWord(spotted, spotted_word)
                held = second_opinion is not None and spotted is not None and self.holds_for_base(spotted)
                if held and not doubted and on_doubt is not None:
                    doubted = True
                    on_doubt()
                if second_opinion is not None and self.base_last_unless_held and not held:
                    put_off.append((audio, spotted))
                elif second_opinion is not None and not unwanted():
                    if (taken := self._ask_base(audio, spotted, second_opinion)) is not None:
                        return taken
        for audio, spotted in put_off:
            if unwanted():
                break
            if second_opinion is not None and (taken := self._ask_base(audio, spotted, second_opinion)) is not None:
                return taken
        if first is None:
            raise ValueError("no view to score")
        return first

    def _ask_base(self, audio: Audio, spotted: ShortWordScores | None, second_opinion: Scoring) -> ScoredWord | None:
        """Whisper base's opinion on `audio`: "stop" when it takes it alone, or with the spotter both near."""
        second = second_opinion(audio)
        if (second_word := self.second_verdict(second)) is not None:
            return ScoredWord(second, second_word)
        if spotted is not None and (both := self.both_verdict(spotted, second)) is not None:
            return ScoredWord(second, both)
        return None

    def score_whole_too(self, utterance_speech_seconds: float, stretch_speech_seconds: float) -> bool:
        """Score the whole utterance as well as its last stretch: it has more than that stretch, and is short."""
        longer = utterance_speech_seconds > stretch_speech_seconds + 1e-9
        return longer and utterance_speech_seconds <= self.max_phrase_seconds + 1e-9

    def verdict(self, scores: ShortWordScores, whole: bool = False) -> ShortWord | None:
        """The short word to act on, or None when no kind stands out clearly.

        `whole`: the scores are of a whole utterance with a pause inside, scored for a phrase said with
        a pause; a one-word phrase fitting it ("Thwaite's answers" as "Wait.") is the last stretch's to
        find, so only a phrase of more than one word ("Stop, please.", "Hold on.") is taken from it.
        """
        ranked = scores.ranked()
        if not ranked:
            return None
        (word, top), runner_up = ranked[0], (ranked[1][1] if len(ranked) > 1 else -math.inf)
        floor = self.stop_floor if word is ShortWord.STOP else self.command_floor
        if top < floor or top - runner_up < self.margin:
            return None
        if whole and len(scores.phrase.get(word, "").split()) < 2:
            return None
        return word


def _stop_reaching(scores: ShortWordScores, floor: float) -> ShortWord | None:
    """The word "stop" when its score reaches `floor` (the second and third opinions score nothing else)."""
    return ShortWord.STOP if scores.best.get(ShortWord.STOP, -math.inf) >= floor else None


@dataclass
class UnstartedStretch:
    """Speech that has not started an utterance, block by block: pure, like `VoiceSegmenter`.

    `process` says when a stretch of at least `speech_seconds` of speech in a row has been followed by
    `pause_seconds` of pause: the short path scores it then. The listener resets it while the segmenter
    collects an utterance, whose stretches the short path scores as before.
    """

    speech_seconds: float
    pause_seconds: float
    speech: float = 0.0  # the current stretch's speech so far
    pause: float = 0.0  # the pause after it so far

    def reset(self) -> None:
        self.speech = self.pause = 0.0

    def process(self, chunk_seconds: float, is_speech: bool) -> float | None:
        """The stretch's speech seconds when its pause has just become long enough to score it; else None."""
        if is_speech:
            self.speech += chunk_seconds
            self.pause = 0.0  # a pause too short to score: the same stretch goes on
            return None
        if self.speech + 1e-9 < self.speech_seconds:
            self.reset()  # too little speech in a row: nothing
            return None
        self.pause += chunk_seconds
        if self.pause + 1e-9 < self.pause_seconds:
            return None
        speech = self.speech
        self.reset()
        return speech


@dataclass
class UnstartedWatch:
    """The stretches too short to start an utterance, from Silero's probability block by block (pure).

    `usual`: speech at the listener's threshold. `faint`: blocks at `faint_from` or more, for a word Silero never
    calls speech with confidence; a faint stretch is scored only when no usual stretch within it was (the same word
    once, at the sooner pause)."""

    usual: UnstartedStretch
    speech_threshold: float
    faint_from: float | None = None  # None: no faint stretches
    faint: UnstartedStretch = field(init=False)  # as `usual`, at `faint_from`
    usual_scored: bool = False  # a usual stretch within the current faint one was scored

    def __post_init__(self) -> None:
        self.faint = UnstartedStretch(self.usual.speech_seconds, self.usual.pause_seconds)

    def reset(self) -> None:
        self.usual.reset()
        self.faint.reset()
        self.usual_scored = False

    def process(self, chunk_seconds: float, probability: float) -> float | None:
        """The speech seconds of a stretch to score now (its pause has just become long enough); else None."""
        found = self.usual.process(chunk_seconds, probability >= self.speech_threshold)
        if self.faint_from is None:
            return found
        faint = self.faint.process(chunk_seconds, probability >= self.faint_from)
        if found is not None:
            self.usual_scored = faint is None  # remembered while the faint stretch around it goes on
            return found
        if faint is None:
            return None
        scored, self.usual_scored = self.usual_scored, False
        return None if scored else faint
