"""Hollin Fold through the real engine: each spoken question reaches its topic, and every lie breaks in play.

The questions are the `tune` part of spoilers/hollin-fold/questions.tsv: for every suspect and topic,
questions worded as a table says them aloud, each put to the suspect the card's way and labelled with the
line a fair referee would pick. A fresh game is seated with one player and, where a line is not yet in the
FILE (a HELD line), first breaks one of that suspect's lies. The `test` part is held out: bench/questions.py
reports it (docs/benchmarks.md), and no cue or rule is shaped on it.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from engine.case import Case, EntryKind, FileEntry
from engine.game import Game
from engine.messages import MessageKind
from engine.replies import PartKind, Reply
from voice_host.loop.casefiles import load_bundled_case

QUESTIONS = Path(__file__).resolve().parents[1] / "spoilers" / "hollin-fold" / "questions.tsv"
DEFLECT = "DEFLECT"


@dataclass(frozen=True)
class Row:
    suspect: str
    topic: str
    question: str

    def __str__(self) -> str:
        return f"{self.suspect}/{self.topic}: {self.question}"


@cache
def case() -> Case:
    return load_bundled_case()


def read_rows(split: str = "tune") -> list[Row]:
    with QUESTIONS.open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    reader = csv.DictReader(lines, delimiter="\t")
    return [Row(r["suspect_key"], r["topic"], r["question"]) for r in reader if r["split"] == split]


ROWS = read_rows()


def seated() -> Game:
    game = Game(case())
    game.start()
    game.handle("Ann")
    return game


def to_round(game: Game, number: int) -> None:
    while game.state.round < number:
        game.handle("next")
        game.handle("yes")


def spoken(reply: Reply) -> list[str]:
    return [part.text for part in reply.parts if part.kind is PartKind.SUSPECT]


def round_of(exhibit: int) -> int:
    return (exhibit - 1) // 4 + 1


def lies_of(suspect: str) -> list[FileEntry]:
    return [entry for entry in case().entries_for(suspect) if entry.kind is EntryKind.LIE]


def break_first_lie(game: Game, suspect: str) -> None:
    """Break the suspect's lie that can break soonest, so their HELD lines open."""
    told = [lie for lie in lies_of(suspect) if lie.after is None]
    lie = min(told, key=lambda entry: min(entry.catch))
    exhibit = min(lie.catch)
    to_round(game, round_of(exhibit))
    game.handle(f"Confront {case().suspect(suspect).aliases[0]} with E{exhibit}")
    assert lie.label in game.state.broken


def expected_entry(row: Row) -> FileEntry:
    entries = case().entries_for(row.suspect)
    if row.topic == DEFLECT:
        return next(entry for entry in entries if entry.kind is EntryKind.DEFLECT)
    on_topic = [entry for entry in entries if entry.topic == row.topic]
    assert on_topic, f"{row.suspect} has no topic {row.topic!r}"
    first = [entry for entry in on_topic if entry.kind is not EntryKind.LIE or entry.after is None]
    assert len(first) == 1, f"{row.suspect}/{row.topic}: expected one line in the FILE from the start"
    return first[0]


