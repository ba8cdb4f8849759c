"""The card's MESSAGES rules, in order, first match wins: what a message is and what it asks for.

`Classifier.classify` is pure: it reads the table's situation (`Situation`) and returns a `Decision`;
the Game applies it. Typed and spoken input both come through here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum, auto

from engine.case import ORDINAL_WORDS, Case, RulePassage
from engine.exhibits import NUMBER_WORD, NUMERAL, cited_exhibits, distinct, numeral_value, numerals
from engine.grammar import IntentKind, IntentMatch, RequestMatch, StateQuestion, grammar, phrases
from engine.messages import COMMAND_WORDS, Command, Message, MessageKind
from engine.names import NameIndex
from engine.request_votes import voted_command
from engine.rules import EXHIBITS, MAX_COUNTED_EXHIBITS, QUESTIONS_PER_ROUND
from engine.save import SaveBlock, looks_like_save, parse_save
from engine.state import Accusation, Phase
from engine.text import after_words, clean, drop_openers, find_phrase, strip_markdown, words


class Action(Enum):
    SEAT = auto()  # names given at rd 0
    ASK_SEATS = auto()  # rd 0 and not names: ask again
    SEATING_HELP = auto()  # "help" at "Who is at the table?"
    RESUME = auto()  # a SAVE block as the first message
    BAD_SAVE = auto()  # a SAVE block for another game or rules
    SAVE_IGNORED = auto()  # a SAVE pasted mid-game
    COMMAND = auto()
    CONFIRM = auto()  # yes to a pending question (end round, give up)
    DECLINE = auto()  # no to it
    SEALED = auto()  # rule 8 request
    NOTHING_SEARCHED = auto()
    RULES = auto()
    STATE = auto()  # a question about the state, answered from it
    WHO_IS = auto()  # who one of the six is
    LATECOMER = auto()
    TABLE_TALK = auto()
    ONLY_SUSPECTS = auto()  # "Only the six can be questioned."
    REDIRECT = auto()
    ONE_AT_A_TIME = auto()
    WHAT_DO_YOU_ASK = auto()
    ONE_EXHIBIT = auto()
    WHICH_EXHIBIT = auto()
    NOT_YET = auto()  # cited exhibit not read yet
    NO_SUCH_EXHIBIT = auto()
    CONFRONT = auto()
    QUESTION = auto()
    ACCUSE_TOO_EARLY = auto()
    QUESTIONS_DONE = auto()
    ACCUSE = auto()
    WHICH_ONE = auto()
    LOCK = auto()
    NOT_LOCKED = auto()
    NIGHT_OVER = auto()


# First words that make a message something other than a list of names.
_NOT_NAMES = COMMAND_WORDS | {"we", "stop", "quit"}
# Words no seat name holds anywhere: a command or a sentence at "Who is at the table?" is asked again.
_NOT_IN_NAMES = frozenset(
    "help nobody noone none everyone everybody anyone anybody someone somebody all the a an of to for is are "
    "print show tell reveal solution answer answers hint clue rules start begin play quit exit stop cancel "
    "please thanks thank hello hi hey".split()
)
_SEATING_HELP = re.compile(r"^(?:help|help me|\?+|what do i (?:say|type|do)|how does this work)\W*$", re.IGNORECASE)


class Pending(Enum):
    END_ROUND = "end round"
    GIVE_UP = "give up"


@dataclass(frozen=True)
class Situation:
    """What the classifier needs to know of the game."""

    phase: Phase
    round: int
    seats: tuple[str, ...]
    solo: bool
    exhibits_read: frozenset[int]
    accusation: Accusation
    read_back: tuple[str, tuple[int, ...]] | None
    pending: Pending | None
    first_message: bool
    awaiting_nickname: bool
    questions_used: int = 0


@dataclass(frozen=True)
class Decision:
    action: Action
    message: Message
    suspect: str | None = None
    exhibit: int | None = None
    exhibits: tuple[int, ...] = ()
    rest: str = ""  # a question's words once the address is taken off
    passage: RulePassage | None = None
    names: tuple[str, ...] = ()
    save: SaveBlock | None = None
    command_round: int | None = None  # `statements round 2`
    state_question: StateQuestion | None = None


# --- fixed vocabularies of the card --------------------------------------------------------------

# MESSAGES rule 4's words that put a message to the name after them ("Ask NAME", "Question for NAME",
# "To NAME"); "Confront NAME" and "@NAME" put it too. The voice host's addressee pass reads the same words.
ADDRESS_WORDS = ("ask", "question for", "questions for", "to")
QUESTION_WORDS = frozenset(
    "who what where when why how did were was is do does have has had can could would will are which whose "
    "tell describe explain whether".split()
)
# The card's commands in other words come from the phrase grammar (engine/phrases.toml), which
# rewrites them to the card's own message; the patterns below read only the card's own forms.
_ENGINE_INTENTS = frozenset({IntentKind.COMMAND, IntentKind.STATE, IntentKind.RULES, IntentKind.WHO})


def _alternation(phrases_: tuple[str, ...]) -> str:
    return "|".join(r"\s+".join(re.escape(word) for word in phrase.split()) for phrase in phrases_)


# A reply that agrees ("yes, lock it", "correct: Thwaite") starts with one of the grammar's yes phrases.
_AGREE = re.compile(rf"^(?:{_alternation(phrases('yes'))})(?=\W|$)", re.IGNORECASE)
_NO = re.compile(rf"^(?:{_alternation(phrases('no'))})(?=\W|$)", re.IGNORECASE)
_READ_VERB = r"^(?:re-?read|read(?: out)?|read (?:us|me))\s+(?:again\s+)?"
_READ = re.compile(
    _READ_VERB + r"(?:(?:exhibit|number)\s+|e\s?-?\s?|#)?(\d{1,3})(?:\s+again)?$",
    re.IGNORECASE,
)
# Several exhibits read in one message ("read E3 and E4", "read exhibits 3, 4 and 7"): each in turn.
_READ_LIST = re.compile(
    _READ_VERB + r"(?:exhibits?\s+)?"
    rf"((?:(?:E\s?-?\s?|#)?{NUMERAL}\s*(?:,\s*(?:and\s+)?|and\s+|&\s*))+(?:E\s?-?\s?|#)?{NUMERAL})(?:\s+again)?$",
    re.IGNORECASE,
)
_STATEMENTS = re.compile(r"^(?:the\s+)?statements(?:\s+(?:for\s+|from\s+|of\s+|in\s+)?(?:round\s+)?(\d{1,2}))?$", re.IGNORECASE)
_ANSWERS = re.compile(r"^answers\s+(?:from\s+|of\s+|for\s+|by\s+)?(.+)$", re.IGNORECASE)
_BARE_NUMBER = re.compile(r"(?<![\w:.])(\d{1,2})(?![\w:])")  # "number 4", not "10:30" or "4th"
# A number word is only a number after "number" ("clue number eleven"): bare, "one" and "two" are everyday words.
_NUMBER_WORD = re.compile(rf"\bnumber\s+({NUMBER_WORD})(?![\w:])", re.IGNORECASE)
# An exhibit by its place ("the 7th exhibit", "the third clue"): the voice host writes "seventh" as "7th".
_ORDINAL_EXHIBIT = re.compile(
    r"\b(?:(\d{1,2})(?:st|nd|rd|th)|(" + "|".join(ORDINAL_WORDS) + r"))\s+(?:exhibit|clue|piece of evidence)\b", re.IGNORECASE
)
_SIMPLE = {c.value: c for c in (Command.LIES, Command.PASS, Command.NEXT, Command.SAVE, Command.GIVE_UP)}
_ANSWER = {c.value: c for c in (Command.YES, Command.NO)}

# A question about how a rule works, never a request that the Host do it.
_HOW_QUESTION = re.compile(
    r"^\W*(?:how|why|when|what (?:does|do|happens|if|is|are)|is it|are we allowed|are you allowed)\b", re.IGNORECASE
)
# What a request takes before rule 8's seal (the grammar's intents): the free commands that read out what the
# table has already heard or done, and give up, which asks first ("tell us who did it": the answer now).
_PUBLIC = frozenset({"lies", "read", "statements", "statements of a round", "answers", "give up"})
# Besides rule 8's list, words that ask whether the table is right rather than for the answer.
# "if" as courtesy ("if you don't mind", "I wonder if we could") checks nothing.
_CHECKING = re.compile(
    r"\b(?:whether|if(?! (?:you (?:don't|do not|wouldn't|would not) mind|that's|that is|possible|"
    r"you (?:could|can|would|might|please)|we (?:could|can|might|may)))|"
    r"close|closer|right|correct|wrong|warm|warmer|near|nearly|almost)\b",
    re.IGNORECASE,
)

# A clue with its number is an exhibit ("clue number 7", "that clue, E4"), never a hint.
_CLUE = re.compile(r"\bclues?\b", re.IGNORECASE)
_READS_PUBLIC = frozenset({"lies", "read", "statements", "answers"})  # the free commands that read out what is public
# The lies as the broken lies' own list names them ("any lies busted yet"), never the ones still standing.
_LIES_READ = re.compile(
    r"\b(?:(?:the|their|his|her|any|all) lies\b(?!\s+(?:are |is )?(?:still )?(?:standing|unbroken|left))|"
    r"which lies (?=(?:we|we've|we have|have we|did we|you've|you have)\b))",
    re.IGNORECASE,
)
# One suspect's answers ("the answers that Phoebe has given"), never the answer.
_ANSWERS_READ = re.compile(r"\b(?:the|their|his|her|all) answers\b", re.IGNORECASE)
_RECAP = re.compile(r"\b(?:recap|summar(?:y|ise|ize)|sum up)\b", re.IGNORECASE)
_SEALED = re.compile(
    r"\b(?:the (?:answer|solution|culprit)|who (?:did it|done it|is (?:the )?(?:killer|"
    r"murderer|guilty|culprit)|"
    r"murdered)|who'?s (?:the )?(?:killer|murderer|guilty|lying)|who(?:'s| is) (?:lying|telling lies)|who lied|"
    r"which (?:of them |one |suspects? )?(?:lied|is lying|are lying)|telling lies|"
    r"(?:the|their|his|her|any|all|which) lies|lies (?:are |is )?(?:still )?(?:standing|unbroken|left)|"
    r"(?:a |any |some |another )?hints?|clues?|nudge|"
    r"summar(?:y|ise|ize)|recap|sum (?:it |this )?up|"
    r"time ?line|chronolog|check (?:our|my|this|a|the) theory|our theory|my theory|are we (?:right|close|correct|on the right)|"
    r"am i (?:right|close|correct)|is (?:it|that) (?:right|correct)|were we right|(?:the|his|her|their|a|\w+'s) files?\b)",
    re.IGNORECASE,
)
# To search, examine or be shown anything (rule 2); going to a round is no place ("Let us go to the new round now.").
_SEARCH = re.compile(
    r"^(?:(?:can|could|may) (?:i|we)\s+|let (?:me|us)\s+|let's\s+|(?:we|i) (?:want to|"
    r"would like to|'d like to|wanna)\s+|please\s+)?"
    r"(?:search|examine|inspect|look (?:at|in|into|under|around|through|for)|check|see|show (?:me|us)|go (?:to|into|up|down|in)\b"
    r"(?! (?:the )?(?:(?:next|new|following|last|final) )?round\b)|"
    r"open|feel|smell|touch|fingerprint|test|dust|have a look|take a look|pat)\b",
    re.IGNORECASE,
)
_SEARCH_ANYWHERE = re.compile(r"\b(?:search|examine|inspect)\b", re.IGNORECASE)
_RULES_HINT = re.compile(r"\?|^(?:how|what|can|when|do|does|is|are|where|explain|rules?|remind)\b", re.IGNORECASE)
# How an accusation opens (THE ACCUSATION rule 1's labels and filler); the voice host reads an
# exhibit list after it leniently.
ACCUSE_FORM = re.compile(
    r"^(?:(?:we|i)\s+(?:accuse|think it was|think it's|say it was|believe it was|name)|accus(?:e|ation)\b|verdict\b|"
    r"final answer\b|the (?:killer|murderer|culprit)(?: is| was|'s)\b|it was\b|it's\b)",
    re.IGNORECASE,
)
_DID_IT = re.compile(r"\b(?:did it|is the (?:killer|murderer|culprit))\b", re.IGNORECASE)
# Evidence offered by description: "the carol book says you...". Another suspect's words are not evidence.
_DESCRIBED = re.compile(
    r"\b(?:the|this|that|his|her|their|your)\s+(?P<what>[\w'’ -]{1,40}?)\s+"
    r"(?:says|shows|proves|places|puts|put)\s+(?:that\s+)?you\b",
    re.IGNORECASE,
)
_EVERYONE = re.compile(
    r"(?:everyone|everybody|all of you|you all|both of you|both|each of you|anyone|anybody|all)\b", re.IGNORECASE
)
_GROUP_JOIN = re.compile(r"\s*(?:,|&|\band\b|\bor\b)\s*", re.IGNORECASE)
_ADDRESS_OPEN = re.compile(r"^(?:(?:" + "|".join((*ADDRESS_WORDS, "confront")) + r")(?=\W|$)|@)\s*", re.IGNORECASE)
# A name at the start followed straight by a question word is spoken to, as with a comma: a name there
# cannot be the sentence's subject ("Thwaite where were you"; "Thwaite was at the punch" stays talk).
_UNMARKED_VOCATIVE = re.compile(r"\s+(?=(?:who|what|where|when|why|how|which|whose)\b)(?!what\s+an?\b)", re.IGNORECASE)
_SOLO = re.compile(r"^(?:just|only)?\s*(?:me|myself|one|1|solo)(?: alone| here| playing)?$", re.IGNORECASE)
_LATE = re.compile(
    r"^(?:add|seat)\s+(?P<a>[^\W\d_][\w'’.-]*(?: [^\W\d_][\w'’.-]*)?)$|"
    r"^(?P<b>[^\W\d_][\w'’.-]*(?: [^\W\d_][\w'’.-]*)?)\s+(?:joins|is joining|has joined|"
    r"wants to (?:join|play)|is here|has arrived)"
    r"(?: us| the (?:game|table))?$",
    re.IGNORECASE,
)
_CLOSING = re.compile(r"[\s,.;:-]*(?:are we right|is that it|is that right|right)\s*\?\s*$", re.IGNORECASE)


def _bare_numbers(text: str) -> list[int]:
    """The numbers said with no citation word ("number 4 again", "clue number eleven"), in order."""
    found = [(match.start(1), int(match.group(1))) for match in _BARE_NUMBER.finditer(text)]
    found += [(match.start(1), numeral_value(match.group(1))) for match in _NUMBER_WORD.finditer(text)]
    return [number for _, number in sorted(found)]


def _ordinal_exhibits(text: str) -> list[int]:
    """The exhibits named by their place ("the 7th exhibit", "the third clue"), in order."""
    return [
        int(match.group(1)) if match.group(1) else ORDINAL_WORDS.index(match.group(2).lower()) + 1
        for match in _ORDINAL_EXHIBIT.finditer(text)
    ]


@dataclass(frozen=True)
class Targets:
    """The people a message's opening names: suspects, everyone, a redirect word, someone else, a seat."""

    suspects: tuple[str, ...] = ()
    everyone: bool = False
    redirect: str | None = None
    other: bool = False
    seat: bool = False


