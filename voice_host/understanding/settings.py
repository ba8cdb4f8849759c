"""Every threshold and repair weight of understanding, in one place.

The text rules (normalise, names) and the recognition passes (cascade) take their numbers from an
`UnderstandingSettings`; none of them keeps a number of its own. Each value was shaped on the `tune`
fixtures (docs/benchmarks.md, "Voice understanding").
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class RepairWeights:
    """How much of the confidence each kind of repair leaves (multiplied in).

    A name put right by the matcher leaves its own likeness score (names.py measures it), and a fuzzy
    command match its ratio; every other repair leaves one of these fixed weights.
    """

    exhibit: float = 0.5  # a citation read leniently ("3D7" -> E7, "E30" -> E13), or heard by the slot pass
    misheard_read: float = 0.8  # "reed E7" -> "read E7"
    citation_alone: float = 0.7  # "E7" said alone -> "read E7"
    misheard_answers: float = 0.8  # "answer's Keld" -> "answers Keld"
    command_soundalike: float = 0.75  # "nest" -> "next"
    misheard_opening: float = 0.7  # "As Keld" -> "Ask Keld", "Confirm" -> "Confront", "With use" -> "We accuse"
    address_role: float = 0.6  # a role heard as the address ("Vicker, explain E7." -> Vicar): always confirmed
    slot: float = 0.8  # a suspect heard only by the slot pass
    repeat: float = 0.6  # "Yes, yes." said twice: as likely Whisper looping as a keen table
    focus: float = 0.6  # only the nearest voice's words kept (focus and near-voice passes)
    biased_only_name: float = 0.5  # a suspect only the biased pass heard
    whole_command: float = 0.6  # a whole command the closed set heard where the transcript had none
    phrased_command: float = 0.6  # a command in other words heard where the transcript had none
    phrased_confrontation: float = 0.6  # the card's confrontation heard around a name and an exhibit number
    nbest: float = 0.7  # another of the beam's hypotheses than the one Whisper ranked first
    slower: float = 0.8  # what Whisper heard with the utterance played slower, not as said


@dataclass(frozen=True)
class NameThresholds:
    """How alike (0-1, spelling and sound) a heard word must be to a name to be corrected to it."""

    slot: float = 0.64  # a word in a name slot
    confront: float = 0.58  # the word right after "Confront" in "Confront X with ..."
    split: float = 0.8  # a name heard as two words whose first is a small word ("or Murad")
    role: float = 0.74  # a role word after "the" in a name slot ("the person" -> "the parson")
    # The word before a suspect's name at the start, heard for a title ("Reviment Keld," 0.81 from
    # "reverend", "Misser Thwaite," 0.93 from "mister"; "referee" is 0.78, "never" 0.70).
    title: float = 0.8
    # A name run together or split in two ("Ablethweight", "or Murad") beats the one word's own
    # likeness only by more than this.
    span_margin: float = 0.05
    # The commonest given names (this many of each of the census lists, `names.common_given_names`), said
    # first before a comma, call someone at the table ("Lauren, can you do the typing?" is not Marsden)...
    given_names: int = 1000
    # ... unless they sound this much like a suspect's name or more ("Dwight" 0.78 for Thwaite, "Joe" 0.79
    # for Joel, "Noel" 0.75; "Lauren" is 0.70 from Marsden, "Jess" 0.69 from Julius).
    person_below: float = 0.75


@dataclass(frozen=True)
class UnderstandingSettings:
    """The numbers behind understanding one utterance: confirmation, repairs, and when each pass runs."""

    # Below this confidence a costly action is confirmed first.
    confirm_below: float = 0.7
    # A command said alone within this ratio of a card command is that command ("nex" -> next).
    fuzzy_command_at_least: float = 0.8
    repairs: RepairWeights = field(default_factory=RepairWeights)
    names: NameThresholds = field(default_factory=NameThresholds)
    # Focus pass: a word this many dB quieter than the loudest word was someone else in the room,
    # not the person talking to the Host (4, 6 and 8 dB gave about the same gain in the party).
    focus_within_db: float = 6.0
    # Near-voice pass: a transcript Whisper was this sure of (mean token probability 0.82) is what was
    # said, often plain table talk: a second listen hears the same, so the near-voice pass is skipped
    # (how often, and that it lost nothing: docs/benchmarks.md, "Voice understanding").
    near_voice_below_logprob: float = -0.2
    # ... and skipped when what the gate would turn down is this far below the loudest moments or more
    # (`NearVoiceGate.gap_level_db`): then the gaps hold silence or the voice's own reverberation, no
    # other talker to take out. On 120 tune utterances the pass ran on 13% clean and 25% in the room
    # and changed 2 outcomes of those 45 runs (both still wrong), at a whole second pass's cost; where
    # it changed one in the kitchen or the party the gaps were 12-22 dB down; clean gaps are about
    # 85 dB down, the room's 32 (docs/benchmarks.md, "Tune only: cheaper understanding").
    near_voice_gaps_above_db: float = -25.0
    # Check pass: it only asks whether a name was really said; greedy decoding answers that as well
    # as beam 5, and sooner (the figures: docs/benchmarks.md, "Voice understanding").
    check_beam_size: int = 1
    # ... and a name only the prompted pass wrote is scored as a closed set in its place (the six's
    # names and roles, unprompted): it counts as heard, not uncertain, when the unprompted pass had
    # words there and this suspect's best leads every other's by the margin, at the floor or better.
    # On 120 tune utterances the guard asked about 12 clean questions, all heard right: their names
    # led by 2.0-8.3 at -0.9 to -4.4 (docs/benchmarks.md, "Tune only: names only the prompt heard").
    check_name_floor: float = -5.0
    check_name_margin: float = 2.0
    # Closed-set pass: the best candidate fills an empty slot only when its mean token log-probability
    # is at least the floor and leads the next best value by the margin (on the tune fixtures the
    # right fills were above -5.3 and a whole nat ahead; the wrong ones below or close behind).
    closed_set_floor: float = -5.5
    closed_set_margin: float = 1.0
    # ... and a best that leads by this much but less than the margin, in the closed set's own slots (read,
    # confront, answers, ask) or a lost addressee's, is kept aside and taken only when no pass after it
    # finds a whole message, asked about first ("I heard: Confront Keld with E7. Say yes or no."):
    # dropped, the table has to say it all again anyway (`NarrowPickPass`).
    closed_set_ask_margin: float = 0.5
    # An exhibit's number may stand out though Whisper never expected the citation's first word (espeak's
    # "exhibit" written "and live it": " exhibit 6" at -6.4, 2.3 ahead); on the tune fixtures (session 13)
    # every wrong exhibit best was within 0.7 of the next, so an exhibit slot keeps the margin, not the floor.
    closed_set_exhibit_floor: float = -7.0
    # Name-slot pass: a command's {name} heard as at most this many words that name no one ("the person")
    # has the six scored in its place (the closed set's floor and margin). Longer is talk about someone else.
    name_slot_max_words: int = 3
    # Whole-command pass: only for a short utterance (at most these seconds of audio and words in
    # its transcript; an empty or rejected transcript counts as short) that gave the Host nothing.
    whole_command_max_seconds: float = 2.5
    whole_command_max_words: int = 4
    # The best command is taken only when its mean token log-probability is at least the floor, it
    # leads the next command by `whole_command_margin`, and it is no more than
    # `-whole_command_over_transcript` behind the transcript's own words (scored alike, under the
    # same prompt). Whisper's own beam output nearly always scores best, so a command must come close
    # to it, not beat it: on tune the right commands behind an unusable transcript ("Stainless." for
    # "Statements.", "Ansuz Kliarjibun," for "Answers clergyman.") were 0.6-1.1 behind it and above
    # -2.3; the wrong ones ("Come again." as give up, "Once more, please.") 4-6 behind and below -4.
    # A lead (the smaller of the two) under `whole_command_sure` is confirmed first, even for a free
    # command: a command behind its transcript always is.
    whole_command_floor: float = -2.5
    whole_command_margin: float = 1.0
    whole_command_over_transcript: float = -1.2
    whole_command_sure: float = 2.0
    # Phrased-command pass: only for an utterance of at most these seconds and words that gave the
    # Host nothing. The phrase grammar's command phrasings nearest its words (at most this many, at
    # least this alike, rapidfuzz's 0-100 ratio: on tune the commands it found were 78-89 alike, table
    # talk's nearest never above 65, at 50 the pass ran on 38 of 140 tune table talk utterances for
    # nothing) are scored against the audio; the best is taken when it fits
    # (`phrased_command_floor`, a mean token log-probability) and is no more than
    # `phrased_command_behind` behind the transcript's own words, and it is confirmed first when more
    # than `phrased_command_sure` behind (a costly one always is). On the tune commands the right
    # phrasings were 0.7-1.9 behind, and none of 140 tune table talk utterances was taken. At
    # `phrased_command_behind` a free command taken is never asked about: the first draft's 1.0 asked
    # about 4 right and 3 wrong finds of the tune commands, all free, and the wrong ones were names
    # scored in place, which the pass no longer does (docs/benchmarks.md, "The phrased-command pass").
    # 0 candidates turns the pass off.
    phrased_command_max_seconds: float = 4.0
    phrased_command_max_words: int = 8
    phrased_command_candidates: int = 3
    phrased_command_alike: float = 70.0
    phrased_command_floor: float = -3.0
    phrased_command_behind: float = 2.0
    phrased_command_sure: float = 2.0
    # Phrased-confrontation pass: an utterance of at most these seconds and words that gave the Host
    # nothing but names one of the six and one exhibit number after them has the card's confrontations
    # of that one with that exhibit scored; the best is taken (always asked about first) when it fits
    # and is no more than `phrased_confrontation_behind` behind the transcript's own words, as for the
    # phrased command. On tune (session 31) the right ones were 1.1-1.8 behind, one 2.3; the wrong ones
    # (a question, an accusation, a role said bare) 3.2 or more. 0 words turns the pass off.
    phrased_confrontation_max_seconds: float = 5.0
    phrased_confrontation_max_words: int = 12
    phrased_confrontation_floor: float = -3.0
    phrased_confrontation_behind: float = 2.5
    # N-best pass: when the transcript is not a whole card message, the beam's other hypotheses (this
    # many, the first included: up to the first pass's beam width they come free with it, more cost a
    # search of their own) are understood, and the best one that is a whole message is taken when its
    # mean token log-probability is at most `nbest_behind` below the best hypothesis's. On tune the
    # right ones were 0.0-0.23 behind (one 0.41); a costly one is always confirmed (a doubtful repair).
    # 0 turns the pass off. 10 (a search of its own, 0.34 s where it runs: 20% of clean tune lines, 30%
    # of room) found more (room +10 lines of 493 against +6) but put first audio p90 0.2 s later, over
    # issue 13's 1.2 s in the room (docs/benchmarks.md "Tune only: the n-best list" and session 32's).
    nbest_hypotheses: int = 5
    nbest_behind: float = 0.25
    # Slower pass: when the transcript is not a whole card message, Whisper hears the utterance again
    # played at this rate (a tenth slower and lower: `asr.played_at`), and takes a whole message it
    # hears there. 1.0 turns the pass off. On tune the first pass alone at 0.95 and 0.9 was right
    # about as often, and each differently from the utterance as said (at 0.85, less often); 0.9 is
    # the rate measured through the whole cascade. No bar on how sure Whisper was of the slower
    # words: on tune the right ones were 0.0-0.3 behind the first transcript's mean token
    # log-probability, and the wrong ones as close (docs/benchmarks.md, "Tune only: the utterance
    # heard slower").
    slower_playback_rate: float = 0.9
    # Greedy: on tune as right as beam 5 (clean the same, room one utterance of 118 fewer), and cheaper.
    slower_beam_size: int = 1

    @property
    def whole_command_keep_within(self) -> float:
        """How far behind the best score a command can be and still change the whole-command pass's outcome.

        The pass compares the best command with the next one (up to `whole_command_sure` apart) only
        when the best is no more than `-whole_command_over_transcript` behind the transcript's own
        words: a command further behind the best score of all than the two together can change
        nothing, so the scorer need not follow it to its end (`Recognizer.score_continuations`).
        """
        return max(self.whole_command_margin, self.whole_command_sure) - min(0.0, self.whole_command_over_transcript)


DEFAULT_SETTINGS = UnderstandingSettings()