# Tune questions the topic rules still answer on another subject (bench/questions.py --misses tune lists
# them): a thing named before the subject asked ("why does the kitchen get a carol"), a person as subject whose
# line loses to a thing-line that names them, and two DEFLECT questions that share a word with a line.
# Strict: one that starts getting its line fails here, so the list only shrinks.
KNOWN_MISSES = frozenset(
    {
        "Mrs Ruddock, why does the kitchen get a carol of its own?",
        "Reverend, what hymn will you choose on Sunday?",
        "Mr Ormerod, what train did you come up on?",
        # a probe of the dead woman seen at a place: the line that has her there (finding her) loses
        "Mrs Ruddock, did you see the mistress in the plate room?",
        # probes of everyday phrasings: neither of his lines names the plate room; a route asked as a place
        "Reverend, what did you see in the plate room?",
        "Joel, how did you get out to the stables?",
        # "account" is his affairs' own word ("I could account for every penny")
        "Mr Ormerod, account for your time between ten and the bell.",
        # a probe of her HELD line: "the stairs" is no cue of hers (the back stair's "which stairs" is)
        "Mrs Ruddock, did you hear anyone on the stairs while they sang?",
        # The third test set's misses at 9049beb, moved to tune on 2026-11-30, that the rules and cues still miss:
        # disputed labels, questions the card's rules do not put to the suspect, and a DEFLECT sharing a word.
        "Ask the butler whether he went below stairs before twenty-five to eleven.",
        "Miss Marsden, the fiddler says you were beside him. Were you there the whole time?",
        "Miss Marsden, name the carols the waits sang tonight.",
        "Miss Marsden, do you sing as well as play?",
        "Reverend, Nance says you came to the kitchen at ten to eleven. What did you want?",
        # The fourth test set's misses at 5412fb8, moved to tune on 2026-12-01, that the rules and cues still miss.
        # Not put to the suspect by the card's rule 4 (the message neither starts with the name nor ends "NAME?" and
        # says you or your): the label assumes a reading the card does not give.
        "Nance heard something fall at the far end of the passage in the sixth verse. Thwaite, did you hear anything?",
        "Bessie Pratt was upstairs making up a room after supper. Mrs. Ruddock, were you with her?",
        "The waits sang facing the house. Joel, what did you see from across the yard?",
        "Who has the keys to the plate room, Mr. Thwaite?",
        "Where does the yard door lead, Mrs. Ruddock?",
        # DEFLECT questions that name what a line speaks of (the grey mare, Leeds): a second referee could take it
        "Joel, what's the grey mare called?",
        "Joel, how far is it to Leeds?",
        # disputed: the tune set puts "did you hear anyone on the stair?" to his line of the senses, as this gets
        "Clergyman, did you see anyone on the back stair?",
        # a place after "to" is not a circumstance ("the waits go round [to the yard door]")
        "Mrs. Ruddock, why did the waits go round to the yard door?",
        # "it" stands for the lead-in's second thing: no rule tells which thing a pronoun means
        "Mr. Keld, your room is by the back stair; did you go down it?",
        # his HELD line is what he saw from the stable door; the question names only the yard, in a setting clause
        "Joel, did you see anyone moving about the house while you were out in the yard?",
        # a lead-in to the suspect names the moment asked about (going down after the bell); read as a setting clause it
        # did, but recaps of where they were ("you said you never left the punch bowl. Did you hear anything?") then
        # went wrong, so that rule was withdrawn; this and three of its probes stay missed
        "Mr. Ormerod, the Reverend went down with you after the bell; what did you see?",
        "Mr Ormerod, you went down to the plate room with the Reverend. What did you see there?",
        "Reverend, you went down after the bell. What did you do?",
        "Ormerod, you were first into the plate room after Thwaite. What did you see?",
        # a probe of the new cues: two things asked, and living here (Cousin Hester) comes before the marriage
        "Miss Marsden, would you live here with Joel once you are married?",
        # probes of everyday questions: a DEFLECT that names what his line speaks of (the horses); a trailing "when the
        # waits went round" clause names the waits after the plain "upstairs"
        "Joel, who looks after the horses?",
        "Reverend, why did you go upstairs when the waits went round?",
        # probes: a route asked as a place (the stables are where he was); a thing she is asked whether she heard, whose
        # only line is its own (the senses rule's last resort gives the plate)
        "Joel, how do you get from the house to the stables?",
        "Miss Marsden, the plate room door banged during the Cherry Tree. Did you hear it?",
        # probes of DEFLECT questions sharing a word with a line (Cambridge, Leeds, the punch); and "near the punch bowl",
        # where the bowl is the plate's ("were you near" as a cue of where each suspect was took too much, dropped)
        "Reverend, were you ever near Cambridge as a boy?",
        "Joel, what were you watching at the theatre in Leeds last month?",
        "Thwaite, is the punch made with rum or brandy?",
        "Reverend, were you anywhere near the punch bowl during the carols?",
        # Tune probes of every FILE line written on 2026-12-01 before their cues were looked at, still missed after
        # the cues and rules they led to:
        # a lead-in's carol and the question's hall are equally specific; "it" gives way to the lead-in only when it is stronger
        "Thwaite, that third carol round the back, did it carry as far as the hall?",
        # DEFLECT questions that name what a line speaks of (Leeds, where the sauce boats went; Cook)
        "Thwaite, what's the weather like in Leeds this time of year?",
        "Mrs Ruddock, what's Cook's Christian name?",
        # no word of the finding: "who told you" and "something had happened" name nothing a line has
        "Mrs Ruddock, who told you something had happened?",
        # disputed: her Ormerod line says he was to have the Red Room, but making it up is where she was (her lie's admit)
        "Mrs Ruddock, why was the Red Room being made up for Mr Ormerod?",
        # a place after "from" or "near" is a circumstance of the thing asked (the stables, going anywhere), as the rulings say
        "Joel, how far are the stables from the yard door?",
        "Did you go anywhere near the yard door, Miss Marsden?",
        # one of the six as the subject of a plain "get" (no cue): "does Joel inherit?" is the will's, "how much does Miss
        # Marsden get?" is not
        "Mr Ormerod, how much does Miss Marsden get?",
        # "seeing to" is his plain "see" of what he heard; a cue that begins with it is a lint warning, so none is added
        "Mr Ormerod, who was seeing to your room?",
        # probes written to break those cues and rules: a time after the question's own "where did you" ("after the bell")
        # is no moment asked; a setting clause's cues give way to a plain "see" in the question, as the rulings say
        "Mr Ormerod, where did you get to after the bell?",
        "Mrs Ruddock, once the bell went, who did you see?",
        # probes asked at length: a place after "from" is a circumstance of "any sound" (her line of the senses); "dead"
        # is finding her's cue before the feeling asked; a lead-in's place outranks the person it names when the
        # question names nothing; "it" stands for the lead-in's second thing
        "Mrs Ruddock, think hard now, was there any sound at all from the end of the corridor while they sang?",
        "Joel, are you upset she's dead, or relieved?",
        "Miss Marsden, you and Joel seemed close at the piano earlier. How close are you, really?",
        "Reverend, your room's right by the back stair, isn't it? Did you use it tonight?",
        # The fifth blind set's misses when it moved to tune (2026-12-01), sorted. Ten cited an exhibit by number: the
        # card's rule 5 makes them confrontations, judged by what the suspect says (ADMIT, or the line of the rest asked
        # after "stands by what was said"); all ten are on subject so. The rest, by what went wrong:
        # disputed labels: the question asks whom the room was for (her Ormerod line) but making it up is her own
        # where-she-was; "where were you when Thwaite rang" is where he was by the ruling on setting clauses about others;
        # "did you serve the solicitor any punch?" is his punch (where he was: ladling it) as much as Mr Ormerod
        "Who were you making the Red Room up for, Mrs. Ruddock?",
        "Where were you when Thwaite rang the bell, Reverend?",
        "Thwaite, did you serve the solicitor any punch?",
        # DEFLECT questions that name what a line speaks of (the piano, the fiddler)
        "Miss Marsden, who taught you to play the piano?",
        "Miss Marsden, what colour was the fiddler's coat?",
        # a place after "to" is not a circumstance ("the waits go round [to the yard door]"; "go down [to the plate room]")
        "Housekeeper, why did the waits go round to the yard door?",
        "Mr. Keld, why did you go down to the plate room with Mr. Ormerod?",
        # a thing's owner after "to": "a key [to the plate room]" is the plate's, but "key" is the back stair's cue
        "Mrs. Ruddock, do you keep a key to the plate room yourself?",
        # the senses rule looks for "heard" in the line's words; her line of the senses ("The singing, and then Mr.
        # Thwaite's bell.") does not say it, so "did you hear the bell" goes to the bell's own line (finding her)
        "Did you hear the bell, Mrs. Ruddock?",
        # the dead woman in a cue's "her" ("know [the mistress]") is earlier than the thing asked ("was dead")
        "When did you first know the mistress was dead, Mrs. Ruddock?",
        # a lead-in to the suspect names the moment asked about (the lead-in rule was withdrawn, as above)
        "Mr. Joel, you were watching the house from the stables. What did you see?",
        # one of the six as the subject of a reported "did X tell you": the subject rule reads only "[wh-word] auxiliary
        # SUBJECT"
        "Miss Marsden, did Mr. Joel tell you he was going to the stables?",
        # one of the six as the object ("leave Miss Marsden anything"): the two-word cue "leave anything" takes no gap
        "Mr. Ormerod, did she leave Miss Marsden anything?",
        # "it" stands for the lead-in's second thing: no rule tells which thing a pronoun means (as above)
        "Mr. Keld, your room is right by the back stair. Did you go down it?",
        # no cue of the line: "out in the snow", "which stair ... come down", "which door ... come in by", "miss her" (the
        # plain "the parish" reaches the will); nor an echo of the line's own words: fewer than two shared, or too common
        # ("door" and "come"; "snow" is no word of his line)
        "Joel, why were you out in the snow at all, and who saw you?",
        "Which stair did you come down by, Reverend?",
        "Reverend, which door did you come in by?",
        "Vicar, will the parish miss her?",
        # DEFLECT questions that a line no cue names echoes in two rare words (rulings: a question no cue names): "I keep
        # the plate and the cellar" (a second referee could take it), "Tonight the snow kept him"
        "Thwaite, what do you keep in the cellar?",
        "Thwaite, is it going to snow again tonight?",
        # The sixth blind set's misses when it moved to tune (2026-12-01, measured at 5f5d499: 287/323 on subject), sorted
        # by what went wrong:
        # a lead-in that is not a question ("between the first carol and the bell," "from across the yard,") outranks a
        # question no cue names ("which room were you in")
        "Question for Abel: between the first carol and the bell, which room were you in?",
        "Joel, from across the yard, what could you see of the house during the Cherry Tree?",
        # a moment asked in other words than "when you": "the moment you saw her"
        "Thwaite, what did you do the moment you saw her lying there?",
        # a person asked "about" after a way of asking about anything: the rule raises only a thing
        "Vicar, did you hear anything about young Joel's money troubles?",
        # "from where you stood": a question word after a preposition is no way of asking
        "Julius, what could you hear from where you stood by the fire?",
        # "it" stands for the lead-in's second thing: no rule tells which thing a pronoun means (as above)
        "Mr. Keld, your room's right by the back stair. Did you go down it during the carols?",
        # a place after "anywhere near" is what is asked, not a circumstance of going anywhere
        "Mr. Ormerod, did you go anywhere near the back stair?",
        # a place after "to" is not a circumstance ("go down [to the plate room]"), as above
        "Why did you go down to the plate room with Mr. Ormerod, Vicar?",
        "How did you come to be at the plate room door after the alarm, Martha?",
        # no cue of the line, and no echo of two of its rare words (an irregular verb: "come" is not "came"; idioms:
        # "catch your eye", "something was wrong", "like her", "remember her", "which door ... nearest",
        # "promise the staff", "go down to see her", "borrowed from a client's money")
        "Between ten and half past, did anything catch your eye, Abel?",
        "Curate, which door did you come into the house by tonight?",
        "Mrs. Ruddock, when did you first know something was wrong?",
        "Well, Martha, I know it's hard to speak of her now, but did you like her?",
        "Vicar, how will the parish remember her?",
        "Joel, which door of the house is nearest the stables across the yard?",
        "Housekeeper, did she promise the staff anything when she was gone?",
        "Miss Marsden, did you go down to see her?",
        "Question for Julius Ormerod: have you ever borrowed from a client's money to cover a loss of your own?",
        # "she" as the subject, put to a woman by title: the game reads it as the suspect ("was you good to ..."), so the
        # rule of "she" as the dead woman does not reach it
        "To Mrs. Ruddock: was she good to the people below stairs?",
        # a person named in passing outranks the thing asked: what was said over supper, what she knows of Joel's going,
        # what Mrs. Blamire wanted with the Reverend (disputable: each names the person the line is about)
        "Miss Marsden, what did your cousin say to the Reverend over supper?",
        "Miss Marsden, did Joel say anything to you before he left the hall?",
        "Julius, why did Mrs. Blamire want to speak to the Reverend after the waits?",
        # DEFLECT questions that name what a line speaks of (the piano, the fiddler, a curate, the Bishop,
        # the train, the snow): a person not of the six, or a thing, asked about for itself
        "Phoebe, how long have you been playing the piano?",
        "Miss Marsden, do you know the fiddler's name?",
        "Ask Miss Marsden: how old is the piano in the hall?",
        "Mrs. Ruddock, how much does a curate earn in a year, do you reckon?",
        "Parson, what's the Bishop's name?",
        "Julius, how long does the train take from town?",
        # a DEFLECT question that her line of the mistress echoes once "kept" is "keep" ("I kept house for the mistress")
        "Mrs. Ruddock, how many maids does the house keep?",
    }
)


