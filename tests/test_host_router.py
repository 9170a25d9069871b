"""Hosting for friends across the internet, against a real router (issue 48): Debian's miniupnpd
as the UPnP gateway of a home network made of network namespaces (tests/router_lab.py), the
host on its LAN side, a friend on its internet side. The router's table is read where it acts,
in the nftables rules miniupnpd writes.

Shown: the mapping is in the router's table while the host runs and `unonet host --check` says
so; the friend joins through the public address the join line leads with and plays a match;
the mapping is gone after q, Ctrl-C, SIGTERM, a closed terminal and a failure of the host's
run; after kill -9 the next host takes the mapping over (one mapping, not two). And the lines
for when no mapping can be made: no router, a refusal, the port taken by another machine, a
router with no public address (carrier-grade NAT), --no-upnp.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest
from router_lab import BOUND, CGNAT_PUBLIC, FRIEND, HOST, NEIGHBOUR, PUBLIC, Lab, Output
from router_lab import unavailable as lab_unavailable
from test_client_terminal import Terminal

PORT = 7077
HEADLESS = ("host", "--headless", "--port", str(PORT), "--bots", "1", "--set", "target=50",
            "--bot-delay", "0")
"""A dedicated server whose one table starts once a friend sits beside its bot, for a short
match (to 50 points)."""
INTERNET_LINE = r"^Friends on the internet join with: unonet join (\S+) --pin (\S+)$"


@cache
def unavailable() -> str | None:
    return lab_unavailable()


@pytest.fixture
def make_lab(tmp_path: Path) -> Iterator[Callable[..., Lab]]:
    """A home network of the test's own (public: the router's internet address), or a skip
    saying why this machine cannot make one."""
    reason = unavailable()
    if reason is not None:
        pytest.skip(f"no network namespaces here: {reason}")
    made: list[Lab] = []

    def make(public: str = PUBLIC) -> Lab:
        made.append(Lab(tmp_path / f"lab{len(made)}", public))
        return made[-1]

    yield make
    for lab in made:
        lab.close()


@pytest.fixture
def lab(make_lab: Callable[..., Lab]) -> Lab:
    return make_lab()


def start_host(lab: Lab, *extra: str, home: str = "home") -> tuple[subprocess.Popen[str], Output]:
    host = lab.unonet(lab.host, *HEADLESS, *extra, home=home)
    return host, Output(host.stdout, host.stderr)


def stop(host: subprocess.Popen[str], said: Output, how: signal.Signals) -> int:
    host.send_signal(how)
    said.rest()
    return host.wait(timeout=BOUND)


def router_said(said: Output) -> str:
    """The host's line about the router's answer (after its "asking" line)."""
    return said.wait_for(r"^router: (?!asking).*").group(0)


def test_the_port_is_forwarded_while_the_host_runs_and_a_friend_outside_plays_through_it(
    lab: Lab,
) -> None:
    lab.start_router()
    host, said = start_host(lab)
    internet = said.wait_for(INTERNET_LINE)
    assert internet.group(1) == f"{PUBLIC}:{PORT}"
    fingerprint = internet.group(2)
    local = said.wait_for(r"^Friends on your own network join with: unonet join (\S+) ")
    assert local.group(1) == f"{HOST}:{PORT}"
    assert lab.mappings() == [(PORT, f"{HOST}:{PORT}")]
    # the host served its LAN before the router answered: beside the start, not before it
    lines = said.lines
    first_join = next(i for i, line in enumerate(lines) if line.startswith("Friends join with"))
    answer = next(i for i, line in enumerate(lines) if line.startswith("router: port"))
    assert first_join < answer

    check = lab.unonet(lab.host, "host", "--check", "--port", str(PORT))
    out, err = check.communicate(timeout=BOUND)
    assert check.returncode == 0, out + err
    assert f"internet address {PUBLIC} (public)" in out
    assert f"port {PORT}: forwarded to this machine, {HOST}:{PORT} (unonet host, " in out
    assert f"friends on the internet join at {PUBLIC}:{PORT}" in out

    friend = lab.unonet(lab.friend, "bot", f"{PUBLIC}:{PORT}", "--fingerprint", fingerprint,
                        "--think", "0", "--name", "Friend", home="friend")
    out, err = friend.communicate(timeout=3 * BOUND)
    assert friend.returncode == 0, out + err
    assert "match 1 over" in out and "every card and seed held" in out
    said.wait_for(rf"conn \d+ \({FRIEND}:\d+\)")  # it came from outside, through the router

    assert stop(host, said, signal.SIGINT) == 130  # Ctrl-C
    assert lab.mappings() == []


def test_with_no_upnp_the_router_is_not_asked_and_a_friend_outside_cannot_join(lab: Lab) -> None:
    lab.start_router()
    host, said = start_host(lab, "--no-upnp")
    said.wait_for(r"^tables open")
    internet = said.wait_for(r"^Friends join with: unonet join (\S+) --pin (\S+)$")
    assert internet.group(1) == f"{HOST}:{PORT}"
    friend = lab.unonet(lab.friend, "bot", f"{PUBLIC}:{PORT}", "--fingerprint",
                        internet.group(2), "--think", "0", home="friend")
    out, err = friend.communicate(timeout=2 * BOUND)
    assert friend.returncode == 1 and "cannot reach" in out + err
    assert lab.mappings() == []
    assert stop(host, said, signal.SIGINT) == 130
    assert not any(line.startswith("router:") for line in said.lines)


def test_sigterm_removes_the_mapping_before_the_host_ends(lab: Lab) -> None:
    lab.start_router()
    host, said = start_host(lab)
    said.wait_for(INTERNET_LINE)
    assert lab.mappings() == [(PORT, f"{HOST}:{PORT}")]
    assert stop(host, said, signal.SIGTERM) == -signal.SIGTERM  # ended by it, as before
    assert lab.mappings() == []
    assert any("SIGTERM, removing the mapping" in line for line in said.lines)


CRASHING_HOST = """
import sys
from pathlib import Path

