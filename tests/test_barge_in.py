"""Barge-in decisions: pure, fed timings and words, no audio."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import numpy as np
import pytest

from engine.messages import Command, Message, MessageKind
from voice_host.ears.short_words import ShortViews, ShortWord, ShortWordScores
from voice_host.ears.sound import Audio
from voice_host.ears.stop_spotter import SpottedScores
from voice_host.ears.turn import TurnText
from voice_host.loop.barge_in import (
    BargeAction,
    BargeIn,
    BargeWords,
    HostTalk,
    ShortPath,
    UnstartedStretch,
    UnstartedWatch,
    barge_turn,
    barge_words,
    finishes,
    finishing_text,
    meant_after_stop,
    silence_words,
)  # fmt: skip
from voice_host.understanding.understand import Heard

RULE = BargeIn(tail_seconds=0.3)


def command(name: Command) -> Message:
    return Message(MessageKind.COMMAND, name.value, command=name)


@pytest.mark.parametrize(
    "text", ["stop", "Stop.", "Wait!", "wait, please", "Hold on.", "stop stop", "Wait, wait, wait.", "Okay, stop talking."]
)
def test_stop_and_wait_in_their_usual_forms_silence_the_host(text: str) -> None:
    assert silence_words(text)


@pytest.mark.parametrize("text", ["", "no", "wait for the statements", "stop Keld", "Abel, where were you?", "stop the game now"])
def test_other_words_do_not_silence_the_host(text: str) -> None:
    assert not silence_words(text)


def test_words_over_the_host_are_sorted_before_the_game_reads_them() -> None:
    # "stop" alone is give up to the game (card, MESSAGES rule 1): over the Host it only silences.
    assert barge_words(["stop"], command(Command.GIVE_UP), repeat_request=False) is BargeWords.SILENCE
    # Repair may have made the card's "no" of Whisper's "Wait.": what Whisper heard counts too.
    assert barge_words(["Wait.", "no"], command(Command.NO), repeat_request=False) is BargeWords.SILENCE
    assert barge_words(["say that again"], None, repeat_request=True) is BargeWords.REPEAT
    assert barge_words(["next"], command(Command.NEXT), repeat_request=False) is BargeWords.COMMAND
    assert barge_words(["skip"], command(Command.PASS), repeat_request=False) is BargeWords.COMMAND
    assert barge_words(["read E4"], command(Command.READ), repeat_request=False) is BargeWords.OTHER
    assert barge_words(["Abel, where were you?"], None, repeat_request=False) is BargeWords.OTHER


def test_an_utterance_that_overlaps_the_host_is_over_it() -> None:
    talking = HostTalk(started_at=10.0)
    assert RULE.over_host(began_at=12.0, ended_at=12.5, host=talking)
    assert RULE.over_host(began_at=9.0, ended_at=10.5, host=talking)  # began just before, ran into it
    assert not RULE.over_host(began_at=8.0, ended_at=9.9, host=talking)  # over before the Host began


def test_words_begun_in_the_hosts_tail_are_over_it_and_later_ones_are_not() -> None:
    stopped = HostTalk(started_at=10.0, stopped_at=20.0)
    assert RULE.over_host(began_at=20.2, ended_at=20.8, host=stopped)
    assert not RULE.over_host(began_at=20.4, ended_at=21.0, host=stopped)
    assert not RULE.over_host(began_at=30.0, ended_at=31.0, host=None)


@pytest.mark.parametrize(
    ("words", "action"),
    [
        (BargeWords.SILENCE, BargeAction.SILENCE),
        (BargeWords.REPEAT, BargeAction.RESTART),
        (BargeWords.COMMAND, BargeAction.COMMAND),
        (BargeWords.OTHER, BargeAction.KEEP),
    ],
)
def test_over_narration_each_kind_of_words_has_its_action(words: BargeWords, action: BargeAction) -> None:
    assert RULE.decide(words, began_at=11.0, ended_at=11.6, host=HostTalk(started_at=10.0)) is action


def test_other_words_over_an_answer_to_a_spoken_message_are_dropped() -> None:
    answering = HostTalk(started_at=10.0, answering_voice=True)
    assert RULE.decide(BargeWords.OTHER, 11.0, 12.0, answering) is BargeAction.DROP
    assert RULE.decide(BargeWords.COMMAND, 11.0, 12.0, answering) is BargeAction.COMMAND


def test_words_that_finish_the_spoken_message_being_answered_change_nothing() -> None:
    answering = HostTalk(started_at=10.0, answering_voice=True)
    # "Next ... round, please.": the rest, begun as the Host answers "Next", is neither a second next nor dropped.
    assert RULE.decide(BargeWords.COMMAND, 10.4, 11.0, answering, finishing=True) is BargeAction.FINISHED
    assert RULE.decide(BargeWords.OTHER, 10.4, 11.0, answering, finishing=True) is BargeAction.FINISHED
    # A stop word still silences the Host ("Read E4 ... stop").
    assert RULE.decide(BargeWords.SILENCE, 10.4, 11.0, answering, finishing=True) is BargeAction.SILENCE


def test_finishing_words_are_a_message_of_their_own_later_or_over_narration() -> None:
    answering = HostTalk(started_at=10.0, answering_voice=True)
    late = 10.0 + RULE.finishing_seconds + 0.1
    assert RULE.decide(BargeWords.COMMAND, late, late + 0.5, answering, finishing=True) is BargeAction.COMMAND
    assert RULE.decide(BargeWords.OTHER, late, late + 0.5, answering, finishing=True) is BargeAction.DROP
    # Over narration or an answer to a typed line, nobody's message is being finished.
    narrating = HostTalk(started_at=10.0)
    assert RULE.decide(BargeWords.OTHER, 10.4, 11.0, narrating, finishing=True) is BargeAction.KEEP


@pytest.mark.parametrize(
    ("answered", "words", "joined"),
    [
        ("Next.", "round, please.", "Next round, please."),
        ("Read E4", " again ", "Read E4 again"),
        ("Pass?", "for now", "Pass for now"),
    ],
)
def test_finishing_text_joins_the_answered_words_and_the_rest_as_one_sentence(answered: str, words: str, joined: str) -> None:
    assert finishing_text(answered, words) == joined


def test_only_the_very_message_being_answered_is_finished() -> None:
    asked = Message(MessageKind.QUESTION, "Thwaite, where were you", suspect="thwaite", costly=True)
    longer = Message(MessageKind.QUESTION, "Thwaite, where were you at ten?", suspect="thwaite", costly=True)
    assert finishes(command(Command.NEXT), command(Command.NEXT))
    assert not finishes(asked, longer)  # another question: the Host answered only its first half
    assert not finishes(command(Command.NEXT), command(Command.PASS))


def test_stop_said_over_the_host_still_silences_once_the_host_has_finished() -> None:
    # The word was meant for the Host: it must not reach the game as give up after the Host stopped.
    finished = HostTalk(started_at=10.0, stopped_at=11.9)
    assert RULE.decide(BargeWords.SILENCE, began_at=11.5, ended_at=12.0, host=finished) is BargeAction.SILENCE


def test_a_stop_or_repeat_over_a_talk_the_host_has_since_left_does_nothing() -> None:
    stopped = HostTalk(started_at=10.0, stopped_at=11.3)  # by the short path, on the first "wait"
    reading_on = HostTalk(started_at=13.5)  # the next exhibit, asked for before the words were understood
    for words in (BargeWords.SILENCE, BargeWords.REPEAT):
        assert RULE.decide(words, began_at=11.0, ended_at=12.0, host=stopped, latest=reading_on) is BargeAction.PASSED
    assert RULE.decide(BargeWords.SILENCE, began_at=11.0, ended_at=12.0, host=stopped, latest=stopped) is BargeAction.SILENCE
    assert RULE.decide(BargeWords.OTHER, began_at=11.0, ended_at=12.0, host=stopped, latest=reading_on) is BargeAction.KEEP


def test_words_after_the_host_stopped_are_handled_as_always() -> None:
    finished = HostTalk(started_at=10.0, stopped_at=12.0)
    assert RULE.decide(BargeWords.SILENCE, began_at=14.0, ended_at=14.4, host=finished) is BargeAction.NOT_OVER_HOST
    assert RULE.decide(BargeWords.OTHER, began_at=14.0, ended_at=15.0, host=None) is BargeAction.NOT_OVER_HOST


# --- the short path: a short utterance over the Host scored as a stop, repeat, next or skip word -------

SHORT = ShortPath(pause_seconds=0.1, max_speech_seconds=1.2, tail_seconds=0.3, stop_floor=-2.0, command_floor=-1.0, margin=1.5)


def scores(**best: float) -> ShortWordScores:
    found = {ShortWord(name): value for name, value in best.items()}
    return ShortWordScores(found, {word: word.value for word in found}, seconds=0.05, audio_seconds=0.8)


def test_a_short_utterance_over_the_host_is_scored_once_a_short_pause_follows() -> None:
    talking = HostTalk(started_at=10.0)
    assert SHORT.should_score(talking, now=12.0, speech_seconds=0.5, pause_seconds=0.1)
    assert not SHORT.should_score(talking, now=12.0, speech_seconds=0.5, pause_seconds=0.05)  # still a word gap


def test_a_long_utterance_is_never_scored_as_a_short_word() -> None:
    # Table talk goes to the whole understanding: it is kept, never a stop.
    assert not SHORT.should_score(HostTalk(started_at=10.0), now=14.0, speech_seconds=1.5, pause_seconds=0.2)


def test_only_words_over_the_host_or_its_tail_are_scored() -> None:
    stopped = HostTalk(started_at=10.0, stopped_at=12.0)
    assert SHORT.should_score(stopped, now=12.2, speech_seconds=0.4, pause_seconds=0.1)  # its voice still in the room
    assert not SHORT.should_score(stopped, now=12.5, speech_seconds=0.4, pause_seconds=0.1)
    assert not SHORT.should_score(None, now=12.0, speech_seconds=0.4, pause_seconds=0.1)


def test_a_short_word_that_stands_out_is_acted_on() -> None:
    assert SHORT.verdict(scores(stop=-0.8, repeat=-4.0, next=-5.0, skip=-6.0)) is ShortWord.STOP
    assert SHORT.verdict(scores(stop=-4.0, repeat=-4.5, next=-0.5, skip=-6.0)) is ShortWord.NEXT


def test_a_short_word_that_fits_badly_is_not_acted_on() -> None:
    assert SHORT.verdict(scores(stop=-2.5, repeat=-5.0, next=-5.0, skip=-6.0)) is None  # under the floor


def test_a_phrase_with_a_pause_inside_is_scored_whole_too_when_short() -> None:
    long_phrases = replace(SHORT, max_phrase_seconds=1.5)
    assert long_phrases.score_whole_too(utterance_speech_seconds=1.1, stretch_speech_seconds=0.4)  # "Stop, ... please."
    assert not long_phrases.score_whole_too(utterance_speech_seconds=0.4, stretch_speech_seconds=0.4)  # one stretch
    assert not long_phrases.score_whole_too(utterance_speech_seconds=1.8, stretch_speech_seconds=0.4)  # table talk


def test_from_a_whole_utterance_only_a_phrase_of_more_than_one_word_is_taken() -> None:
    clear = {ShortWord.STOP: -0.8, ShortWord.REPEAT: -4.0, ShortWord.NEXT: -5.0, ShortWord.SKIP: -6.0}
    phrases = {word: word.value for word in clear}
    said_with_a_pause = ShortWordScores(clear, phrases | {ShortWord.STOP: "Stop, please."}, seconds=0.05, audio_seconds=1.4)
    assert SHORT.verdict(said_with_a_pause, whole=True) is ShortWord.STOP
    # "Thwaite's answers, please." whole, fitting "Wait.": the last stretch alone would have had to be a stop word.
    one_word = ShortWordScores(clear, phrases | {ShortWord.STOP: "Wait."}, seconds=0.05, audio_seconds=1.8)
    assert SHORT.verdict(one_word, whole=True) is None
    assert SHORT.verdict(one_word) is ShortWord.STOP
    assert SHORT.verdict(replace(said_with_a_pause, best=clear | {ShortWord.STOP: -2.5}), whole=True) is None  # the floor


def test_a_stop_ranked_first_but_under_the_floor_asks_for_a_second_opinion() -> None:
    rule = replace(SHORT, second_opinion_from=-5.0, second_opinion_rank=1, second_stop_floor=-4.0)
    assert rule.wants_second_opinion(scores(stop=-3.5, repeat=-6.0, next=-5.5, skip=-7.0))
    assert not rule.wants_second_opinion(scores(stop=-5.5, repeat=-6.0, next=-7.0, skip=-7.0))  # too far from a stop
    assert not rule.wants_second_opinion(scores(stop=-3.5, repeat=-6.0, next=-3.0, skip=-7.0))  # next ranks first
    assert not rule.wants_second_opinion(scores(stop=-0.5, repeat=-6.0, next=-5.5, skip=-7.0))  # already taken
    assert rule.second_verdict(scores(stop=-1.0)) is ShortWord.STOP
    assert rule.second_verdict(scores(stop=-4.5)) is None
    assert rule.second_verdict(scores()) is None


def test_a_stop_ranked_second_asks_for_a_second_opinion_when_the_rule_looks_that_far() -> None:
    rule = replace(SHORT, second_opinion_from=-6.5, second_opinion_rank=2)
    assert rule.wants_second_opinion(scores(stop=-5.7, repeat=-7.0, next=-5.6, skip=-8.0))  # "Stop!" heard as "Next one."
    assert not rule.wants_second_opinion(scores(stop=-6.8, repeat=-7.0, next=-5.6, skip=-8.0))  # too far from a stop
    assert not rule.wants_second_opinion(scores(stop=-5.9, repeat=-5.8, next=-5.6, skip=-8.0))  # stop ranks third


def test_the_spotter_and_base_both_near_their_floors_take_a_stop_neither_takes_alone() -> None:
    rule = replace(
        SHORT, second_opinion_from=-5.0, second_opinion_rank=1, second_stop_floor=-4.0, spotter_floor=3.0,
        both_spotter_floor=1.5, both_second_floor=-6.5,
    )  # fmt: skip
    word = np.full(800, 0.5, dtype=np.float32)

    def clipped(audio: Audio) -> ShortWordScores:
        return scores(stop=-3.5, repeat=-6.0, next=-5.5, skip=-7.0)  # stop ranked first, under the floor

    def take(spotted: float, second: float | None, in_rule: ShortPath = rule) -> ShortWord | None:
        base = (lambda audio: scores(stop=second)) if second is not None else None
        return in_rule.take([(word, None)], clipped, base, lambda audio: scores(stop=spotted))[1]

    assert take(2.0, -6.0) is ShortWord.STOP
    assert take(2.0, -7.0) is None  # base not near enough
    assert take(1.0, -6.0) is None  # the spotter not near enough
    assert take(2.0, None) is None  # no base: the spotter alone, under its floor
    assert take(2.0, -6.0, replace(rule, both_spotter_floor=None)) is None  # off


def recorded(asked: list[str], name: str, result: ShortWordScores) -> Callable[[Audio], ShortWordScores]:
    """A scorer giving `result`, which notes `name` in `asked` each time it is asked."""

    def score(audio: Audio) -> ShortWordScores:
        asked.append(name)
        return result

    return score


def test_the_spotter_is_asked_first_and_base_only_when_the_spotter_does_not_take_a_stop() -> None:
    rule = replace(
        SHORT, second_opinion_from=-5.0, second_opinion_rank=1, second_stop_floor=-4.0, spotter_floor=3.0, both_spotter_floor=None
    )
    word = np.full(800, 0.5, dtype=np.float32)
    asked: list[str] = []

    opinion = partial(recorded, asked)

    clipped = opinion("tiny", scores(stop=-3.5, repeat=-6.0, next=-5.5, skip=-7.0))  # stop ranked first, under the floor
    base_unsure = opinion("base", scores(stop=-6.0))
    taken = rule.take([(word, None)], clipped, base_unsure, opinion("spotter", scores(stop=3.4)))
    assert taken[1] is ShortWord.STOP and taken[0].best[ShortWord.STOP] == 3.4
    assert asked == ["tiny", "spotter"]  # the spotter (0.02 s) took it: base (0.1-0.25 s) is not asked
    asked.clear()
    assert rule.take([(word, None)], clipped, base_unsure, opinion("spotter", scores(stop=2.9)))[1] is None  # under its floor
    assert asked == ["tiny", "spotter", "base"]
    asked.clear()
    taken = rule.take([(word, None)], clipped, opinion("base", scores(stop=-1.0)), opinion("spotter", scores(stop=2.9)))
    assert taken[1] is ShortWord.STOP and taken[0].best[ShortWord.STOP] == -1.0  # base took what the spotter did not
    assert asked == ["tiny", "spotter", "base"]
    asked.clear()
    far = opinion("tiny", scores(stop=-7.0, repeat=-6.0, next=-5.5, skip=-7.0))  # nothing near a stop
    assert rule.take([(word, None)], far, base_unsure, opinion("spotter", scores(stop=9.0)))[1] is None
    assert asked == ["tiny"]
    asked.clear()
    assert rule.take([(word, None)], clipped, None, opinion("spotter", scores(stop=3.4)))[1] is ShortWord.STOP  # no base


def test_the_host_is_held_once_while_base_judges_a_word_the_spotter_came_near_on() -> None:
    rule = replace(
        SHORT, second_opinion_from=-5.0, second_opinion_rank=1, spotter_floor=3.0, both_spotter_floor=None, hold_from=0.5,
        spotter_first=False,
    )  # fmt: skip
    word = np.full(800, 0.5, dtype=np.float32)
    asked: list[str] = []

    opinion = partial(recorded, asked)

    clipped = opinion("tiny", scores(stop=-3.5, repeat=-6.0, next=-5.5, skip=-7.0))  # stop ranked first, under the floor
    near, far = opinion("spotter", scores(stop=1.0)), opinion("spotter", scores(stop=-2.0))
    base = opinion("base", scores(stop=-9.0))
    held = lambda: asked.append("hold")  # noqa: E731
    assert rule.take([(word, None), (word * 2, None)], clipped, base, near, held)[1] is None
    assert asked == ["tiny", "spotter", "hold", "base", "tiny", "spotter", "base"]  # held once, before base
    asked.clear()
    assert rule.take([(word, None)], clipped, base, far, held)[1] is None
    assert asked == ["tiny", "spotter", "base"]  # the spotter far from a stop: the Host reads on
    asked.clear()
    assert rule.take([(word, None)], clipped, base, opinion("spotter", scores(stop=3.5)), held)[1] is ShortWord.STOP
    assert asked == ["tiny", "spotter"]  # the spotter took it: nothing to wait for
    asked.clear()
    sure = opinion("tiny", scores(stop=-0.5, repeat=-6.0, next=-5.5, skip=-7.0))
    assert rule.take([(word, None)], sure, base, near, held)[1] is ShortWord.STOP
    assert asked == ["tiny"]  # taken at once: no doubt
    asked.clear()
    assert replace(rule, hold_from=None).take([(word, None)], clipped, base, near, held)[1] is None
    assert "hold" not in asked
    asked.clear()
    assert rule.take([(word, None)], clipped, None, near, held)[1] is None
    assert asked == ["tiny", "spotter"]  # no base to wait for


def test_the_spotter_first_holds_the_host_before_tiny_en_scores_and_takes_the_same_words() -> None:
    rule = replace(
        SHORT, second_opinion_from=-5.0, second_opinion_rank=1, spotter_floor=3.0, both_spotter_floor=None, hold_from=0.5
    )
    assert rule.spotter_first  # what ships
    word = np.full(800, 0.5, dtype=np.float32)
    asked: list[str] = []

    opinion = partial(recorded, asked)

    clipped = opinion("tiny", scores(stop=-3.5, repeat=-6.0, next=-5.5, skip=-7.0))  # stop ranked first, under the floor
    near, far = opinion("spotter", scores(stop=1.0)), opinion("spotter", scores(stop=-2.0))
    base, base_sure = opinion("base", scores(stop=-9.0)), opinion("base", scores(stop=-1.0))
    held = lambda: asked.append("hold")  # noqa: E731
    assert rule.take([(word, None), (word * 2, None)], clipped, base, near, held)[1] is None
    # Held before tiny.en, once; the second view's spotter is asked where it was, once tiny.en ranks "stop" near.
    assert asked == ["spotter", "hold", "tiny", "base", "tiny", "spotter", "base"]
    asked.clear()
    assert rule.take([(word, None), (word * 2, None)], clipped, base, far, held)[1] is None
    assert asked == ["spotter", "tiny", "tiny", "spotter", "base", "base"]  # the second view: tiny.en first, as before
    asked.clear()
    assert rule.take([(word, None)], clipped, base_sure, near, held)[1] is ShortWord.STOP
    assert asked == ["spotter", "hold", "tiny", "base"]  # base takes it, the Host silent since before tiny.en
    asked.clear()
    assert rule.take([(word, None)], clipped, base, far, held)[1] is None
    assert asked == ["spotter", "tiny", "base"]  # far from a stop: the Host reads on, the spotter asked once
    asked.clear()
    far_from_stop = opinion("tiny", scores(stop=-7.0, repeat=-6.0, next=-5.5, skip=-7.0))
    assert rule.take([(word, None)], far_from_stop, base, opinion("spotter", scores(stop=9.0)), held)[1] is None
    assert asked == ["spotter", "hold", "tiny"]  # held, but taken only once tiny.en ranks "stop" near: nothing taken
    asked.clear()
    assert rule.take([(word, None)], clipped, None, near, held)[1] is None
    assert asked == ["tiny", "spotter"]  # no base to wait for: nothing to hold for, the order as before


def spotted(stop: float, wait: float) -> SpottedScores:
    """The spotter's scores: "stop" as the short path's, "wait" beside it."""
    return SpottedScores({ShortWord.STOP: stop}, {ShortWord.STOP: "(stop spotted)"}, 0.02, 0.8, wait)


def test_a_wait_the_spotter_hears_holds_the_host_while_tiny_en_judges_it() -> None:
    rule = replace(
        SHORT, second_opinion_from=-5.0, second_opinion_rank=1, spotter_floor=3.0, both_spotter_floor=None, hold_from=0.5,
        wait_hold_from=1.5,
    )  # fmt: skip
    word = np.full(800, 0.5, dtype=np.float32)
    asked: list[str] = []
    opinion = partial(recorded, asked)
    held = lambda: asked.append("hold")  # noqa: E731
    wait_said = opinion("tiny", scores(stop=-1.5, repeat=-6.0, next=-5.5, skip=-7.0))  # tiny.en takes "Wait."
    like_wait, unlike = opinion("spotter", spotted(stop=-2.0, wait=2.0)), opinion("spotter", spotted(stop=-2.0, wait=1.0))
    base = opinion("base", scores(stop=-9.0))

    assert rule.take([(word, None)], wait_said, base, like_wait, held)[1] is ShortWord.STOP
    assert asked == ["spotter", "hold", "tiny"]  # silent from before tiny.en's verdict
    asked.clear()
    assert rule.take([(word, None)], wait_said, base, unlike, held)[1] is ShortWord.STOP
    assert asked == ["spotter", "tiny"]  # under the wait floor: the Host reads on until tiny.en takes it
    asked.clear()
    talk = opinion("tiny", scores(stop=-7.0, repeat=-6.0, next=-5.5, skip=-7.0))
    assert rule.take([(word, None)], talk, base, like_wait, held)[1] is None
    assert asked == ["spotter", "hold", "tiny"]  # held, nothing taken: the listener lets the Host play on
    asked.clear()
    # A wait hold does not hurry base, which judges only "stop": it still waits for the other views.
    clipped = opinion("tiny", scores(stop=-3.5, repeat=-6.0, next=-5.5, skip=-7.0))
    assert rule.take([(word, None), (word * 2, None)], clipped, base, like_wait, held)[1] is None
    assert asked == ["spotter", "hold", "tiny", "tiny", "spotter", "base", "base"]
    asked.clear()
    assert replace(rule, wait_hold_from=None).take([(word, None)], wait_said, base, like_wait, held)[1] is ShortWord.STOP
    assert asked == ["spotter", "tiny"]  # off: the rule before
    asked.clear()
    # A scorer without a wait regression (a plain ShortWordScores) never holds for a wait.
    assert not rule.holds(scores(stop=-2.0)) and rule.holds(spotted(stop=-2.0, wait=1.5))


def test_base_waits_for_the_other_views_when_the_host_reads_on() -> None:
    rule = replace(
        SHORT, second_opinion_from=-5.0, second_opinion_rank=1, spotter_floor=3.0, both_spotter_floor=None, hold_from=0.5
    )
    first_view, second_view = np.full(800, 0.5, dtype=np.float32), np.full(800, 0.25, dtype=np.float32)
    asked: list[str] = []

    def tiny(audio: Audio) -> ShortWordScores:
        asked.append("tiny")
        if audio[0] == np.float32(0.25):
            return scores(stop=-1.0, repeat=-6.0, next=-5.5, skip=-7.0)  # "Hold on." clear on the second view
        return scores(stop=-3.5, repeat=-6.0, next=-5.5, skip=-7.0)

    def spotter(audio: Audio) -> ShortWordScores:
        asked.append("spotter")
        return scores(stop=-2.0)  # far: the Host reads on

    def base(audio: Audio) -> ShortWordScores:
        asked.append("base")
        return scores(stop=-1.0)

    views = [(first_view, None), (second_view, None)]
    assert rule.take(views, tiny, base, spotter)[1] is ShortWord.STOP
    assert asked == ["tiny", "spotter", "tiny"]  # taken on the second view without waiting behind base
    asked.clear()
    taken = replace(rule, base_last_unless_held=False).take(views, tiny, base, spotter)
    assert taken[1] is ShortWord.STOP and asked == ["tiny", "spotter", "base"]  # the rule before: base first took it
    asked.clear()
    only_first = [(first_view, None), (first_view * 1.5, None)]
    assert rule.take(only_first, tiny, base, spotter)[1] is ShortWord.STOP
    assert asked == ["tiny", "spotter", "tiny", "spotter", "base"]  # nothing else took it: base, once the views are done


def test_a_scoring_no_longer_wanted_scores_nothing_more() -> None:
    # Scored ahead of its pause counting, and speech went on: neither the next view nor base is asked.
    rule = replace(SHORT, second_opinion_from=-5.0, second_opinion_rank=1, spotter_floor=3.0, both_spotter_floor=None)
    first_view, second_view = np.full(800, 0.5, dtype=np.float32), np.full(800, 0.25, dtype=np.float32)
    asked: list[str] = []

    def tiny(audio: Audio) -> ShortWordScores:
        asked.append("tiny")
        return scores(stop=-3.5, repeat=-6.0, next=-5.5, skip=-7.0)

    def base(audio: Audio) -> ShortWordScores:
        asked.append("base")
        return scores(stop=-1.0)

    views = [(first_view, None), (second_view, None)]
    found, word, _ = rule.take(views, tiny, base, wanted=lambda: False)
    assert word is None and found.best[ShortWord.STOP] == -3.5 and asked == ["tiny"]
    asked.clear()
    assert rule.take(views, tiny, base, wanted=lambda: True)[1] is ShortWord.STOP  # still wanted: base takes it
    assert asked == ["tiny", "tiny", "base"]


def test_a_stretch_may_be_scored_ahead_of_its_pause_counting() -> None:
    talking = HostTalk(started_at=10.0)
    rule = replace(SHORT, scored_from_seconds=0.03)
    assert rule.should_score(talking, now=12.0, speech_seconds=0.5, pause_seconds=0.032, ahead=True)
    assert not rule.should_score(talking, now=12.0, speech_seconds=0.5, pause_seconds=0.032)
    assert not rule.pause_counts(0.032) and rule.pause_counts(0.1)
    assert not replace(rule, scored_from_seconds=None).should_score(talking, 12.0, 0.5, 0.032, ahead=True)


def test_two_short_words_that_fit_alike_are_not_acted_on() -> None:
    assert SHORT.verdict(scores(stop=-1.0, repeat=-1.8, next=-5.0, skip=-6.0)) is None  # within the margin
    assert SHORT.verdict(scores()) is None


def test_a_command_must_fit_better_than_a_stop() -> None:
    # A stop only silences the Host; next and skip move the game on.
    assert SHORT.verdict(scores(stop=-1.5, repeat=-5.0, next=-5.0, skip=-6.0)) is ShortWord.STOP
    assert SHORT.verdict(scores(stop=-5.0, repeat=-5.0, next=-1.5, skip=-6.0)) is None


@pytest.fixture(scope="module")
def heard() -> Callable[[str], Heard]:
    """What the whole understanding makes of words in round 1 (the engine's classifier, no audio)."""
    from engine.game import Game
    from voice_host.loop.casefiles import load_bundled_case
    from voice_host.understanding.understand import Understander

    case = load_bundled_case()
    game, understander = Game(case), Understander(case.suspects)
    game.start()
    game.handle("Ann, Ben")
    return lambda said: understander.understand(said, game)


@pytest.mark.parametrize("said", ["Stop.", "Stop, please.", "Wait.", "Wait, wait.", "Hold on.", "Hang on."])
def test_a_lone_stop_word_is_told_apart_for_the_end_of_turn(heard: Callable[[str], Heard], said: str) -> None:
    assert barge_turn(heard(said)) is TurnText.STOP_WORDS


def test_other_words_keep_their_grade_for_the_end_of_turn(heard: Callable[[str], Heard]) -> None:
    assert barge_turn(heard("Wait,")) is TurnText.UNFINISHED  # "Thwaite, where were you?"
    assert barge_turn(heard("Wait for the statements.")) is TurnText.MAY_GO_ON
    assert barge_turn(heard("Read E4.")) is TurnText.WHOLE


@pytest.mark.parametrize(
    ("whole", "after", "meant"),
    [
        ("Thwaite, where were you at ten?", "where were you at ten?", "whole"),  # its name taken for "Wait."
        ("Stop. Read exhibit four.", "Read exhibit four.", "after"),
        ("Stop. Next.", "Next.", "after"),
        ("Stop. What did he say about the yard?", "What did he say about the yard?", "whole"),  # talk either way
        ("Stop, stop.", "stop.", "whole"),
    ],
)
def test_an_utterance_that_went_on_after_a_stop_means_the_whole_or_what_followed(
    heard: Callable[[str], Heard], whole: str, after: str, meant: str
) -> None:
    whole_heard, after_heard = heard(whole), heard(after)
    assert meant_after_stop(whole_heard, after_heard) is (whole_heard if meant == "whole" else after_heard)
    assert meant_after_stop(whole_heard, None) is whole_heard


def test_views_are_scored_in_turn_until_one_is_taken() -> None:
    words, detect = np.full(800, 0.5, dtype=np.float32), np.full(800, 0.25, dtype=np.float32)
    views = SHORT.views_of(ShortViews(words, detect), None)  # gated, then suppressed
    assert len(views) == 2 and views[1][0] is detect
    heard: list[float] = []

    def score(audio: Audio) -> ShortWordScores:
        heard.append(float(audio.max()))
        return scores(stop=-0.5, next=-6.0) if audio is detect else scores(stop=-6.0, next=-6.5)

    found, word, _ = SHORT.take(views, score, None)
    assert word is ShortWord.STOP and found.best[ShortWord.STOP] == -0.5 and heard == [0.5, 0.25]
    # Taken on the first view, the second is never scored.
    heard.clear()
    assert SHORT.take(views[1:], score, None)[1] is ShortWord.STOP and heard == [0.25]


def test_without_the_detectors_signal_the_words_are_scored_once() -> None:
    words = np.full(800, 0.5, dtype=np.float32)
    views = SHORT.views_of(ShortViews(words), ShortViews(words))
    assert len(views) == 1 and views[0][0] is words and views[0][1] is words
    found, word, _ = SHORT.take(views, lambda audio: scores(stop=-6.0, next=-6.5), None)
    assert word is None and found.best[ShortWord.STOP] == -6.0


# --- a stretch too short to start an utterance (Silero afresh after the gate's silence) ------------------


def stretch() -> UnstartedStretch:
    return UnstartedStretch(speech_seconds=0.09, pause_seconds=0.09)


def fed(tracker: UnstartedStretch, speech: str, block: float = 0.032) -> list[float]:
    """The stretches it asked to score, in the order asked; `speech`: "s" a block of speech, "." of none."""
    return [found for said in speech if (found := tracker.process(block, said == "s")) is not None]


def test_a_short_stretch_is_scored_once_its_pause_is_long_enough() -> None:
    tracker = stretch()
    assert fed(tracker, "sss..") == []  # three blocks of speech, a pause of two
    assert fed(tracker, ".") == [pytest.approx(0.096)]  # the third block of pause: scored, once
    assert fed(tracker, ".........") == []


def test_too_little_speech_in_a_row_is_nothing() -> None:
    assert fed(stretch(), "ss.s.ss" + "." * 10) == []


def test_a_pause_too_short_to_score_joins_the_stretches_either_side() -> None:
    assert fed(stretch(), "sss..ss...") == [pytest.approx(5 * 0.032)]


def test_the_unstarted_stretch_follows_the_short_paths_settings() -> None:
    tracker = ShortPath(pause_seconds=0.1, unstarted_seconds=0.12, faint_from=0.3).unstarted(0.5)
    assert tracker is not None
    assert tracker == UnstartedWatch(UnstartedStretch(speech_seconds=0.12, pause_seconds=0.1), 0.5, faint_from=0.3)
    assert tracker.faint == tracker.usual
    assert ShortPath(faint_from=None).unstarted(0.5) == UnstartedWatch(UnstartedStretch(0.09, 0.09), 0.5)
    assert ShortPath(unstarted_seconds=None).unstarted(0.5) is None


# Silero's probability a block: "s" speech (0.8), "f" faint (0.3), "." nothing (0.05).
PROBABILITY = {"s": 0.8, "f": 0.3, ".": 0.05}


def watched(speech: str, faint_from: float | None = 0.2) -> list[float]:
    """The stretches an `UnstartedWatch` asked to score, as `fed` (with faint blocks too)."""
    watch = ShortPath(faint_from=faint_from).unstarted(0.5)
    assert watch is not None
    return [found for said in speech if (found := watch.process(0.032, PROBABILITY[said])) is not None]


def test_a_faint_stretch_silero_never_calls_speech_is_scored_after_its_pause() -> None:
    assert watched("..ffff..ff" + "." * 10) == [pytest.approx(6 * 0.032)]  # "ff.." joins: one stretch
    assert watched("..ffff" + "." * 10, faint_from=None) == []


def test_a_stretch_of_speech_is_scored_once_not_again_as_the_faint_stretch_around_it() -> None:
    assert watched("ffsssffff" + "." * 10) == [pytest.approx(3 * 0.032)]  # at the speech's pause, not the faint's
    assert watched("ffsss..." + "." * 10) == [pytest.approx(3 * 0.032)]  # both pauses at once: scored once
    # the next faint word is scored on its own
    assert watched("sss..." + "fff..." + "." * 4) == [pytest.approx(3 * 0.032), pytest.approx(3 * 0.032)]
