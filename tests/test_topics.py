"""Topic choice inside a question (engine.topics): the line on the topic asked, the first topic it asks.

Each test names one ruling of docs/rulings.md and puts Hollin Fold questions through the real engine, with the cues
and rules alone: the votes of the questions asked before, which may overrule them, are tested in tests/test_asked.py
and over the whole question set in tests/test_hollin_fold_topics.py.
"""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest

from engine.case import Case, EntryKind
from engine.game import Game
from engine.topics import CueStrength, build_topic_indexes, cue_strength, echo_words, line_words, stems, units
from tests.engine_support import suspect_lines
from voice_host.loop.casefiles import load_bundled_case


@cache
def case() -> Case:
    return dataclasses.replace(load_bundled_case(), asked=(), derived={})


def line(suspect: str, topic: str) -> str:
    entry = next(e for e in case().entries_for(suspect) if e.topic == topic and (e.kind is not EntryKind.LIE or e.after is None))
    return entry.words


def answer(question: str) -> str:
    game = Game(case())
    game.start()
    game.handle("Ann")
    said = suspect_lines(game.handle(question))
    assert len(said) == 1, said
    return said[0][1]


@pytest.mark.parametrize(
    ("question", "suspect", "topic"),
    [
        # a specific cue outranks a person's name and the dead woman's name
        ("Reverend, why did you ask Nance for turpentine?", "keld", "the back stair"),
        ("Mr. Ormerod, what is in Mrs. Blamire's will?", "ormerod", "the will"),
        ("Joel, did you and Phoebe talk about your debts?", "joel", "his debts"),
        # a person's name outranks a plain verb
        ("Thwaite, did you see Mr Ormerod at the fire?", "thwaite", "Mr. Ormerod"),
        # a time phrase is not the topic its words name: "during the carols" is not the carols
        ("Thwaite, did you see Mrs Ruddock during the carols?", "thwaite", "Mrs. Ruddock"),
    ],
)
def test_a_specific_cue_outranks_names_and_plain_words(question: str, suspect: str, topic: str) -> None:
    assert answer(question) == line(suspect, topic)


def test_a_name_in_a_lead_in_sentence_is_context() -> None:
    question = "Thwaite, Nance heard something fall at the far end. Did you hear anything?"
    assert answer(question) == line("thwaite", "what he heard and saw")


def test_context_answers_when_the_question_itself_names_no_topic() -> None:
    assert answer("Reverend, Mrs Blamire paid you three hundred pounds. Where is it now?") == line("keld", "the organ fund")


def test_a_question_that_asks_two_things_gets_the_first() -> None:
    assert answer("Thwaite, what did you hear, and where were you?") == line("thwaite", "what he heard and saw")
    assert answer("Thwaite, where were you, and what did you hear?") == line("thwaite", "where he was")
    assert answer("Joel, what was your aunt like, and who gets the money?") == line("joel", "his aunt")


def test_a_setting_clause_belongs_to_the_question_after_it() -> None:
    question = "Ruddock, when you got down there, what did you see?"
    assert answer(question) == line("ruddock", "finding her")


def test_a_setting_clause_that_places_the_suspect_only_sets_the_scene() -> None:
    question = "Joel, when you were out by the stables, did you see anyone?"
    assert answer(question) == line("joel", "what he heard")
    # with nothing asked after it, the place still gives the topic
    assert answer("Joel, when you were out by the stables, were you alone?") == line("joel", "where he was")
    # even a plain word of the question outranks it
    assert answer("Thwaite, when you were in the plate room, what did you find?") == line("thwaite", "finding her")


def test_one_of_the_six_at_a_place_gets_the_line_that_has_them_there() -> None:
    # Joel's finding her: "Mrs. Ruddock was at the plate room door"
    assert answer("Joel, did you see Mrs Ruddock at the plate room door?") == line("joel", "finding her")
    assert answer("Joel, was Mrs Ruddock in the plate room when you came down?") == line("joel", "finding her")
    # the person's own line has them there: "Miss Marsden was at the piano through every carol"
    assert answer("Thwaite, did you see Miss Marsden at the piano?") == line("thwaite", "Miss Marsden")
    # a plain word is no person: "upstairs" and the Blue Room are both in his line of the carols
    assert answer("Reverend, were you upstairs in the Blue Room?") == line("keld", "where he was")


