"""What the host makes of the router's answers, without a router (issue 48): the decisions
(host/portmap.py judge), the one line for each outcome, the join line that leads with the public
address and says which address to send to whom (on stdout and in every client's chat), and the
command line's choice of asking the router at all. The router itself is in
tests/test_host_router.py (miniupnpd in network namespaces)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from test_client_join_line import lobby_join_lines

from client.link_session import LinkSession
from host.port_lease import RouterNews
from host.portmap import (
    Existing,
    Mapped,
    NotMapped,
    RouterReport,
    Take,
    Why,
    check_lines,
    is_public,
    judge,
    quoted,
    refusal,
    router_address,
    router_line,
)
from host.run import (
    HostOptions,
    ServedHost,
    describe,
    host_record,
    join_line,
    join_notice,
    resume_flags,
)
from host.table import host_notice
from protocol.fingerprint import short_pin
from protocol.host_connection import HostConnection
from unonet.cli import asks_router, build_parser, take_recorded_options

FINGERPRINT = "WSBO-67FC-QF2C-UEVD-SUST-CHUQ-NJCL-5456-VXT5-ZR27-F5F4-PPME-T2IA"
LAN = "192.168.1.20"
PUBLIC = "11.48.0.1"


def mapped_host(*addresses: str, fingerprint: str | None = FINGERPRINT) -> ServedHost:
    served = ServedHost(7077, fingerprint, Path("/tmp"), addresses or (LAN,))
    served.router.heard(Mapped(7077, PUBLIC, LAN, "192.168.1.1"))
    return served


def test_a_public_address_is_one_friends_on_the_internet_can_reach() -> None:
    assert is_public(PUBLIC) and is_public("2a00:1450::1")
    for address in ("192.168.1.1", "10.0.0.1", "172.16.0.1", "100.64.48.1", "127.0.0.1",
                    "0.0.0.0", "", "garbage", "fd00::1", "192.0.2.1"):
        assert not is_public(address), address


def test_the_judgement_of_what_the_router_said() -> None:
    assert judge(7077, LAN, PUBLIC, None) == Take(replacing=False)
    ours = Existing(LAN, 7077, "unonet host", 100)
    assert judge(7077, LAN, PUBLIC, ours) == Take(replacing=True)  # a killed host's: taken over
    for other in (Existing("192.168.1.30", 7077, "unonet host"),  # another machine's host
                  Existing(LAN, 8000, "unonet host"),  # this machine, another port
                  Existing(LAN, 7077, "some other program")):
        verdict = judge(7077, LAN, PUBLIC, other)
        assert isinstance(verdict, NotMapped) and verdict.why is Why.TAKEN
        assert verdict.holder == other
    for private in ("100.64.48.1", "", "0.0.0.0", "192.168.0.2"):  # first: a mapping is no use
        verdict = judge(7077, LAN, private, ours)
        assert isinstance(verdict, NotMapped) and verdict.why is Why.NO_PUBLIC
    assert refusal(7077, LAN, "ConflictInMappingEntry").why is Why.TAKEN
    assert refusal(7077, LAN, "Action not authorized").why is Why.REFUSED
    assert router_address("http://10.77.0.1:5555/ctl/IPConn") == "10.77.0.1"
    assert router_address("http://[fe80::1]:5000/ctl") == "fe80::1"


def test_each_outcome_is_one_line_that_says_what_to_do() -> None:
    lines = {
        "mapped": router_line(Mapped(7077, PUBLIC, LAN, "192.168.1.1")),
        "no router": router_line(NotMapped(Why.NO_ROUTER, 7077, LAN)),
        "refused": router_line(NotMapped(Why.REFUSED, 7077, LAN, "192.168.1.1",
                                         "Action not authorized")),
        "taken": router_line(NotMapped(Why.TAKEN, 7077, LAN, "192.168.1.1", holder=Existing(
            "192.168.1.30", 7077, "another game"))),
        "taken here": router_line(NotMapped(Why.TAKEN, 7077, LAN, "192.168.1.1",
                                            holder=Existing(LAN, 9000, ""))),
        "cgnat": router_line(NotMapped(Why.NO_PUBLIC, 7077, LAN, "192.168.1.1",
                                       public="100.64.0.7")),
        "failed": router_line(NotMapped(Why.FAILED, 7077, LAN, "192.168.1.1", "timed out")),
    }
    for name, line in lines.items():
        assert line.startswith("router: ") and "\n" not in line, name
    assert f"forwarded to this machine ({LAN})" in lines["mapped"]
    by_hand = f"forward TCP port 7077 to {LAN} by hand in your router's settings"
    for name in ("no router", "refused", "failed"):
        assert by_hand in lines[name], name
    assert "(Action not authorized)" in lines["refused"]
    assert "already leads to 192.168.1.30 (another game)" in lines["taken"]
    assert "--port 7078" in lines["taken"]
    assert "already leads to port 9000 of this machine (no description)" in lines["taken here"]
    assert "its internet address 100.64.0.7 is not a public one" in lines["cgnat"]
    assert "carrier-grade NAT" in lines["cgnat"]
    unknown = router_line(NotMapped(Why.NO_ROUTER, 7077))
    assert "forward TCP port 7077 to this machine's address by hand" in unknown
    assert "--port 65534" in router_line(NotMapped(Why.TAKEN, 65535, LAN))


def test_what_a_router_says_is_quoted_without_controls_and_bounded() -> None:
    hostile = "evil\x1b[2J\u202egame" + "x" * 500
    assert quoted(hostile).startswith("evil?[2J?game") and len(quoted(hostile)) <= 60
    line = router_line(NotMapped(Why.TAKEN, 7077, LAN, "192.168.1.1",
                                 holder=Existing("192.168.1.30", 7077, hostile)))
    assert "\x1b" not in line and "\u202e" not in line
    worst = router_line(NotMapped(Why.NO_PUBLIC, 65535, "f" * 39, "f" * 39, public="f" * 39))
    for text in (router_line(NotMapped(Why.REFUSED, 65535, "f" * 39, "f" * 39, hostile)),
                 worst, line):
        fits_the_chat(text)


def fits_the_chat(text: str) -> None:
    """The host notice for `text` is within the chat's bounds (SPEC.md 8.3): the catalogue
    checks it as it is sent, and raises past them."""
    connection = HostConnection(0.0)
    connection.receive_data(LinkSession("Ana", table=0).connect(), 0.0)
    connection.welcome()
    connection.send(host_notice(text))


def test_the_join_line_leads_with_the_public_address_and_says_which_to_send_to_whom() -> None:
    served = mapped_host(LAN, "10.0.0.7")
    command = f"unonet join {PUBLIC}:7077 --pin {short_pin(FINGERPRINT)}"
    assert join_line(served) == (f"Friends on the internet join with: {command} (friends on "
                                 f"your own network: at {LAN}, 10.0.0.7)")
    lines = describe(HostOptions(upnp=True), served)
    assert f"Friends on the internet join with: {command}" in lines
    assert (f"Friends on your own network join with: unonet join {LAN}:7077 --pin "
            f"{short_pin(FINGERPRINT)} (or at 10.0.0.7)") in lines
    assert any(line.startswith(f"router: port 7077 of {PUBLIC} is forwarded") for line in lines)
    notice = join_notice(served, "en")
    assert notice["command"] == command and notice["addresses"] == f"{LAN}, 10.0.0.7"
    # every client says it in its own player's words, from the same fields: the line to copy
    # is the public address's command, on a line of its own; this network's addresses beside
    for lang, words in (("en", "Friends join with"), ("pt", "Os amigos entram com"),
                        ("it", "Gli amici entrano con")):
        said = lobby_join_lines(lang, notice)
        assert said[-1] == command and said[0].startswith(words) and LAN in said[0]


def test_without_a_mapping_the_join_line_is_as_before() -> None:
    served = ServedHost(7077, FINGERPRINT, Path("/tmp"), (LAN, "10.0.0.7"))
    assert join_line(served).startswith(f"Friends join with: unonet join {LAN}:7077 ")
    lines = describe(HostOptions(upnp=True), served)
    assert ("router: asking it to forward port 7077 to this machine (UPnP, at most 5 s; "
            "--no-upnp not to ask)") in lines
    assert not any(line.startswith("router") for line in describe(HostOptions(), served))
    # a machine with a public address of its own and others: not said as a router's
    vps = ServedHost(7077, None, Path("/tmp"), ("2a00:1450::1", "2a00:1450::2"))
    assert join_line(vps).startswith("Friends join with: ")


def test_a_stopped_host_says_whether_the_forwarding_was_removed() -> None:
    served = mapped_host()
    served.router.removed = True
    assert (f"router: the forwarding of port 7077 from {PUBLIC} is removed"
            in describe(HostOptions(upnp=True), served))
    served.router.removed = False
    assert any("could not remove the forwarding of port 7077" in line
               and "within 30 minutes" in line
               for line in describe(HostOptions(upnp=True), served))
    assert RouterNews().mapped is None


def test_check_says_what_the_router_said_and_whether_the_port_is_forwarded_here() -> None:
    ours = Existing(LAN, 7077, "unonet host", 1700)
    report = RouterReport("192.168.1.1", "http://192.168.1.1:5000/ctl", LAN, PUBLIC,
                          "Connected", "IP_Routed", ours)
    lines, forwarded = check_lines(7077, report)
    assert forwarded
    assert lines[1] == ("router: connection Connected (IP_Routed); internet address "
                        f"{PUBLIC} (public)")
    assert lines[-1] == (f"port 7077: forwarded to this machine, {LAN}:7077 (unonet host, 1700 s "
                         f"left): friends on the internet join at {PUBLIC}:7077")
    none = RouterReport("192.168.1.1", "", LAN, PUBLIC, "Connected", "IP_Routed", None)
    lines, forwarded = check_lines(7077, none)
    assert not forwarded and lines[-1].startswith("port 7077: not forwarded")
    other = RouterReport("192.168.1.1", "", LAN, PUBLIC, "Connected", "IP_Routed",
                         Existing("192.168.1.30", 7077, "game", 0))
    lines, forwarded = check_lines(7077, other)
    assert not forwarded and "forwarded to 192.168.1.30:7077 (game, until removed)" in lines[-1]
    cgnat = RouterReport("192.168.1.1", "", LAN, "100.64.0.7", "Connected", "IP_Routed", ours)
    lines, forwarded = check_lines(7077, cgnat)
    assert not forwarded and any("carrier-grade NAT" in line for line in lines)
    lines, forwarded = check_lines(7077, NotMapped(Why.NO_ROUTER, 7077, LAN))
    assert not forwarded and lines == [router_line(NotMapped(Why.NO_ROUTER, 7077, LAN))]


@pytest.mark.parametrize(("bind", "refused", "environ", "asks"), [
    (None, False, {}, True),
    ("0.0.0.0", False, {}, True),
    ("::", False, {"UNONET_NO_UPNP": "0"}, True),
    ("127.0.0.1", False, {}, False),  # bound to one address: where it is reached was chosen
    ("192.168.1.20", False, {}, False),
    (None, True, {}, False),  # --no-upnp
    (None, False, {"UNONET_NO_UPNP": "1"}, False),
])
def test_the_router_is_asked_when_the_host_listens_everywhere_unless_refused(
    bind: str | None, refused: bool, environ: dict[str, str], asks: bool,
) -> None:
    assert asks_router(bind, refused, environ) is asks


def test_no_upnp_is_kept_in_the_journal_and_in_the_command_that_carries_a_match_on() -> None:
    record = host_record(HostOptions(no_upnp=True), 7077)
    assert record["no_upnp"] is True and "--no-upnp" in resume_flags(record)
    assert "no_upnp" not in host_record(HostOptions(), 7077)
    assert "--no-upnp" not in resume_flags(host_record(HostOptions(), 7077))
    args = build_parser().parse_args(["host", "--resume", "j.jsonl"])
    take_recorded_options(args, record, "j.jsonl")
    assert args.no_upnp is True
    given: argparse.Namespace = build_parser().parse_args(["host", "--no-upnp", "--check"])
    assert given.no_upnp and given.check


def test_check_needs_a_port_and_is_not_asked_where_the_router_must_not_be(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from unonet.cli import main

    assert main(["host", "--check", "--port", "0"]) == 2
    assert "--check --port 0: name the port" in capsys.readouterr().err
    assert main(["host", "--check"]) == 2  # the suite sets UNONET_NO_UPNP (tests/conftest.py)
    assert "UNONET_NO_UPNP is set, so the router is not asked" in capsys.readouterr().err
