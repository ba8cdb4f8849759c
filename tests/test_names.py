"""The NAMES matcher: corrects misheard names only where the card expects a name."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from voice_host.understanding.names import NamesMatcher, name_similarity
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.settings import NameThresholds


@dataclass(frozen=True)
class FakeSuspect:
    key: str
    name: str
    aliases: tuple[str, ...]


# The matcher only ever sees a case's suspects; these mirror a case like Hollin Fold.
SUSPECTS = (
    FakeSuspect("thwaite", "Abel Thwaite", ("Thwaite", "Abel", "butler")),
    FakeSuspect("ruddock", "Martha Ruddock", ("Ruddock", "Martha", "housekeeper")),
    FakeSuspect("joel", "Joel Blamire", ("Joel", "nephew", "heir")),
    FakeSuspect("marsden", "Miss Phoebe Marsden", ("Phoebe", "Marsden", "companion")),
    FakeSuspect("keld", "the Reverend Francis Keld", ("Keld", "Francis", "curate", "vicar", "reverend")),
    FakeSuspect("ormerod", "Julius Ormerod", ("Ormerod", "Julius", "man of business", "lawyer")),
)


@pytest.fixture
def matcher() -> NamesMatcher:
    return NamesMatcher(SUSPECTS)


@pytest.mark.parametrize(
    ("heard", "expected"),
    [
        ("weight, where were you at 10?", "Thwaite, where were you at 10?"),
        ("Wait, where were you?", "Thwaite, where were you?"),
        ("Ask killed where he was at 10.", "Ask Keld where he was at 10."),
        ("Confront ormeride with E7", "Confront Ormerod with E7"),
        ("Ask Marston about the letter", "Ask Marsden about the letter"),
        ("Ask able weight where he was", "Ask Abel Thwaite where he was"),
        ("Reverend killed, did you see the waits?", "Reverend Keld, did you see the waits?"),
        ("Ask Joe what he saw", "Ask Joel what he saw"),
        ("We accuse weight: E3, E7", "We accuse Thwaite: E3, E7"),
        ("answers weight", "answers Thwaite"),
        ("To killed: where were you?", "To Keld: where were you?"),
        ("Where were you at 10, weight?", "Where were you at 10, Thwaite?"),
        ("Mrs ruddick, what did you hear?", "Mrs Ruddock, what did you hear?"),
        ("Question for Marston: where were you?", "Question for Marsden: where were you?"),
        ("Killed you were in the hall", "Keld you were in the hall"),
        ("So, called, where were you?", "So, Keld, where were you?"),
        ("Confront Dwight with E3.", "Confront Thwaite with E3."),
        ("Ablethweight, where were you?", "Abel Thwaite, where were you?"),
        ("Able to wait, where were you?", "Abel Thwaite, where were you?"),
        ("Answers or Murad?", "Answers Ormerod?"),
        ("Ask Orma Rod where he was", "Ask Ormerod where he was"),
        ("Ask the vicker, how did you get there?", "Ask the vicar, how did you get there?"),
        ("As cold when did you last see her?", "Ask Keld when did you last see her?"),
        ("in front kelp with E3.", "Confront Keld with E3."),
        ("Confirm Product with E16", "Confront Ruddock with E16"),
        # "Ask" heard as a command or an everyday word, before a name heard exactly and the question.
        ("Pass, Martha Ruddock, who did you pass in the hall?", "Ask Martha Ruddock, who did you pass in the hall?"),
        ("Has Phoebe, what did you hear after supper?", "Ask Phoebe, what did you hear after supper?"),
        # "Question for" with its "for" misheard, before a name or "the" and a role (tune room renders).
        ("Question of ranzis, why was the yard door open?", "Question for Francis, why was the yard door open?"),
        ("Question through the man of business, did you leave?", "Question for the man of business, did you leave?"),
        ("Where were you at 10? Wait.", "Where were you at 10, Thwaite?"),
        ("Confront rhetoric with E7.", "Confront Ruddock with E7."),
        ("With, use Abel Thwaite, E3, E7.", "We accuse Abel Thwaite, E3, E7."),
        ("Reacuse Julius Ormerod, E4, E10.", "We accuse Julius Ormerod, E4, E10."),
        ("Acuse the heir with exhibits E3.", "We accuse the heir with exhibits E3."),  # the verb misspelt, a name after it
        # A role of several words with one word off (tune room renders), at the start or the end.
        ("Men of business, what did you hear?", "Man of business, what did you hear?"),
        ("Where were you at 10, men of business?", "Where were you at 10, man of business?"),
        # A role said as the address, with a question or an exhibit after it.
        ("Vicker, explain E7.", "Vicar, explain E7."),
        ("Lawyers, where were you at ten?", "Lawyer, where were you at ten?"),
        # "NAME's answers" with the possessive run into a misheard name (a tune piper render).
        ("Waits answers, please.", "Thwaite's answers, please."),
        # A title heard as another word before the name (a tune espeak-ng room render: "Reviment Keld").
        ("Reviment Keld, what did you do at 10 o'clock?", "Reverend Keld, what did you do at 10 o'clock?"),
        ("Misser Thwaite, where were you?", "Mr Thwaite, where were you?"),
    ],
)
def test_misheard_names_in_name_slots_are_corrected(matcher: NamesMatcher, heard: str, expected: str) -> None:
    result = matcher.correct(heard)
    assert result.text == expected
    assert result.corrections
    for correction in result.corrections:
        assert correction.kind in (CorrectionKind.NAME, CorrectionKind.COMMAND)
        assert 0.6 <= correction.score <= 1.0
        assert correction.heard in heard and correction.corrected in expected


@pytest.mark.parametrize(
    "text",
    [
        "who killed her?",
        "Who killed her, though?",
        "Right, so what now?",
        "I was able to follow that.",
        "the waits came up the lane at 9",
        "Somebody called the house before supper.",
        "The table was laid for six.",
        "Wait for it, the next round will tell us.",
        "Ask him where he was",
        "Ask the butler where he was",
        "Ask everyone where they were",
        "Thwaite, where were you?",
        "As I said, the butler was there.",
        "Confirm it with the others first.",
        "Question of time, really.",  # no one addressed after a misheard "for"
        "Has Keld been in the library?",  # no comma and question after the name: talk about him
        "Pass, Keld is next.",
        "Question of the butler's story: it doesn't add up.",  # a possessive is talk about them
        "Questions of the day: who has the key?",
        "I was able to see it, sadly.",
        "Who did you see? Nobody.",
        "Who did you see? The butler.",  # a role after the question answers it
        "Where were you? Phoebe Thwaite.",  # two of the six: no one name
        "We use the kitchen at 10.",
        "Confront it with the others first.",
        # The card's labels for an accusation open it; they are never a misheard name (was "Ruddock: Thwaite").
        "Verdict: Thwaite, exhibits E1 and E2.",
        "Accusation: Keld, E3.",
        # A name heard exactly stays as said: possessive, or a full name after other words.
        "Francis Keld's answers, please.",
        "Julius Ormerod's answers, please.",
        "It's Julius Ormerod, exhibits 1, 6, 11 and 14.",
        "What a lot of business, Martha.",  # no "you": not a question to her
        "The kettle is on, Martha.",
        "Here, hold this.",  # a word like a role opening no question
        "The waits answers were odd.",
        "Remind me what the reverend told us.",  # a title after "the" is the role: "told" is no surname
        "Pardon, what was that?",  # asks again: no "Parson"
        "Righto, let's crack on to the next round.",  # an opener: no "Ruddock"
        "Poor Martha, she looked frightened.",  # a word before a name that sounds like no title
        "Remember Keld said he was in the hall.",
    ],
)
def test_ordinary_words_are_never_rewritten(matcher: NamesMatcher, text: str) -> None:
    result = matcher.correct(text)
    assert result.text == text
    assert result.corrections == ()


@pytest.mark.parametrize(
    ("heard", "expected"),
    [
        ("Where were you at 10, man of business.", "Where were you at 10, man of business?"),
        ("What did you hear, Ruddock.", "What did you hear, Ruddock?"),
        ("When did you see her, the butler", "When did you see her, the butler?"),
        ("Walk us through your evening, Joel.", "Walk us through your evening, Joel?"),  # asks for an account
        # The name with its title, or in full, after a question Whisper ended early (a tune room render).
        ("Why was the door open when you came in? Miss Marsden.", "Why was the door open when you came in, Miss Marsden?"),
        ("Where were you? Abel Thwaite.", "Where were you, Abel Thwaite?"),
        ("Where were you at ten, Mrs. Ruddock.", "Where were you at ten, Mrs. Ruddock?"),
    ],
)
def test_a_question_said_aloud_ends_on_the_name_it_is_put_to(matcher: NamesMatcher, heard: str, expected: str) -> None:
    """Whisper's marks are a guess: a question word, "you", and a name last make it "..., NAME?"."""
    assert matcher.correct(heard).text == expected


