"""Finding the suspects in a message by the card's NAMES: whole words, any case, with or without a title."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.case import PublicPart


@dataclass(frozen=True)
class Mention:
    suspect: str
    start: int
    end: int


def _alternation(phrases: list[str]) -> str:
    ordered = sorted({p.strip() for p in phrases if p.strip()}, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(word) for word in phrase.split()) for phrase in ordered)


class NameIndex:
    """Every way the case lets a message name a suspect, compiled once."""

    def __init__(self, public: PublicPart) -> None:
        self.public = public
        self._owner: dict[str, str] = {}
        for suspect in public.suspects:
            for alias in suspect.aliases:
                self._owner[" ".join(alias.lower().split())] = suspect.key
        self._aliases = re.compile(r"\b(?:" + _alternation(list(self._owner)) + r")\b", re.IGNORECASE)
        self._redirect_owner = {word.lower(): suspect.key for suspect in public.suspects for word in suspect.redirect}
        titles = [t.rstrip(".") for t in public.titles] or ["Mr", "Mrs", "Miss"]
        self.title_pattern = r"(?:(?:the|" + "|".join(re.escape(t) for t in titles) + r")\.?\s+)"
        self._redirects = (
            re.compile(r"\b(?:" + _alternation(list(self._redirect_owner)) + r")\b", re.IGNORECASE)
            if self._redirect_owner
            else None
        )
        # The victim by pronoun or by name ("who killed her", "killed Mrs. Blamire"); the title that leads one of
        # the victim's names stands for them too ("who killed Mrs ...").
        folded_titles = {title.lower() for title in titles}
        leading = [first for first in (name.split()[0].rstrip(".") for name in public.victim) if first.lower() in folded_titles]
        self.victim_pattern = _alternation([public.victim_pronouns.object, *public.victim, *leading])
        self._victim = (
            re.compile(r"(?<!\w)(?:" + _alternation(list(public.victim)) + r")(?!\w)", re.IGNORECASE) if public.victim else None
        )
        self._others = re.compile(r"\b(?:" + _alternation(list(public.others)) + r")\b", re.IGNORECASE) if public.others else None

    def victim_spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in self._victim.finditer(text)] if self._victim else []

    def mentions(self, text: str) -> list[Mention]:
        """Suspects named in `text`, in order; "Abel Thwaite" is one mention, not two."""
        victim = self.victim_spans(text)
        found: list[Mention] = []
        for match in self._aliases.finditer(text):
            if any(start <= match.start() < end for start, end in victim):
                continue
            owner = self._owner[" ".join(match.group().lower().split())]
            if found and found[-1].suspect == owner and re.fullmatch(r"[\s.]*", text[found[-1].end : match.start()]):
                found[-1] = Mention(owner, found[-1].start, match.end())
            else:
                found.append(Mention(owner, match.start(), match.end()))
        return [self._with_surname(text, mention) for mention in found]

    def _with_surname(self, text: str, mention: Mention) -> Mention:
        """ "Joel Blamire" is one mention of Joel: a redirect word right after its own suspect's name."""
        if self._redirects is None:
            return mention
        after = re.compile(r"\s+").match(text, mention.end)
        if after is None:
            return mention
        word = self._redirects.match(text, after.end())
        if word is not None and self._redirect_owner[word.group().lower()] == mention.suspect:
            return Mention(mention.suspect, mention.start, word.end())
        return mention

    def suspects_named(self, text: str) -> list[str]:
        named: list[str] = []
        for mention in self.mentions(text):
            if mention.suspect not in named:
                named.append(mention.suspect)
        return named

    def redirect_at(self, text: str, start: int) -> str | None:
        """The suspect a redirect word ("Blamire") at `start` points to, unless it is part of a name."""
        if self._redirects is None:
            return None
        match = self._redirects.match(text, start)
        if match is None:
            return None
        if any(s <= match.start() < e for s, e in self.victim_spans(text)):
            return None
        if any(m.start <= match.start() < m.end for m in self.mentions(text)):
            return None
        return self._redirect_owner[match.group().lower()]

    def redirects(self, text: str) -> list[tuple[int, str]]:
        if self._redirects is None:
            return []
        found = []
        for match in self._redirects.finditer(text):
            owner = self.redirect_at(text, match.start())
            if owner is not None:
                found.append((match.start(), owner))
        return found

    def names_other(self, text: str, start: int) -> bool:
        """Whether a non-suspect (the victim, a servant, the waits) is named at `start`."""
        for pattern in (self._victim, self._others):
            if pattern is not None and pattern.match(text, start):
                return True
        return False

    def is_reserved(self, name: str) -> bool:
        """A seat name that would be read as one of the six (or the victim): ask for a nickname."""
        lowered = name.lower()
        if self._aliases.search(name) or (self._victim and self._victim.search(name)):
            return True
        return any(re.search(rf"\b{re.escape(w)}\b", lowered) for w in self._redirect_owner)
