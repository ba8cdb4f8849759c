"""Shared test setup: the two lanes and Hypothesis's profiles.

The slow lane is marked `speech`: every test that loads a speech model, opens a sound device or starts
PulseAudio. It is marked from the fixtures a test uses (those made with `speech_fixture`, directly or
through another fixture), so a new test that uses one is in the slow lane without saying so; a test
that needs the models without a fixture (a `third-carol hear` subprocess) says `@pytest.mark.speech`.
`pytest -m "not speech"` is the fast lane. In it a test that loads a model or opens a device anyway
fails and names itself, so the marking cannot silently go wrong.

pytest spreads the tests over the machine's cores (pytest-xdist, `-n auto --dist loadgroup` in pyproject's
addopts); `-n 0` runs them in this one process (for a debugger). The speech lane's tests share one worker
and run one after another.

Hypothesis runs the "dev" profile (few examples) unless HYPOTHESIS_PROFILE says otherwise or CI is set;
CI and `./carol test` run the "ci" profile, with every example.

The bundled case and a game of it (`case`, `game`, `round_two`, `understander`) are fixtures here for every test
that plays or hears it; a test module that wants another game defines its own fixture under the same name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import NoReturn

import pytest
from hypothesis import HealthCheck, settings

from engine.case import Case
from engine.game import Game
from tests.scripted_recognizer import in_round_two, seated_game
from voice_host.loop.casefiles import load_bundled_case
from voice_host.understanding.understand import Understander

pytest_plugins = ["tests.conftest_speech"]

settings.register_profile("ci", max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if _CI else "dev"))


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from tests.conftest_speech import SPEECH_FIXTURES  # (imported as the plugin above, so pytest rewrites its asserts)

    in_workers = config.pluginmanager.hasplugin("xdist")
    for item in items:
        callspec = getattr(item, "callspec", None)
        arguments = set(callspec.params) if callspec is not None else set()  # parametrize's own names are no fixture
        if SPEECH_FIXTURES.intersection(set(getattr(item, "fixturenames", ())) - arguments):
            item.add_marker(pytest.mark.speech)
        if in_workers and item.get_closest_marker("speech") is not None:
            # The speech lane runs one test at a time, in one worker (`--dist loadgroup`, pyproject): its tests
            # time real audio and start sound servers, and its models load once in that worker.
            item.add_marker(pytest.mark.xdist_group("speech"))


# Where the fast lane would load a model or open a sound device: module, attribute.
_SLOW_DOORS = (
    ("voice_host.ears.asr", "load_whisper"),
    ("voice_host.mouth.tts", "load_piper_voice"),
    ("voice_host.ears.vad", "load_silero"),
    ("voice_host.ears.audio", "sounddevice_module"),
)


@pytest.fixture(autouse=True)
def _fast_lane_stays_fast(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A test outside the speech lane that reaches a model or a device fails, naming what it reached."""
    if request.node.get_closest_marker("speech") is not None:
        yield
        return
    reached: list[str] = []
    for module, attribute in _SLOW_DOORS:

        def refuse(*args: object, _door: str = f"{module}.{attribute}", **kwargs: object) -> NoReturn:
            reached.append(_door)
            raise AssertionError(f"{_door} in a test not marked speech: use a speech fixture or mark it speech")

        monkeypatch.setattr(f"{module}.{attribute}", refuse)
    yield
    if reached:  # (also when the attempt was caught, e.g. by a worker thread that reports failures)
        pytest.fail(f"reached {', '.join(sorted(set(reached)))} without the speech mark", pytrace=False)


@pytest.fixture(autouse=True, scope="session")
def _a_state_folder_of_its_own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Nothing a test runs, a `third-carol` subprocess included, writes into the real per-user state folder."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
        yield


@pytest.fixture(scope="module")
def case() -> Case:
    """The bundled case, Hollin Fold."""
    return load_bundled_case()


@pytest.fixture
def game(case: Case) -> Game:
    """A fresh game of it in round 1, the table seated (tests/scripted_recognizer.py `SEATS`)."""
    return seated_game(case)


@pytest.fixture
def round_two(game: Game) -> Game:
    """In round 2, so that E7 has been read and a confrontation with it would spend a question."""
    return in_round_two(game)


@pytest.fixture(scope="module")
def understander(case: Case) -> Understander:
    """Understanding of text (no audio): what the shared classifier makes of what was heard."""
    return Understander(case.suspects)