def test_a_role_heard_as_the_address_is_always_asked_about(matcher: NamesMatcher) -> None:
    """ "Here, you ..." sounds like "Heir, you ...": the repair's weight is low enough to confirm a question."""
    result = matcher.correct("Here, your story has changed.")
    assert result.text == "Heir, your story has changed."
    assert [c.score for c in result.corrections] == [matcher.weights.address_role]


def test_a_statement_ending_on_a_name_stays_a_statement(matcher: NamesMatcher) -> None:
    assert matcher.correct("I think you were there, Martha.").text == "I think you were there, Martha."


def test_seat_names_are_never_corrected(matcher: NamesMatcher) -> None:
    seated = matcher.with_protected(["Kelly"])
    assert seated.correct("Ask Kelly what she thinks").text == "Ask Kelly what she thinks"
    assert seated.correct("Kelly: killed, where were you?").text == "Kelly: Keld, where were you?"
    # Without the seat, Kelly sits in a name slot and is close enough to Keld to be taken for it.
    assert matcher.correct("Ask Kelly what she thinks").text == "Ask Keld what she thinks"


def test_openers_are_not_names(matcher: NamesMatcher) -> None:
    # "right" is a known mishearing of Ormerod, but it is the card's opener.
    assert matcher.correct("Right, where were you?").text == "Right, where were you?"


