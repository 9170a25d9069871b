"""benchmarks/host_logic.py plays real tables sans-IO as benchmarks/host.py's light players
do over sockets: its figures are of intents the tables took, rounds that were dealt, and time
the host's parts spent."""

from __future__ import annotations

from benchmarks import host_logic


def test_the_sans_io_tables_play_rounds_and_every_part_is_timed() -> None:
    run = host_logic.Run(tables=2, seed=1)
    for member in run.members.values():
        member.player.stats.counting = True  # answers and refusals counted by the players
    run.play(400)
    assert run.actions >= 400
    assert run.seed_commits >= 2 * host_logic.SEATS  # a round dealt at each table
    assert all(run.spent[part] > 0 for part in ("reading", "intents", "seed messages", "frames"))
    answered = sum(member.player.stats.accepted for member in run.members.values())
    assert answered >= 390  # the last intents' answers may be still unread
    assert sum(member.player.stats.refused for member in run.members.values()) == 0


def test_its_arguments_are_checked() -> None:
    import pytest

    with pytest.raises(SystemExit):
        host_logic.main(["--repeats", "0"])