def _marked(row: Row) -> object:
    if row.question in KNOWN_MISSES:
        return pytest.param(row, marks=pytest.mark.xfail(strict=True, reason="a known tune miss"))
    return row


@pytest.mark.parametrize("row", [_marked(row) for row in ROWS], ids=str)
def test_a_spoken_question_gets_its_topics_line(row: Row) -> None:
    game = seated()
    entry = expected_entry(row)
    if entry.kind is EntryKind.HELD:
        break_first_lie(game, row.suspect)
    message = game.preview(row.question)
    if message.kind is MessageKind.CONFRONTATION:
        confronted_on_topic(game, row, entry)
        return
    assert message.kind is MessageKind.QUESTION
    assert message.suspect == row.suspect
    assert spoken(game.handle(row.question)) == [entry.words]


def confronted_on_topic(game: Game, row: Row, entry: FileEntry) -> None:
    """A question that cites one exhibit by number is a confrontation (card rule 5), asked once the exhibit is read:
    a lie on the topic asked breaks and its ADMIT (or the lie it gives way to) is said, or the suspect "stands by
    what was said" and the rest is answered as a question, with the topic's line."""
    message = game.preview(row.question)
    assert message.suspect == row.suspect and len(message.exhibits) == 1
    to_round(game, round_of(message.exhibits[0]))
    broken = len(game.state.broken)
    reply = game.handle(row.question)
    system = [part.text for part in reply.parts if part.kind is PartKind.SYSTEM]
    call = case().suspect(row.suspect).call
    if len(game.state.broken) > broken:
        lie = case().lie(game.state.broken[-1])
        assert f"{call} breaks." in system
        assert lie.topic == row.topic, f"broke {lie.label}, a lie on {lie.topic!r}"
        assert spoken(reply) == [lie.admit if lie.admit is not None else case().lie(lie.gives_way_to or "").words]
    else:
        assert f"{call} stands by what was said." in system
        assert spoken(reply) == [entry.words]


