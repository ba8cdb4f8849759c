"""Reading a case folder: only the case's own parts, bounded, and every failure is the card's refusal."""

from __future__ import annotations

import argparse
import io
import shutil
from pathlib import Path

import pytest

from engine.case import REFUSAL, CaseError
from engine.seal import MAX_PLAIN_PART, SealError, seal_part, unseal_part
from tests.engine_support import FROST_FAIR
from voice_host.cli.text_mode import run_text
from voice_host.loop import casefiles
from voice_host.loop.casefiles import read_case_dir, read_case_files


def _copy_case(tmp_path: Path) -> Path:
    folder = tmp_path / "case"
    shutil.copytree(FROST_FAIR, folder)
    return folder


def _play_text(case: Path, state: Path) -> tuple[int, str]:
    args = argparse.Namespace(case=case, state_dir=state, resume=False, night=None)
    out = io.StringIO()
    code = run_text(args, stdin=io.StringIO("Ann\n"), stdout=out)
    return code, out.getvalue()


def test_a_sealed_bomb_is_refused_without_unpacking_it_whole() -> None:
    bomb = seal_part(b"\0" * (MAX_PLAIN_PART * 2))
    assert len(bomb) < 10_000  # small on disk
    with pytest.raises(SealError, match="more than"):
        unseal_part(bomb.encode("ascii"))


def test_a_sealed_part_cut_short_is_refused() -> None:
    sealed = seal_part(b"a line of the reveal\n" * 50)
    lines = sealed.splitlines()
    with pytest.raises(SealError):
        unseal_part("\n".join(lines[:-1]).encode("ascii")[:-8] + b"\n")


def test_a_bomb_in_the_case_folder_gets_the_refusal(tmp_path: Path) -> None:
    case = _copy_case(tmp_path)
    (case / "reveal-2.sealed").write_text(seal_part(b"x" * (MAX_PLAIN_PART + 1)), encoding="ascii")
    code, out = _play_text(case, tmp_path / "state")
    assert (code, out.strip()) == (1, REFUSAL)


def test_only_the_cases_own_files_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = _copy_case(tmp_path)
    (case / "holiday-video.mp4").write_bytes(b"\0" * 1000)
    (case / "notes.txt").write_text("not part of the case")
    opened: list[str] = []
    real_open = Path.open

    def spying_open(self: Path, *args: object, **kwargs: object) -> object:
        opened.append(self.name)
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", spying_open)
    files = read_case_files(case)
    assert sorted(files) == ["SYSTEM.md", "public.case", "reveal-1.sealed", "reveal-2.sealed"]
    assert "holiday-video.mp4" not in opened and "notes.txt" not in opened
    read_case_dir(case)  # and the case still loads


def test_a_part_the_notice_names_outside_the_folder_is_not_read(tmp_path: Path) -> None:
    case = _copy_case(tmp_path)
    notice = (case / "SYSTEM.md").read_text()
    (tmp_path / "outside.sealed").write_bytes((case / "reveal-2.sealed").read_bytes())
    (case / "SYSTEM.md").write_text(notice.replace("reveal-2.sealed", "../outside.sealed"))
    assert "../outside.sealed" not in read_case_files(case)
    with pytest.raises(CaseError, match="missing"):
        read_case_dir(case)


def test_an_unreadable_part_gets_the_refusal_not_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = _copy_case(tmp_path)
    real_open = Path.open

    def refusing_open(self: Path, *args: object, **kwargs: object) -> object:
        if self.name == "reveal-2.sealed":
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", refusing_open)
    code, out = _play_text(case, tmp_path / "state")
    assert (code, out.strip()) == (1, REFUSAL)


def test_an_unreadable_case_folder_gets_the_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = _copy_case(tmp_path)

    def refusing_iterdir(self: Path) -> object:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "iterdir", refusing_iterdir)
    code, out = _play_text(case, tmp_path / "state")
    assert (code, out.strip()) == (1, REFUSAL)


def test_a_part_that_is_a_folder_gets_the_refusal(tmp_path: Path) -> None:
    case = _copy_case(tmp_path)
    (case / "reveal-1.sealed").unlink()
    (case / "reveal-1.sealed").mkdir()
    with pytest.raises(CaseError, match="folder"):
        read_case_dir(case)


def test_a_case_file_past_the_size_limit_is_refused_not_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = _copy_case(tmp_path)
    public = case / "public.case"
    monkeypatch.setattr(casefiles, "MAX_CASE_FILE", public.stat().st_size)
    read_case_dir(case)  # a file of exactly the limit is read whole
    public.write_bytes(public.read_bytes() + b"\n")
    with pytest.raises(CaseError, match="public.case is larger than"):
        read_case_dir(case)