import trio

from host.run import HostOptions, serving


async def main() -> None:
    options = HostOptions(port={port}, upnp=True, tls=False, bots=1, home=Path(sys.argv[1]))
    async with serving(options) as served:
        await served.router.answered.wait()
        print("mapped", served.router.mapped is not None, flush=True)
        await trio.to_thread.run_sync(sys.stdin.readline)
        raise RuntimeError("a bug in the host's run")

trio.run(main)
"""


def test_a_host_whose_run_fails_removes_the_mapping_on_its_way_down(lab: Lab) -> None:
    lab.start_router()
    script = lab.tmp / "crashing_host.py"
    script.write_text(CRASHING_HOST.format(port=PORT))
    host = lab.spawn(lab.host, sys.executable, str(script), str(lab.tmp / "home"),
                     stdin=subprocess.PIPE)
    said = Output(host.stdout, host.stderr)
    said.wait_for("^mapped True$")
    assert lab.mappings() == [(PORT, f"{HOST}:{PORT}")]
    assert host.stdin is not None
    host.stdin.write("\n")
    host.stdin.flush()
    said.rest()
    assert host.wait(timeout=BOUND) == 1
    assert any("RuntimeError: a bug in the host's run" in line for line in said.lines)
    assert lab.mappings() == []


def test_after_kill_9_the_next_host_takes_the_mapping_over_rather_than_doubling_it(
    lab: Lab,
) -> None:
    lab.start_router()
    first, said = start_host(lab)
    said.wait_for(INTERNET_LINE)
    first.kill()  # kill -9: nothing of the host runs to remove it
    first.wait(timeout=BOUND)
    assert lab.mappings() == [(PORT, f"{HOST}:{PORT}")]  # left behind, until its lease ends

    second, said = start_host(lab)
    line = router_said(said)
    assert "taken over from a host that stopped without removing it" in line
    said.wait_for(INTERNET_LINE)
    assert lab.mappings() == [(PORT, f"{HOST}:{PORT}")]  # one, not two
    leases = (lab.tmp / "leases").read_text().splitlines()
    assert [entry.split(":")[:4] for entry in leases] == [["TCP", str(PORT), HOST, str(PORT)]]
    assert stop(second, said, signal.SIGINT) == 130
    assert lab.mappings() == []


def test_q_at_the_host_players_table_removes_the_mapping_and_says_so(lab: Lab) -> None:
    lab.start_router()
    term = Terminal(lab.tmp, lab.command_line(lab.host, "host", "--port", str(PORT), "--bots",
                                              "1", "--name", "Hosta"))
    try:
        term.wait_text(f"unonet join {PUBLIC}:{PORT} --pin ")  # the lobby's line to copy
        assert lab.mappings() == [(PORT, f"{HOST}:{PORT}")]
        term.keys("q")
        term.wait_text("leaving ends it for everyone")
        term.keys("y")
        term.wait_text("UNONET-EXIT=0")
        said = term._tmux("capture-pane", "-p", "-J", "-t", term.name)
        assert f"router: the forwarding of port {PORT} from {PUBLIC} is removed" in said
        assert lab.mappings() == []
    finally:
        term.close()


def test_closing_the_terminal_of_the_host_who_plays_removes_the_mapping(lab: Lab) -> None:
    lab.start_router()
    term = Terminal(lab.tmp, lab.command_line(lab.host, "host", "--port", str(PORT), "--name",
                                              "Hosta"))
    try:
        term.wait_text(f"unonet join {PUBLIC}:{PORT} --pin ")  # the lobby's line to copy
        assert lab.mappings() == [(PORT, f"{HOST}:{PORT}")]
    finally:
        term.close()  # the terminal is gone: SIGHUP
    lab.wait_mappings([])


def test_no_router_answering_is_one_line_with_what_to_do_and_the_host_serves_on(
    lab: Lab,
) -> None:
    host, said = start_host(lab)  # no miniupnpd: nothing answers the search
    assert router_said(said) == (
        f"router: no UPnP router answered within 5 s, so friends outside your network cannot "
        f"reach this host: forward TCP port {PORT} to {HOST} by hand in your router's "
        "settings (or turn UPnP on there)")
    assert host.poll() is None
    assert not any("Traceback" in line for line in said.lines)
    check = lab.unonet(lab.host, "host", "--check", "--port", str(PORT))
    out, _ = check.communicate(timeout=BOUND)
    assert check.returncode == 1 and "router: no UPnP router answered within 5 s" in out
    assert stop(host, said, signal.SIGINT) == 130


def test_a_refused_mapping_is_one_line_with_what_to_do(lab: Lab) -> None:
    lab.start_router([f"deny {PORT} 10.77.0.0/24 {PORT}"])
    host, said = start_host(lab)
    assert router_said(said) == (
        f"router: the router at 10.77.0.1 refused to forward port {PORT} (Action not "
        f"authorized): forward TCP port {PORT} to {HOST} by hand in your router's settings, "
        "or allow UPnP for this machine there")
    assert lab.mappings() == []
    assert stop(host, said, signal.SIGINT) == 130


def test_a_port_another_machine_has_mapped_is_said_and_left_alone(lab: Lab) -> None:
    lab.start_router()
    lab.map_from_neighbour(PORT, "another game")
    host, said = start_host(lab)
    assert router_said(said) == (
        f"router: port {PORT} on the router at 10.77.0.1 already leads to {NEIGHBOUR} "
        f"(another game): host on another port (--port {PORT + 1}) or free it in the "
        "router's settings")
    check = lab.unonet(lab.host, "host", "--check", "--port", str(PORT))
    out, _ = check.communicate(timeout=BOUND)
    assert check.returncode == 1 and f"forwarded to {NEIGHBOUR}:{PORT}" in out
    assert stop(host, said, signal.SIGINT) == 130
    assert lab.mappings() == [(PORT, f"{NEIGHBOUR}:{PORT}")]  # the neighbour's, untouched


def test_a_router_behind_carrier_grade_nat_is_said_plainly(make_lab: Callable[..., Lab]) -> None:
    lab = make_lab(CGNAT_PUBLIC)
    lab.start_router()
    host, said = start_host(lab)
    line = router_said(said)
    assert line.startswith(f"router: the router at 10.77.0.1 cannot open port {PORT} to the "
                           "internet: it has no public internet address")
    assert "carrier-grade NAT" in line and "ask your provider for a public IPv4 address" in line
    assert lab.mappings() == []
    assert stop(host, said, signal.SIGINT) == 130


RENEWING_HOST = """
import sys