def test_a_setting_clause_about_others_only_says_when() -> None:
    assert answer("Mrs Ruddock, when the bell rang, where were you?") == line("ruddock", "where she was")
    assert answer("Thwaite, when the waits were at the yard door, where were you?") == line("thwaite", "where he was")
    # even a plain word of the question outranks the clause's cues
    assert answer("Reverend, when the waits went round the back, what did you do?") == line("keld", "where he was")
    # with nothing asked in the question itself, the clause still gives the topic
    assert answer("Thwaite, when the bell rang, what then?") == line("thwaite", "finding her")


def test_cues_match_through_inflection_and_intervening_words() -> None:
    assert answer("Thwaite, where exactly were you?") == line("thwaite", "where he was")
    assert answer("Marsden, which of the carols were sung?") == line("marsden", "the waits and the carols")
    assert answer("Keld, was anyone singing?") == line("keld", "the waits and the carols")
    assert stems("carols singing Keld's") == ("carol", "sing", "keld")


def test_a_hedge_between_a_cues_words_is_no_gap() -> None:
    # "where [exactly] were you" is unbroken, so it outranks the bowl of the trailing clause, as "where were you" does
    assert answer("Thwaite, where exactly were you before you went down for the bowl?") == line("thwaite", "where he was")
    assert answer("Thwaite, where were you before you went down for the bowl?") == line("thwaite", "where he was")


def test_she_as_the_subject_of_a_question_names_the_dead_woman_plainly() -> None:
    assert answer("Thwaite, was she generous to the servants?") == line("thwaite", "the mistress")
    # a plain mention: a specific cue still outranks it, and a tag question ("..., would she?") is no subject
    assert answer("Joel, was she angry about your debts?") == line("joel", "his debts")
    assert answer("Joel, your aunt wouldn't pay what you owe, would she?") == line("joel", "his debts")


def test_two_word_cues_do_not_stretch_over_other_words() -> None:
    # "back stair" must not be found in "back up the stair"
    assert answer("Joel, did you come back up the main stair?") != line("joel", "the back stair")


def test_a_plain_cue_answers_only_when_nothing_more_specific_is_asked() -> None:
    assert answer("Ormerod, did you hear anything?") == line("ormerod", "what he heard")
    assert answer("Ormerod, did you hear the bell?") == line("ormerod", "finding her")


def test_names_are_told_from_the_case() -> None:
    assert cue_strength(case(), "nance", plain=False) is CueStrength.NAME
    assert cue_strength(case(), "mr blamire", plain=False) is CueStrength.NAME
    assert cue_strength(case(), "Mrs. Blamire", plain=False) is CueStrength.PLAIN  # the dead woman is in every question
    assert cue_strength(case(), "turpentine", plain=False) is CueStrength.SPECIFIC
    assert cue_strength(case(), "hear", plain=True) is CueStrength.PLAIN


def test_units_cut_lead_ins_settings_and_second_questions() -> None:
    cut = units("Nance heard something fall. When you got down, what did you see, and where were you?")
    assert [(" ".join(unit.words), unit.role.name) for unit in cut] == [
        ("nance heard something fall", "CONTEXT"),
        ("when you got down", "SETTING"),
        ("what did you see", "QUESTION"),
        ("and where were you", "QUESTION"),
    ]
    assert [unit.words for unit in units("Mr. Ormerod stood at 10.30 by the fire.")] == [
        ("mr", "ormerod", "stood", "at", "10", "30", "by", "the", "fire")
    ]


def test_a_question_that_points_back_takes_the_lead_ins_topic() -> None:
    question = "Marsden, the Cherry Tree ran from 10.20 to 10.28. Could you hear it?"
    assert answer(question) == line("marsden", "the waits and the carols")
    # without a word pointing back, the question's own cue decides
    assert answer("Marsden, the Cherry Tree ran late. Did you hear anything?") == line("marsden", "what she heard")
    # unless the lead-in also names the question's own line: the bowl's fall is what she heard
    assert answer("Mrs Ruddock, the wassail bowl fell with a crash. Did you hear it?") == line("ruddock", "what she heard")