def test_every_topic_has_three_differently_worded_questions_and_a_deflect() -> None:
    asked: dict[tuple[str, str], set[str]] = defaultdict(set)
    for row in ROWS:
        asked[(row.suspect, row.topic)].add(row.question.lower())
    for suspect in case().suspects:
        topics = {entry.topic for entry in case().entries_for(suspect.key) if entry.kind is not EntryKind.DEFLECT}
        for topic in topics:
            assert len(asked[(suspect.key, topic)]) >= 3, f"{suspect.key}/{topic}"
        assert asked[(suspect.key, DEFLECT)], f"{suspect.key} has no DEFLECT question"
    known = {(s.key, e.topic) for s in case().suspects for e in case().entries_for(s.key)}
    assert set(asked) <= known, set(asked) - known


def chain_to(label: str) -> list[FileEntry]:
    chain = [case().lie(label)]
    while chain[0].after is not None:
        chain.insert(0, case().lie(chain[0].after))
    return chain


@pytest.mark.parametrize("label", [lie.label for lie in case().lies], ids=str)
def test_every_lie_breaks_in_play_with_each_exhibit_of_its_catch(label: str) -> None:
    *before, lie = chain_to(label)
    suspect = case().suspect(lie.suspect)
    for exhibit in lie.catch:
        game = seated()
        for earlier in before:
            first = min(earlier.catch)
            to_round(game, round_of(first))
            game.handle(f"Confront {suspect.aliases[0]} with E{first}")
        to_round(game, max(game.state.round, round_of(exhibit)))
        asked = game.handle(f"{suspect.aliases[0]}, tell us about the {lie.cues[0]}?")
        assert spoken(asked) == [lie.words], "the lie stands before it is confronted"
        reply = game.handle(f"Confront {suspect.aliases[0]} with E{exhibit}")
        system = [part.text for part in reply.parts if part.kind is PartKind.SYSTEM]
        assert f"{suspect.call} breaks." in system
        after = lie.admit if lie.admit is not None else case().lie(lie.gives_way_to or "").words
        assert spoken(reply) == [after]
        assert game.state.broken[-1] == label


def test_the_case_meets_its_brief() -> None:
    lies = case().lies
    assert len(lies) >= 10
    assert {lie.suspect for lie in lies} == {suspect.key for suspect in case().suspects}
    assert sum(1 for lie in lies if lie.gives_way_to is not None) >= 2
    assert sum(1 for lie in lies if lie.silence is not None) == 1
    held = [entry for entry in case().reveal.entries if entry.kind is EntryKind.HELD]
    assert held
    for suspect in case().suspects:
        topics = {entry.topic for entry in case().entries_for(suspect.key) if entry.kind is not EntryKind.DEFLECT}
        assert len(topics) >= 10, suspect.key


def test_lies_quotes_the_statement_that_told_a_lie_never_asked_for() -> None:
    game = seated()
    to_round(game, 3)
    game.handle("Confront Ormerod with E9")
    statement = next(s.words for s in case().round(2).statements if s.suspect == "ormerod")
    reply = game.handle("lies")
    system = [part.text for part in reply.parts if part.kind is PartKind.SYSTEM]
    assert system == [f'O1, Julius Ormerod: claimed "{statement}"; now "{case().lie("O1").admit}"']
    assert case().lie("O1").words not in system[0], "the lie's own line was never said tonight"