def test_a_surname_after_a_given_name_matches_only_that_suspect(matcher: NamesMatcher) -> None:
    assert matcher.correct("Martha ruddick, where were you?").text == "Martha Ruddock, where were you?"
    # "marston" after Julius is not Julius's surname; left alone (the message names Julius already).
    assert matcher.correct("Julius said marston was there").text == "Julius said marston was there"


def test_names_come_from_the_case_not_the_code() -> None:
    other = NamesMatcher([FakeSuspect("pip", "Pip Larkin", ("Larkin", "Pip", "ferryman"))])
    assert other.correct("Ask larkins where he was").text == "Ask Larkin where he was"
    assert other.correct("weight, where were you?").text == "weight, where were you?"


def test_suspects_named_by_any_alias_in_order(matcher: NamesMatcher) -> None:
    assert matcher.suspects_named("Ask the man of business whether Abel saw the vicar") == (
        "ormerod",
        "thwaite",
        "keld",
    )
    assert matcher.suspects_named("who killed her") == ()


def test_the_first_mention_of_a_suspect_is_where_any_alias_first_names_them(matcher: NamesMatcher) -> None:
    said = "Ask Abel Thwaite, when did you last see Mrs. Blamire?"
    assert matcher.first_mention(said, "thwaite") == (4, 8)  # "Abel", before "Thwaite"
    assert matcher.first_mention(said, "joel") == (said.index("Blamire"), len(said) - 1)
    assert matcher.first_mention(said, "keld") is None
    assert matcher.first_mention("the butlers", "thwaite") is None  # whole words only


def test_similarity_hears_sound_as_well_as_spelling() -> None:
    assert name_similarity("killed", "Keld") > name_similarity("told", "Keld")
    assert name_similarity("ormeride", "Ormerod") > 0.9
    assert name_similarity("the", "Thwaite") < 0.64


@pytest.mark.parametrize(
    "said", ["Lauren, can you do the typing?", "Jess, it's your go after mine.", "So, Lauren, pass the gravy."]
)
def test_a_common_given_name_said_first_calls_someone_at_the_table(matcher: NamesMatcher, said: str) -> None:
    corrected = matcher.correct(said)
    assert corrected.text == said and not corrected.corrections


@pytest.mark.parametrize(
    ("said", "meant"),
    [("Dwight, where were you?", "Thwaite, where were you?"), ("Mabel, where were you?", "Abel, where were you?")],
)
def test_a_given_name_that_sounds_like_a_suspects_is_still_corrected(matcher: NamesMatcher, said: str, meant: str) -> None:
    assert matcher.correct(said).text == meant


def test_a_given_name_in_another_name_slot_is_still_compared(matcher: NamesMatcher) -> None:
    # Only the opening vocative calls someone at the table; "Ask X" names one of the six (and is confirmed).
    assert matcher.correct("Ask Lauren where she was").text == "Ask Marsden where she was"
    without = NamesMatcher(SUSPECTS, thresholds=NameThresholds(given_names=0))
    assert without.correct("Lauren, any tea?").text == "Marsden, any tea?"