def test_a_trailing_when_you_clause_names_the_moment_asked_about() -> None:
    assert answer("Keld, what did you see when you went down with Mr Ormerod?") == line("keld", "finding her")
    assert answer("Keld, what did you see?") == line("keld", "what he heard")
    # a place named on the way is a circumstance, and the moment still decides
    assert answer("Joel, who was at the plate room door when you got there?") == line("joel", "finding her")


def test_a_trailing_when_you_clause_is_only_the_setting_when_the_question_names_a_thing() -> None:
    question = "Thwaite, which verse were they on when you heard the fall?"
    assert answer(question) == line("thwaite", "the waits and the carols")


def test_what_were_you_doing_at_a_place_asks_about_the_place() -> None:
    assert answer("Thwaite, what were you doing at a pawnbroker's in Leeds?") == line("thwaite", "the plate")
    assert answer("Thwaite, what were you doing?") == line("thwaite", "where he was")


def test_one_of_the_six_as_the_subject_of_the_question_is_its_topic() -> None:
    assert answer("Thwaite, is Mrs Ruddock telling the truth about the kitchen?") == line("thwaite", "Mrs. Ruddock")
    assert answer("Joel, does Ormerod manage your aunt's money?") == line("joel", "Ormerod")
    # after "how much", "how long", "how often" too: the question word is two words
    assert answer("Reverend, how much does Ormerod know about the organ fund?") == line("keld", "Mr. Ormerod")
    # not as the subject: the thing asked about decides
    assert answer("Thwaite, did you tell Mrs Ruddock about the kitchen?") == line("thwaite", "the yard door and the kitchen")


def test_a_subject_whose_name_is_in_the_specific_line_leaves_the_topic_to_that_line() -> None:
    assert answer("Mr Ormerod, does Joel inherit?") == line("ormerod", "the will")  # the will's line names Mr. Joel
    assert answer("Mr Ormerod, is Joel a good man?") == line("ormerod", "Mr. Joel")
    # unless the person's own line speaks of the thing too: "he counts the spoons"
    assert answer("Joel, does Thwaite count the spoons?") == line("joel", "Thwaite")


def test_another_person_as_the_subject_is_not_the_topic() -> None:
    # the waits are named among the others, not the six: the wassail decides
    assert answer("Mrs Ruddock, did the waits get their wassail?") == line("ruddock", "the plate")


def test_another_person_as_the_subject_gets_their_line_only_for_what_it_says_of_them() -> None:
    deflect = next(e for e in case().entries_for("thwaite") if e.kind is EntryKind.DEFLECT)
    # "Nance had it open for the waits": the line says what is asked of her, or its topic is them (the waits' carols)
    assert answer("Thwaite, did Nance have it open for the waits?") == line("thwaite", "the yard door and the kitchen")
    assert answer("Reverend, were the waits in good voice?") == line("keld", "the waits and the carols")
    # the kitchen's line says nothing of Cook's baking
    assert answer("Thwaite, what did Cook bake today?") == deflect.words


def test_a_place_phrase_after_the_thing_asked_is_a_circumstance() -> None:
    assert answer("Reverend, could you hear the waits from your room?") == line("keld", "the waits and the carols")
    # a place phrase that comes first is what is asked
    assert answer("Thwaite, were you in the hall the whole time the waits sang?") == line("thwaite", "where he was")
    assert answer("Joel, how do you get from the yard door to the stables?") == line("joel", "the yard door")
    # after no more than a plain verb of the senses, the place is where the suspect heard or saw from
    assert answer("Miss Marsden, what could you hear from the piano?") == line("marsden", "what she heard")
    assert answer("Mr Ormerod, what could you see from the fire?") == line("ormerod", "what he heard")
    # only when the suspect is the one who heard or saw: "could anyone see you" asks where she was
    assert answer("Miss Marsden, could anyone see you at the piano?") == line("marsden", "where she was")
    # but a time after a plain word is still what is asked
    assert answer("Miss Marsden, what happened at supper?") == line("marsden", "the supper")


