"""The narrow pick: a closed set's best that stood out by less than its margin, taken only as the last resort.

The closed-set and addressee passes fill a slot when its best leads the next by `closed_set_margin`;
a best that leads by `closed_set_ask_margin` only is kept aside (`Hearing.narrow`). When every pass
after it has run and what was heard is still no whole message, that fill is taken, and the Host asks
about it first even for a free command ("I heard: Read E7. Say yes or no."): dropped, the table would
have to say it all again anyway; asked, a "yes" is enough.
"""

from __future__ import annotations

from dataclasses import dataclass

from voice_host.understanding.host_requests import is_repeat_request
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun, asks_the_host, whole_message


@dataclass(frozen=True)
class NarrowPickPass:
    """Take the closed set's narrow pick when nothing better was found."""

    name: PassName = PassName.NARROW_PICK

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        if hearing.narrow is None or whole_message(heard.message):
            return False
        # "Say that again." is no card message, but the Host acts on it (the session replays its last reply).
        return not is_repeat_request(heard.text, heard.message) and not asks_the_host(heard.text)

    def run(self, hearing: Hearing, ears: Ears) -> None:
        assert hearing.narrow is not None
        hearing.heard = hearing.narrow
        hearing.runs.append(PassRun(self.name, (), searched=False))