import trio

from host.igd import PortMapper
from host.port_lease import RouterNews, hold_port_mapping


async def main() -> None:
    lapsing = PortMapper({other}, lease={lease})
    print("lapsing", await trio.to_thread.run_sync(lambda: lapsing.map(None)), flush=True)
    news = RouterNews()
    await hold_port_mapping(PortMapper({port}, lease={lease}), news, lambda: print(
        "answered", news.outcome, flush=True), lan_hint=None, renew_every={lease} / 4)

trio.run(main)
"""


def test_the_lease_is_renewed_while_the_host_runs_and_lapses_when_it_is_not(lab: Lab) -> None:
    """Two mappings with a lease of 4 s: the host's, renewed every second, outlives the one
    made once and left to lapse (miniupnpd drops that one when its lease ends)."""
    lab.start_router()
    script = lab.tmp / "renewing_host.py"
    script.write_text(RENEWING_HOST.format(port=PORT, other=PORT + 1, lease=4))
    host = lab.spawn(lab.host, sys.executable, str(script))
    said = Output(host.stdout, host.stderr)
    said.wait_for("^answered Mapped")
    assert said.wait_for("^lapsing (.*)").group(1).startswith("Mapped")
    assert lab.mappings() == [(PORT + 1, f"{HOST}:{PORT + 1}"), (PORT, f"{HOST}:{PORT}")]
    lab.wait_mappings([(PORT, f"{HOST}:{PORT}")])  # the one left alone lapsed: 4 s passed
    assert host.poll() is None
    assert stop(host, said, signal.SIGINT) != 0
    assert lab.mappings() == []


def test_where_namespaces_cannot_be_made_these_tests_skip_and_say_why(tmp_path: Path) -> None:
    """A user namespace's root may not make network namespaces: the run skips them with the
    reason (CI without the permission counts them, .ci/run)."""
    reason = unavailable()
    if reason is not None:
        pytest.skip(f"already skipping here: {reason}")
    import shutil

    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) to drop the permission with")
    run = subprocess.run(
        ["unshare", "-U", "-r", sys.executable, "-m", "pytest", __file__, "-n0",
         "-p", "no:cacheprovider", "-k", "sigterm", f"--basetemp={tmp_path / 'inner'}"],
        capture_output=True, text=True, timeout=BOUND)
    if "Operation not permitted" in run.stderr and run.returncode != 0 and not run.stdout:
        pytest.skip(f"unshare -U is refused here: {run.stderr.strip()}")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 skipped" in run.stdout
    assert "no network namespaces here: cannot make a network namespace" in run.stdout