def test_whether_the_suspect_heard_a_thing_is_answered_by_the_line_that_says_they_heard_it() -> None:
    question = "Mrs Ruddock, did you hear the stair door?"
    # before her lie about the stair door breaks, the line that says she heard it is not in the FILE
    assert answer(question) == line("ruddock", "the back stair")
    game = Game(case())
    game.start()
    game.handle("Ann")
    game.handle("Confront Mrs Ruddock with E4")
    assert "R2" in game.state.broken
    heard = next(e for e in case().entries_for("ruddock") if e.topic == "what else she heard")
    assert [text for _, text in suspect_lines(game.handle(question))] == [heard.words]
    # a HELD line is what the suspect saw and kept back: "the plate room door stood ajar"
    game = Game(case())
    game.start()
    game.handle("Ann")
    game.handle("Confront Thwaite with E3")
    assert "T1" in game.state.broken
    saw = next(e for e in case().entries_for("thwaite") if e.topic == "what else he saw")
    assert saw.kind is EntryKind.HELD
    assert [text for _, text in suspect_lines(game.handle("Thwaite, did you notice anything on the door?"))] == [saw.words]
    # where no line says it, the line of the senses
    assert answer("Miss Marsden, did you see anything at the piano?") == line("marsden", "what she heard")
    # a place is what was heard only in its own line: his line of the carols hears them "in the hall", and the hall
    # is where he heard from
    assert answer("Thwaite, what did you hear in the hall?") == line("thwaite", "what he heard and saw")
    assert answer("Reverend, what could you hear from the Blue Room?") == line("keld", "what he heard")


def test_a_thing_asked_about_after_a_way_of_asking_anything_is_the_topic() -> None:
    question = "Mrs Ruddock, was there anything strange about the yard door?"
    assert answer(question) == line("ruddock", "the yard door and the kitchen")
    assert answer("Mr Ormerod, did you hear anything about the shares?") == line("ormerod", "her affairs")
    # "about it" stands for the thing the lead-in names
    assert answer("Thwaite, the sauce boats. Is there anything odd about them?") == line("thwaite", "the plate")
    # with no thing after it, the way of asking decides
    assert answer("Mrs Ruddock, was there anything strange about tonight?") == line("ruddock", "what she heard")
    # not after one of the six as the subject: the question asks about them
    assert answer("Thwaite, is Mrs Ruddock telling the truth about the kitchen?") == line("thwaite", "Mrs. Ruddock")
    # past an owner: "about your aunt's will"
    assert answer("Joel, did you hear anything about your aunt's will?") == line("joel", "the will")
    # "about" before a time is "at around": the time is not the thing asked
    assert answer("Mr Ormerod, did you hear anything about twenty-five to eleven?") == line("ormerod", "what he heard")


def test_a_cue_ending_in_her_hears_the_dead_woman_named_in_its_place() -> None:
    # "last see her", "found her": by her names or the word the suspect's own line about her uses
    assert answer("Keld, when did you last see Mrs Hester Blamire?") == line("keld", "Mrs. Blamire")
    assert answer("Joel, when did you last see Aunt Hester?") == line("joel", "his aunt")
    assert answer("Mr Ormerod, what did you do when you found Mrs Blamire?") == line("ormerod", "finding her")
    # not her possessive: "know Mrs Blamire's will" asks about the will
    assert answer("Mr Ormerod, does anyone know Mrs Blamire's will?") == line("ormerod", "the will")


def test_a_way_of_asking_whose_own_line_speaks_of_the_thing_keeps_the_question() -> None:
    # her HELD line ("I heard the back stair door creak") is the "anything else" about the back stair
    game = Game(case())
    game.start()
    game.handle("Ann")
    game.handle("Confront Mrs Ruddock with E4")
    held = next(e for e in case().entries_for("ruddock") if e.topic == "what else she heard")
    said = suspect_lines(game.handle("Mrs Ruddock, is there anything else you know about the back stair?"))
    assert [text for _, text in said] == [held.words]


def test_a_held_line_answers_for_its_own_place_asked_with_hearing() -> None:
    # "the bedroom corridor" is a cue of her HELD line, whose words say only "the end of the corridor"
    game = Game(case())
    game.start()
    game.handle("Ann")
    game.handle("Confront Mrs Ruddock with E4")
    held = next(e for e in case().entries_for("ruddock") if e.topic == "what else she heard")
    said = suspect_lines(game.handle("Mrs Ruddock, what could you hear on the bedroom corridor?"))
    assert [text for _, text in said] == [held.words]