@dataclass(frozen=True)
class Address(Targets):
    """Who a message is put to, by the card's rule 4 forms."""

    rest: str = ""
    confront: bool = False  # started "Confront ..."
    ask_form: bool = False  # started "Ask ..."/"Question for ..."/"To ..."


class Classifier:
    def __init__(self, case: Case) -> None:
        self.case = case
        names = case.derived.get("names")
        if not isinstance(names, NameIndex):
            names = case.derived["names"] = NameIndex(case.public)
        self.names = names
        # The case's own words: the victim's pronoun and names ("who killed her", "Thwaite killed her") and the
        # suspects' number ("the six", "all six").
        victim = names.victim_pattern
        self._who_killed_victim = re.compile(rf"\bwho killed (?:{victim})(?!\w)", re.IGNORECASE)
        self._did_it_to_victim = re.compile(rf"\b(?:killed|murdered|struck) (?:{victim})(?!\w)", re.IGNORECASE)
        number = re.escape(case.public.number_word)
        self._all_suspects = re.compile(rf"(?:all {number}(?: of you)?|the {number})\b", re.IGNORECASE)

    # -- entry point --------------------------------------------------------------------------

    def classify(self, raw: str, situation: Situation) -> Decision:
        text = clean(raw)
        if looks_like_save(raw):
            return self._save(raw, situation)
        if situation.phase is Phase.OVER:
            return self._over(text)
        stripped = self.asked(self.prestrip(text, situation.seats), situation.seats)
        # Seating reads a list of names ("N, Zed"): its clauses are names, never a command around them.
        said = self.phrasing(stripped, clauses=situation.phase is not Phase.SEATING)
        # A card command in other words is that command: the card's own message from here on.
        card = said.card_message if said is not None and said.intent.kind is IntentKind.COMMAND else None
        if situation.phase is Phase.SEATING:
            return self._seating(card or stripped, said, situation)
        if situation.pending is not None:
            if card == "yes" or (situation.pending is Pending.END_ROUND and card == "next"):
                return Decision(Action.CONFIRM, self._msg(MessageKind.COMMAND, stripped, command=Command.YES, costly=True))
            if card == "no":
                return Decision(Action.DECLINE, self._msg(MessageKind.COMMAND, stripped, command=Command.NO))
        if situation.accusation is Accusation.READ and situation.read_back is not None:
            return self._after_read_back(stripped, situation, agrees=card == "yes")
        if said is not None and card is None:
            return self._answer_from_card(said, stripped, situation)
        return self._rules(card or stripped, situation)

    def phrasing(self, text: str, clauses: bool = True) -> IntentMatch | None:
        """What the phrase grammar makes of a whole message: a card command in other words, or a question
        about the state, the rules or one of the six; None when it is none of these (or names no one).
        A command said with courtesy or a reason around it ("I'll pass, thanks") is that command
        (the grammar's [clauses]), when nothing else in the message names one of the six."""
        said = next((m for m in grammar().matches(text, _ENGINE_INTENTS) if self._phrasing_holds(m)), None)
        if said is not None or not clauses:
            return said
        return grammar().in_clauses(
            text,
            _ENGINE_INTENTS,
            accept=self._phrasing_holds,
            neutral=lambda clause: not self.names.mentions(clause) and not self.names.redirects(clause),
        )

    def _phrasing_holds(self, said: IntentMatch) -> bool:
        """Whether a template's match means what it says here (its slots name what they must)."""
        kind, name = said.intent.kind, said.slots.get("name")
        if name is not None and kind is IntentKind.COMMAND and not (self.names.mentions(name) or self.names.redirects(name)):
            return False  # "what did the waits say" asks for no one's answers
        if kind is IntentKind.WHO and self._only_suspect(name or "") is None:
            return False  # "who is the killer" is not a who-is question
        return not (kind is IntentKind.RULES and self._passage(said.intent.passage) is None)

    def _only_suspect(self, text: str) -> str | None:
        """The one suspect `text` is wholly the name of ("the butler", "Mr. Julius Ormerod"), or None."""
        mentions = self.names.mentions(text)
        if len({m.suspect for m in mentions}) != 1:
            return None
        rest = text
        for mention in reversed(mentions):
            rest = rest[: mention.start] + " " + rest[mention.end :]
        rest = re.sub(self.names.title_pattern, " ", rest + " ", flags=re.IGNORECASE)
        return mentions[0].suspect if not words(rest) else None

    def _passage(self, key: str) -> RulePassage | None:
        return next((p for p in self.case.public.rules_passages if p.key == key), None)

    def _answer_from_card(self, said: IntentMatch, text: str, s: Situation) -> Decision:
        """A question about the state, the rules or who one of the six is: free, from the state or HOW TO PLAY."""
        message = self._msg(MessageKind.OTHER, text)
        kind = said.intent.kind
        if kind is IntentKind.STATE:
            return Decision(Action.STATE, message, state_question=said.intent.state)
        if kind is IntentKind.WHO:
            suspect = self._only_suspect(said.slots.get("name", ""))
            return Decision(Action.WHO_IS, message, suspect=suspect)
        return Decision(Action.RULES, message, passage=self._passage(said.intent.passage))

    @staticmethod
    def prestrip(text: str, seats: tuple[str, ...]) -> str:
        """Drop markdown, a leading seat name with ':' or 'asks', and openers (ok, so, right, well...)."""
        text = strip_markdown(text)
        for seat in sorted(seats, key=len, reverse=True):
            if seat == "you":
                continue
            match = re.match(rf"^{re.escape(seat)}\s*(?::|\basks\b)\s*", text, re.IGNORECASE)
            if match:
                asks = "asks" in match.group().lower()
                text = text[match.end() :]
                if asks and not re.match(r"(?:ask|confront|to|question for)\b", text, re.IGNORECASE):
                    text = f"Ask {text}"
                break
        return drop_openers(text).strip()

    def asked(self, text: str, seats: tuple[str, ...]) -> str:
        """Other words for "Ask" that open a message and are followed by one of the six (or all of them)
        ("Could you ask Thwaite where...", "Question to Mrs Ruddock, ...") as the card's "Ask NAME ...";
        any other message as it is ("let's ask the cook" stays table talk)."""
        count = grammar().asking_words(text)
        if not count:
            return text
        asked = f"Ask {after_words(text, count)}"
        address = self.address(asked, seats)
        return asked if address is not None and (address.suspects or address.everyone) else text

    # -- the card's MESSAGES rules ------------------------------------------------------------

    def _rules(self, text: str, s: Situation) -> Decision:
        bare = text.rstrip(" .!").strip()
        if not bare:
            return Decision(Action.TABLE_TALK, self._msg(MessageKind.TABLE_TALK, text))
        command = self._command(bare, s)  # rule 1
        if command is not None:
            return command
        late = _LATE.match(bare)
        if late and s.phase is Phase.ROUNDS:
            name = (late.group("a") or late.group("b")).strip()
            if (
                not self.names.mentions(name)
                and not self.names.redirects(name)
                and name.lower() not in ("he", "she", "who", "it")
            ):
                return Decision(Action.LATECOMER, self._msg(MessageKind.OTHER, text), names=(name,))
        address = self.address(text, s.seats)
        if s.phase is Phase.ACCUSATION and not (address is not None and address.seat and not address.suspects):
            accusation = self._accusation(text)  # THE ACCUSATION decides in round A
            if accusation is not None:
                return accusation
        request = self._host_request(text, address)  # rule 2
        if request is not None:
            return request
        if address is not None and address.seat and not address.suspects:  # rule 3
            return Decision(Action.TABLE_TALK, self._msg(MessageKind.TABLE_TALK, text))
        if address is not None and address.other and not address.suspects:
            return Decision(Action.ONLY_SUSPECTS, self._msg(MessageKind.OTHER, text))
        if address is not None:
            put = self._put_to(text, address, s)  # rules 4-6
            if put is not None:
                return put
        if s.phase is Phase.ROUNDS and self._is_accusation_form(text):  # rule 7
            named = self.names.suspects_named(text)
            return Decision(
                Action.ACCUSE_TOO_EARLY,
                self._msg(
                    MessageKind.ACCUSATION,
                    text,
                    suspect=named[0] if len(named) == 1 else None,
                    exhibits=tuple(distinct(cited_exhibits(text))),
                ),
            )
        requested = self.requested(text)  # a free command asked for in words no template lists
        if requested is not None:
            return self._rules(requested, s)
        voted = self.voted(text)  # ... or in words no request lists, that tables said for it before
        if voted is not None and voted != bare.lower():
            return self._rules(voted, s)
        return Decision(Action.TABLE_TALK, self._msg(MessageKind.TABLE_TALK, text))  # rule 8

    def voted(self, text: str) -> str | None:
        """The card's message for the free command the examples' words vote for (engine.request_votes), or None.
        `answers` takes the one suspect named, `read` the one exhibit cited (or the one number said: "number 4
        again"); any other command names none of the six, or the table is talking about them."""
        vote = voted_command(text, self.names)
        if vote is None or vote.command == "repeat":  # the voice host's own request, never the card's
            return None
        mentions = self.names.mentions(text)
        if vote.command == "answers":
            one = len({m.suspect for m in mentions}) == 1
            return f"answers {text[mentions[0].start : mentions[0].end]}" if one else None
        if mentions or self.names.redirects(text):
            return None
        if vote.command == "read":
            citations = distinct(cited_exhibits(text))
            if len(citations) > 1:  # several cited as exhibits ("exhibits 3 and 4"): each read in turn
                return "read " + " and ".join(f"E{n}" for n in citations)
            cited = citations or distinct(_ordinal_exhibits(text)) or distinct(_bare_numbers(text))
            return f"read E{cited[0]}" if len(cited) == 1 and 1 <= cited[0] <= EXHIBITS else None
        return vote.command

    def _asks_for_public(self, text: str) -> bool:
        """A request for what is already public, in words rule 8's list also holds ("remind us of the lies
        we've uncovered", "recap the statements"), or to hear the answer now ("can you just tell us who did
        it?": give up, which asks first): the free command, not the seal."""
        request = self._request(text)
        if not request:
            return self._voted_public(text)
        if request[0].said.intent.name not in _PUBLIC:
            return False
        # Only the object is rule 8's: "can you give us a hint about who did it" still asks for a hint.
        rest = " " + " ".join(words(text)) + " "
        for match in request:
            rest = rest.replace(f" {match.object_words} ", " ")
        if request[0].said.intent.name == "give up":
            # "tell us whether we're close to the answer" checks a theory: sealed, not the answer now.
            return not (_SEALED.search(rest) or self._who_killed_victim.search(rest) or _CHECKING.search(rest))
        if request[0].said.intent.name == "read":
            rest = _CLUE.sub(" ", rest)  # the exhibit read is said with its number: a clue, not a hint
        # A recap of what is public is the free command ("recap the lies we've exposed").
        return not _SEALED.search(_RECAP.sub(" ", rest))

    def _voted_public(self, text: str) -> bool:
        """A message the request votes take for a read of what is public (the lies broken, the statements, an
        exhibit, answers) whose only words on rule 8's list name what it reads ("Any lies busted yet, mate?"):
        the free command. Never give up: its words are the seal's own, and a hint stays sealed."""
        voted = self.voted(text)
        if voted is None or voted.split()[0] not in _READS_PUBLIC:
            return False
        rest = _LIES_READ.sub(" ", _RECAP.sub(" ", text))
        if voted.startswith("read "):
            rest = _CLUE.sub(" ", rest)  # the exhibit read is said with its number: a clue, not a hint
        if voted.startswith("answers "):
            rest = _ANSWERS_READ.sub(" ", rest)
        return not (_SEALED.search(rest) or self._who_killed_victim.search(rest))

    def _asks_for_command(self, text: str) -> bool:
        """A request that the Host do a free command ("Could you open the next round for us now?"), not a
        question about how the rule works ("how do we get to the next round?"), though its words name a rule."""
        return not _HOW_QUESTION.match(text) and self.requested(text) is not None

    def requested(self, text: str) -> str | None:
        """The card's message for a request the grammar's [requests] recognise ("Can you read out exhibit 7
        for us?" is "read E7"), or None. One of the six named outside the request's own object means the
        table is talking about them, not asking the Host."""
        request = self._request(text)
        return request[0].said.card_message if request else None

    def _request(self, text: str) -> tuple[RequestMatch, ...]:
        """The objects of the one command a request asks for (the grammar's [requests]), or ()."""
        named = set(self.names.suspects_named(text))

        def accept(match: RequestMatch) -> bool:
            name = match.said.slots.get("name")
            if name is not None and not (self.names.mentions(name) or self.names.redirects(name)):
                return False  # "what did the waits say" asks for no one's answers
            return not named - set(self.names.suspects_named(match.object_words))

        return grammar().request(text, accept)

    def _command(self, bare: str, s: Situation) -> Decision | None:
        """Rule 1 on the card's own forms (the grammar has already turned other words into them)."""
        lowered = " ".join(bare.lower().split())
        simple = _SIMPLE.get(lowered)
        if simple is Command.GIVE_UP:
            return Decision(Action.COMMAND, self._msg(MessageKind.COMMAND, bare, command=Command.GIVE_UP))
        if simple is not None:
            if simple is Command.PASS and s.solo:
                return None  # "just me": pass is dropped
            # next with questions left only asks "End round?"; with none left it opens the next round
            costly = simple is Command.NEXT and s.phase is Phase.ROUNDS and s.questions_used >= QUESTIONS_PER_ROUND
            return Decision(Action.COMMAND, self._msg(MessageKind.COMMAND, bare, command=simple, costly=costly))
        read = _READ.match(bare)
        if read:
            return self._read(bare, (int(read.group(1)),), s)
        read_list = _READ_LIST.match(bare)
        if read_list:
            return self._read(bare, tuple(distinct(numerals(read_list.group(1)))), s)
        statements = _STATEMENTS.match(bare)
        if statements:
            round_number = int(statements.group(1)) if statements.group(1) else None
            return Decision(
                Action.COMMAND, self._msg(MessageKind.COMMAND, bare, command=Command.STATEMENTS), command_round=round_number
            )
        answers = _ANSWERS.match(bare)
        if answers:
            who = answers.group(1)
            named = self.names.suspects_named(who)
            redirects = self.names.redirects(who)
            suspect = named[0] if len(named) == 1 else (redirects[0][1] if redirects and not named else None)
            message = self._msg(MessageKind.COMMAND, bare, command=Command.ANSWERS, suspect=suspect)
            if not named and redirects:
                return Decision(Action.REDIRECT, message, suspect=redirects[0][1])
            return Decision(Action.COMMAND, message, suspect=suspect)
        answer = _ANSWER.get(lowered)
        if answer is not None:  # yes or no with nothing waiting for one
            return Decision(Action.TABLE_TALK, self._msg(MessageKind.COMMAND, bare, command=answer))
        return None

    def _read(self, bare: str, numbers: tuple[int, ...], s: Situation) -> Decision:
        """Read E{n}; several numbers ("read E3 and E4") are each read, refused or told to wait in turn (the game)."""
        message = self._msg(MessageKind.COMMAND, bare, command=Command.READ, exhibits=numbers)
        if len(numbers) == 1:
            return self._exhibit_check(Decision(Action.COMMAND, message, exhibit=numbers[0]), numbers[0], s)
        return Decision(Action.COMMAND, message)

    def _exhibit_check(self, decision: Decision, number: int, s: Situation) -> Decision:
        free = replace(decision.message, costly=False)  # refused exhibits cost nothing
        if not 1 <= number <= EXHIBITS:
            return Decision(Action.NO_SUCH_EXHIBIT, free, exhibit=number)
        if number not in s.exhibits_read:
            return Decision(Action.NOT_YET, free, exhibit=number)
        return decision

    def _host_request(self, text: str, address: Address | None) -> Decision | None:
        if address is None or not (address.suspects or address.redirect or address.everyone):
            sealed = _SEALED.search(text) or self._who_killed_victim.search(text)
            if sealed and not self._asks_for_public(text):
                return Decision(Action.SEALED, self._msg(MessageKind.OTHER, text))
            if _SEARCH.match(text) or _SEARCH_ANYWHERE.search(text):
                return Decision(Action.NOTHING_SEARCHED, self._msg(MessageKind.OTHER, text))
            passage = self._rules_passage(text)
            if passage is not None and not self._asks_for_command(text):
                return Decision(Action.RULES, self._msg(MessageKind.OTHER, text), passage=passage)
            return None
        rest = address.rest.strip(" ,:;-–—")
        # An order to the suspect ("did you search..." stays a question); one to look at an exhibit cited
        # by number ("Joel, look at exhibit 6.") shows them the evidence: a confrontation (rule 5).
        if _SEARCH.match(rest) and not cited_exhibits(rest):
            return Decision(Action.NOTHING_SEARCHED, self._msg(MessageKind.OTHER, text))
        return None

    def _rules_passage(self, text: str) -> RulePassage | None:
        if not _RULES_HINT.search(text):
            return None
        tokens = words(text)
        best: tuple[int, RulePassage] | None = None
        for passage in self.case.public.rules_passages:
            for cue in passage.cues:
                at = find_phrase(tokens, words(cue))
                if at is not None and (best is None or at < best[0]):
                    best = (at, passage)
        if best is None and re.search(r"\b(?:rules|how (?:do|does) (?:we|this|it|one) (?:play|work))\b", text, re.IGNORECASE):
            passages = self.case.public.rules_passages
            return passages[0] if passages else None
        return best[1] if best else None

    def _put_to(self, text: str, address: Address, s: Situation) -> Decision | None:
        if len(address.suspects) > 1 or address.everyone:
            return Decision(Action.ONE_AT_A_TIME, self._msg(MessageKind.OTHER, text))
        if address.redirect is not None and not address.suspects:
            return Decision(Action.REDIRECT, self._msg(MessageKind.OTHER, text), suspect=address.redirect)
        if not address.suspects:
            return None
        suspect = address.suspects[0]
        rest = address.rest.strip(" ,.:;!-–—")
        numbers = distinct(cited_exhibits(text))
        if not rest and not numbers:
            if address.confront:
                return Decision(Action.WHICH_EXHIBIT, self._msg(MessageKind.OTHER, text, suspect=suspect), suspect=suspect)
            return Decision(Action.WHAT_DO_YOU_ASK, self._msg(MessageKind.OTHER, text, suspect=suspect), suspect=suspect)
        if s.phase is Phase.ACCUSATION:
            kind = MessageKind.CONFRONTATION if numbers else MessageKind.QUESTION
            return Decision(Action.QUESTIONS_DONE, self._msg(kind, text, suspect=suspect, exhibits=tuple(numbers)))
        if len(numbers) > 1:
            return Decision(
                Action.ONE_EXHIBIT, self._msg(MessageKind.CONFRONTATION, text, suspect=suspect, exhibits=tuple(numbers))
            )
        if numbers:
            number = numbers[0]
            decision = Decision(
                Action.CONFRONT,
                self._msg(MessageKind.CONFRONTATION, text, suspect=suspect, exhibits=(number,), costly=True),
                suspect=suspect,
                exhibit=number,
                rest=self._confront_rest(rest),
            )
            return self._exhibit_check(decision, number, s)
        described = _DESCRIBED.search(rest)
        if described and self.names.mentions(described.group("what")):
            described = None
        if address.confront or described:
            return Decision(Action.WHICH_EXHIBIT, self._msg(MessageKind.OTHER, text, suspect=suspect), suspect=suspect)
        if (
            address.ask_form
            or "?" in text
            or re.search(r"\b(?:you|your|yours|yourself)\b", rest, re.IGNORECASE)
            or (words(rest)[:1] and words(rest)[0] in QUESTION_WORDS)
        ):
            return Decision(
                Action.QUESTION,
                self._msg(MessageKind.QUESTION, text, suspect=suspect, costly=True),
                suspect=suspect,
                rest=self._second_person(rest) if address.ask_form else rest,
            )
        return None

    @staticmethod
    def _confront_rest(rest: str) -> str:
        """What a confrontation asks besides the exhibit: "with E7, where were you?" -> "where were you?"."""
        rest = re.sub(r"^\s*(?:with|about|over|on)\b\s*", "", rest, flags=re.IGNORECASE)
        rest = re.sub(r"(?:\bE\s?-?\d{1,3}|\bexhibit\s+#?\d{1,3}|#\d{1,3})\b", " ", rest, flags=re.IGNORECASE)
        return rest.strip(" ,.:;!-–—")

    def _second_person(self, rest: str) -> str:
        """ "Ask Thwaite where he was" -> "where were you": the suspect hears the question put to them.

        The victim's own pronouns stay: "Ask Dinah when she found him" is about him, not her."""
        victim = self.case.public.victim_pronouns
        swapped = re.sub(r"\b(?:he|she)\b", "you", rest, flags=re.IGNORECASE)
        for forms, second in ((("his",), "your"), (("him", "himself", "herself"), "you")):
            kept = [word for word in forms if word not in (victim.object, victim.possessive)]
            if kept:
                swapped = re.sub(rf"\b(?:{'|'.join(kept)})\b", second, swapped, flags=re.IGNORECASE)
        swapped = re.sub(r"\b(where|what|when|why|how|who)\s+you\s+(?:was|were)\b", r"\1 were you", swapped, flags=re.IGNORECASE)
        swapped = re.sub(r"\b(where|what|when|why|how|who)\s+you\s+(?:is|are)\b", r"\1 are you", swapped, flags=re.IGNORECASE)
        swapped = re.sub(r"\byou was\b", "you were", swapped, flags=re.IGNORECASE)
        return re.sub(r"\byou is\b", "you are", swapped, flags=re.IGNORECASE)

    def _is_accusation_form(self, text: str) -> bool:
        if not self.names.mentions(text) and not self.names.redirects(text):
            return False
        if ACCUSE_FORM.match(text):
            return True
        first = self.names.mentions(text)
        return bool(first) and first[0].start == 0 and bool(_DID_IT.search(text) or self._did_it_to_victim.search(text))

    # -- addresses ------------------------------------------------------------------------------

    def address(self, text: str, seats: tuple[str, ...]) -> Address | None:
        """Rule 4's forms: "Ask NAME", "To NAME", "@NAME", "Confront NAME", "NAME," / "NAME:" / "NAME -",
        "NAME you...", or ending "NAME?" while saying you or your."""
        opener = _ADDRESS_OPEN.match(text)
        if opener:
            group = self._target_group(text, opener.end(), seats)
            if group is not None:
                found, end = group
                head = opener.group().strip().lower()
                return Address(
                    **found.__dict__,
                    rest=text[end:],
                    confront=head.startswith("confront"),
                    ask_form=not head.startswith("confront") and head != "@",
                )
        # "Ada and Bram, where..." is put to both; "Ada, Bram says you..." is put to Ada alone.
        for single in (False, True):
            group = self._target_group(text, 0, seats, single=single)
            if group is None:
                break
            found, end = group
            after = text[end:]
            delimiter = re.match(r"\s*(?:[,:]|[-–—](?!\d)|(?=\byou\b)|(?=\byour\b))", after, re.IGNORECASE)
            if delimiter and (delimiter.group().strip() or re.match(r"\s+you", after, re.IGNORECASE)):
                return Address(**found.__dict__, rest=after[delimiter.end() :])
            unmarked = _UNMARKED_VOCATIVE.match(after)
            if unmarked:  # "thwaite where were you": the comma that speech and quick typing drop
                return Address(**found.__dict__, rest=after[unmarked.end() :])
            if not after.strip(" ?!."):
                return Address(**found.__dict__, rest="")
        tail = re.search(r"[,\s]*([^,]*?)\s*\?+\s*$", text)
        if tail and re.search(r"\b(?:you|your)\b", text, re.IGNORECASE):
            start = tail.start(1)
            # walk back to the start of the last name group before the "?"
            for candidate in self._group_starts(text, start):
                group = self._target_group(text, candidate, seats)
                if group is not None and not text[group[1] :].strip(" ?!."):
                    found, _ = group
                    return Address(**found.__dict__, rest=text[:candidate].rstrip(" ,"))
        return None

    def _group_starts(self, text: str, limit: int) -> list[int]:
        starts = [m.start for m in self.names.mentions(text) if m.start >= limit - 1]
        starts += [pos for pos, _ in self.names.redirects(text) if pos >= limit - 1]
        starts += [m.start() for m in re.finditer(r"\b\w", text) if m.start() >= limit]
        return sorted(set(starts))

    def _target_group(self, text: str, pos: int, seats: tuple[str, ...], single: bool = False) -> tuple[Targets, int] | None:
        suspects: list[str] = []
        everyone = seat = other = False
        redirect: str | None = None
        end = pos
        while True:
            target = self._target_at(text, end, seats)
            if target is None:
                break
            kind, key, stop = target
            if kind == "suspect" and key not in suspects:
                suspects.append(key)
            elif kind == "everyone":
                everyone = True
            elif kind == "seat":
                seat = True
            elif kind == "other":
                other = True
            elif kind == "redirect":
                redirect = key
            end = stop
            if single:
                break
            join = _GROUP_JOIN.match(text, end)
            if join is None or self._target_at(text, join.end(), seats) is None:
                break
            end = join.end()
        if end == pos:
            return None
        return Targets(tuple(suspects), everyone, redirect, other, seat), end

    def _target_at(self, text: str, pos: int, seats: tuple[str, ...]) -> tuple[str, str, int] | None:
        title = re.compile(self.names.title_pattern, re.IGNORECASE).match(text, pos)
        start = title.end() if title else pos
        if self.names.names_other(text, pos):
            match = re.compile(r"\S+(?:\s+\S+)?").match(text, pos)
            victim = [span for span in self.names.victim_spans(text) if span[0] == pos]
            stop = victim[0][1] if victim else (match.end() if match else pos + 1)
            return "other", "", stop
        for mention in self.names.mentions(text):
            if mention.start in (pos, start):
                return "suspect", mention.suspect, mention.end
        redirect = self.names.redirect_at(text, start)
        if redirect is not None:
            word = re.compile(r"\w+").match(text, start)
            return "redirect", redirect, word.end() if word else start
        everyone = self._all_suspects.match(text, pos) or _EVERYONE.match(text, pos)
        if everyone:
            return "everyone", "", everyone.end()
        for name in sorted(seats, key=len, reverse=True):
            if name != "you" and re.compile(rf"{re.escape(name)}\b", re.IGNORECASE).match(text, pos):
                return "seat", name, pos + len(name)
        if self.names.names_other(text, start):
            return "other", "", start + 1
        return None

    # -- the accusation --------------------------------------------------------------------------

    def _accusation(self, text: str) -> Decision | None:
        """THE ACCUSATION: not a command, no "?" once a closing "are we right?" is dropped, names one of the six."""
        body = _CLOSING.sub("", text)
        if "?" in body:
            return None
        if not self.names.mentions(body) and not self.names.redirects(body):
            return None
        return self.parse_accusation(body)

    def parse_accusation(self, text: str) -> Decision:
        # 1) strip markdown, quotes, labels and filler
        body = strip_markdown(text)
        body = re.sub(r"[\"“”«»]", "", body)
        body = re.sub(r"^\s*(?:accusation|verdict|final answer|answer)\s*:\s*", "", body, flags=re.IGNORECASE)
        body = re.sub(
            r"\b(?:we think|i think|we accuse|i accuse|we believe|i believe|it was|it's|it is|"
            r"the (?:killer|murderer|culprit) (?:is|was))\b",
            " ",
            body,
            flags=re.IGNORECASE,
        )
        body = re.sub(r"\s+", " ", body).strip()
        mentions = self.names.mentions(body)
        redirects = self.names.redirects(body)
        # 2) set aside a name right after not, never, rather than, instead of, isn't or wasn't
        negation = re.compile(
            r"(?:\bnot|\bnever|\brather than|\binstead of|\bisn't|\bwasn't|\bis not|\bwas not)\s+(?:"
            + self.names.title_pattern
            + r")?$",
            re.IGNORECASE,
        )
        kept = [m for m in mentions if not negation.search(body[: m.start])]
        kept_redirects = [(pos, key) for pos, key in redirects if not negation.search(body[:pos])]
        # 3) cut at the first because, since, as, for, given, a dash, ;, a colon after a name, "(",
        #    proof, evidence, exhibits, or a full stop that ends a sentence
        cut = len(body)
        stop = re.search(
            r"\b(?:because|since|as|for|given|proof|evidence|exhibits?)\b|—|\s-\s|;|\(|"
            r"(?<!\bMr)(?<!\bMrs)(?<!\bMiss)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bRev)\.(?=\s|$)",
            body,
            re.IGNORECASE,
        )
        if stop:
            cut = stop.start()
        for mention in mentions:
            colon = re.match(r"\s*:", body[mention.end :])
            if colon and mention.end < cut:
                cut = mention.end
                break
        before = distinct([m.suspect for m in kept if m.start < cut])
        exhibits = tuple(n for n in distinct(cited_exhibits(text)) if 1 <= n <= EXHIBITS)[:MAX_COUNTED_EXHIBITS]
        if len(before) == 1:
            accused: str | None = before[0]
        elif not before:
            anywhere = distinct([m.suspect for m in kept])
            accused = anywhere[0] if len(anywhere) == 1 else None
            if accused is None and not anywhere and kept_redirects:
                key = kept_redirects[0][1]
                return Decision(Action.REDIRECT, self._msg(MessageKind.ACCUSATION, text, suspect=key), suspect=key)
        else:
            accused = None
        if accused is None:
            return Decision(Action.WHICH_ONE, self._msg(MessageKind.ACCUSATION, text, exhibits=exhibits))
        if any(pos < cut for pos, _ in kept_redirects) and not any(m.start < cut for m in kept):
            return Decision(Action.REDIRECT, self._msg(MessageKind.ACCUSATION, text, suspect=accused), suspect=accused)
        return Decision(
            Action.ACCUSE,
            self._msg(MessageKind.ACCUSATION, text, suspect=accused, exhibits=exhibits),
            suspect=accused,
            exhibits=exhibits,
        )

    def _after_read_back(self, text: str, s: Situation, agrees: bool) -> Decision:
        assert s.read_back is not None
        accused, counted = s.read_back
        others = [key for key in self.names.suspects_named(text) if key != accused]
        new_numbers = [n for n in cited_exhibits(text) if n not in counted]
        agrees = agrees or (_AGREE.match(text) is not None and _NO.match(text) is None and "?" not in text)
        if agrees and not others and not new_numbers:
            return Decision(
                Action.LOCK,
                self._msg(MessageKind.COMMAND, text, command=Command.YES, suspect=accused, exhibits=counted, costly=True),
                suspect=accused,
                exhibits=counted,
            )
        accusation = self._accusation(text)
        if accusation is not None:
            return accusation
        return Decision(Action.NOT_LOCKED, self._msg(MessageKind.OTHER, text))

    # -- seating, saves and the end -----------------------------------------------------------

    def _seating(self, text: str, said: IntentMatch | None, s: Situation) -> Decision:
        bare = text.rstrip(" .!").strip()
        if bare == "give up":
            return Decision(Action.COMMAND, self._msg(MessageKind.COMMAND, bare, command=Command.GIVE_UP))
        if s.pending is Pending.GIVE_UP and bare == "yes":
            return Decision(Action.CONFIRM, self._msg(MessageKind.COMMAND, bare, command=Command.YES, costly=True))
        if _SEATING_HELP.match(bare):
            return Decision(Action.SEATING_HELP, self._msg(MessageKind.OTHER, text))
        if said is not None and said.intent.kind in (IntentKind.RULES, IntentKind.WHO):
            return self._answer_from_card(said, text, s)  # a rules question is free even before the names
        if said is not None:  # a question about a state not begun, or a command: who is at the table first
            return Decision(Action.ASK_SEATS, self._msg(MessageKind.OTHER, text))
        if _SOLO.match(bare) and not s.awaiting_nickname:
            return Decision(Action.SEAT, self._msg(MessageKind.OTHER, text), names=("you",))
        names = self.seat_names(bare)
        if names is None:
            return Decision(Action.ASK_SEATS, self._msg(MessageKind.OTHER, text))
        return Decision(Action.SEAT, self._msg(MessageKind.OTHER, text), names=tuple(names))

    @staticmethod
    def seat_names(text: str) -> list[str] | None:
        text = re.sub(
            r"^(?:(?:hi|hello|hey)[,!.]?\s+)?(?:we(?:'re| are)|it's|this is|players?:|names?:|i'm|i am|seats?:|the table is)\s*",
            "",
            text.strip(),
            flags=re.IGNORECASE,
        )
        parts = [p.strip(" .!'\"") for p in re.split(r"\s*(?:,|;|&|\+|/|\band\b)\s*", text, flags=re.IGNORECASE)]
        names = [p for p in parts if p]
        if not names:
            return None
        for name in names:
            if len(name) > 24 or not re.fullmatch(r"[^\W\d_][\w'’.-]*(?: [^\W\d_][\w'’.-]*){0,2}", name):
                return None
            if name.lower() in ("me", "you", "i", "us", "we"):
                return None
            if re.search(r"\d", name) or (words(name) and words(name)[0] in QUESTION_WORDS | _NOT_NAMES):
                return None
            if any(word in _NOT_IN_NAMES for word in words(name)):
                return None
        return names

    def _save(self, raw: str, s: Situation) -> Decision:
        if not s.first_message:
            return Decision(Action.SAVE_IGNORED, self._msg(MessageKind.OTHER, "save block"))
        block = parse_save(raw)
        if block is None:
            return Decision(Action.SAVE_IGNORED, self._msg(MessageKind.OTHER, "save block"))
        public = self.case.public
        if block.game != public.game or block.rules != public.rules:
            return Decision(Action.BAD_SAVE, self._msg(MessageKind.OTHER, "save block"), save=block)
        return Decision(Action.RESUME, self._msg(MessageKind.OTHER, "save block"), save=block)

    def _over(self, text: str) -> Decision:
        stripped = self.prestrip(text, ())
        address = self.address(stripped, ())
        if address is not None and len(address.suspects) == 1:
            return Decision(
                Action.NIGHT_OVER,
                self._msg(MessageKind.QUESTION, stripped, suspect=address.suspects[0]),
                suspect=address.suspects[0],
                rest=address.rest,
            )
        return Decision(Action.NIGHT_OVER, self._msg(MessageKind.OTHER, stripped))

    @staticmethod
    def _msg(
        kind: MessageKind,
        text: str,
        *,
        suspect: str | None = None,
        exhibits: tuple[int, ...] = (),
        command: Command | None = None,
        costly: bool = False,
    ) -> Message:
        return Message(kind=kind, text=text, suspect=suspect, exhibits=exhibits, command=command, costly=costly)