def test_inside_a_setting_clause_about_others_a_specific_cue_outranks_a_name() -> None:
    # the clause only says when, and the question names nothing: its bell (finding her) is asked, not Thwaite
    assert answer("Joel, once Thwaite rang, where did you run to?") == line("joel", "finding her")
    # a name alone in such a clause is still the topic when nothing else is there
    assert answer("Mrs Ruddock, once Thwaite had gone, what did you make of him?") == line("ruddock", "Mr. Thwaite")


def test_a_question_words_contracted_did_is_read_out() -> None:
    assert units("Where'd you get to?")[0].words == ("where", "did", "you", "get", "to")
    assert answer("Joel, so where'd you go?") == line("joel", "where he was")
    # "would" after "'d" elsewhere is left alone
    assert units("You'd gone out?")[0].words == ("you'd", "gone", "out")


@pytest.mark.parametrize(
    ("question", "suspect", "topic"),
    [
        # no cue: the line that shares two or more rare words answers ("stealing jam ... as a boy")
        ("Joel, did you steal jam as a boy?", "joel", "the plate"),
        ("Mr. Ormerod, were your feet frozen after the drive up the dale?", "ormerod", "where he was"),
        ("Joel, would she have your hide for the snow?", "joel", "Mrs. Ruddock"),
        # only a plain cue (the dead woman's name): the line's own words still answer
        ("Joel, did Mrs. Blamire catch you stealing jam as a boy?", "joel", "the plate"),
        # a name or a specific cue is not backed off from: Thwaite's line, not the feet on the drive
        ("Mr. Ormerod, were Thwaite's feet frozen after the drive up the dale?", "ormerod", "Thwaite"),
    ],
)
def test_a_question_no_cue_names_gets_the_line_that_echoes_its_words(question: str, suspect: str, topic: str) -> None:
    assert answer(question) == line(suspect, topic)


def test_one_shared_word_is_no_echo() -> None:
    deflect = next(e for e in case().entries_for("joel") if e.kind is EntryKind.DEFLECT)
    assert answer("Joel, do you like jam?") == deflect.words


def test_an_echo_needs_two_rare_words_and_no_line_as_close() -> None:
    echoes = line_words(case())["joel"]
    plate = next(entry for entry, _ in echoes.lines if entry.topic == "the plate")
    assert echoes.echoed(frozenset(stems("stealing jam as a boy")), lambda _: True) is plate
    assert echoes.echoed(frozenset(stems("jam")), lambda _: True) is None  # one word
    assert echoes.echoed(frozenset(stems("stealing jam as a boy")), lambda entry: entry is not plate) is None  # not in the FILE
    # words the whole house says (the bell, the snow, tonight) weigh little: two of them are not enough
    assert echoes.rarity[stems("bell")[0]] < echoes.rarity[stems("jam")[0]]
    assert echoes.echoed(frozenset(stems("the bell tonight")), lambda _: True) is None


def test_an_echo_hears_an_irregular_verbs_past_as_its_plain_form() -> None:
    echoes = line_words(case())["ormerod"]
    # "She read every line of every paper I brought her.": "bring" and "papers" are two rare words of it
    client = next(entry for entry, _ in echoes.lines if "brought her" in entry.words)
    assert echo_words("came went saw left told kept") == echo_words("come go see leave tell keep")
    assert echoes.echoed(echo_words("did you bring her papers"), lambda _: True) is client
    assert echoes.echoed(frozenset(stems("did you bring her papers")) - {stems("bring")[0]}, lambda _: True) is None


def test_the_bench_builds_indexes_without_the_echo_or_with_cues_left_out() -> None:
    anywhere = lambda _: True  # noqa: E731
    plate = next(e for e in case().entries_for("joel") if e.topic == "the plate")
    assert build_topic_indexes(case())["joel"].choose("did you steal jam as a boy?", anywhere) is plate
    assert build_topic_indexes(case(), echo=False)["joel"].choose("did you steal jam as a boy?", anywhere) is None
    no_silver = build_topic_indexes(case(), lambda entry, cue: cue != "silver", echo=False)["joel"]
    assert build_topic_indexes(case(), echo=False)["joel"].choose("where is the silver?", anywhere) is plate
    assert no_silver.choose("where is the silver?", anywhere) is not plate
