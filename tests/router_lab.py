"""A home network made of Linux network namespaces, with Debian's miniupnpd as its router: the
real UPnP IGD daemon, forwarding ports with real nftables rules, for the tests of
`unonet host`'s port mapping (tests/test_host_router.py). Nothing here stands in for anything.

    LAN side                     router                       internet side
    host      10.77.0.2 ──┐      br0 10.77.0.1  (miniupnpd)
    neighbour 10.77.0.3 ──┴──    wan0 11.48.0.1  ─────────    friend 11.48.0.2

The router's internet address is an address of the lab's own namespaces: they have no link to
this machine's interfaces, so no packet of the tests leaves them. (miniupnpd refuses the
documentation ranges, 192.0.2.0/24 and the like, as "reserved": a router with such an address
cannot forward anything, which is the carrier-grade NAT case, made with 100.64.48.1.)

Root makes namespaces with `ip netns`; where that is refused (no permission, no iproute2,
nftables or miniupnpd), `unavailable()` says why and the tests skip with that reason.
"""

from __future__ import annotations

import itertools
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

REPO = Path(__file__).resolve().parents[1]
BOUND = 60.0
"""Seconds any one step may take: a loaded CI machine is slow, not wrong."""

ROUTER_LAN = "10.77.0.1"
HOST = "10.77.0.2"
NEIGHBOUR = "10.77.0.3"
PUBLIC = "11.48.0.1"
FRIEND = "11.48.0.2"
CGNAT_PUBLIC = "100.64.48.1"
"""Carrier-grade NAT's shared space (RFC 6598): what a router behind one is given."""
MINIUPNPD = "/usr/sbin/miniupnpd"

ROUTER_RULES = """
table inet filter {
  chain forward {
    type filter hook forward priority 0; policy drop;
    ct state established,related accept
    iifname "br0" accept
    jump miniupnpd
  }
  chain miniupnpd {
  }
  chain prerouting {
    type nat hook prerouting priority -100; policy accept;
    jump prerouting_miniupnpd
  }
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
    jump postrouting_miniupnpd
    oifname "wan0" masquerade
  }
  chain prerouting_miniupnpd {
  }
  chain postrouting_miniupnpd {
  }
}
"""
"""A home router's firewall: the LAN goes out (masqueraded), nothing comes in but answers and
what miniupnpd opens (its chains, named as its nftables backend expects them)."""

_labs = itertools.count()


def unavailable() -> str | None:
    """Why this machine cannot run the lab (None: it can)."""
    if os.geteuid() != 0:
        return "network namespaces need root (ip netns)"
    for tool in ("ip", "nft", "tmux"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install iproute2 nftables tmux)"
    if not Path(MINIUPNPD).exists():
        return "miniupnpd is not installed (apt-get install miniupnpd miniupnpd-nftables)"
    probe = f"u48probe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot make a network namespace: {made.stderr.strip() or made.returncode}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def sh(*command: str) -> str:
    result = subprocess.run(command, capture_output=True, text=True, timeout=BOUND)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {result.stderr.strip()}")
    return result.stdout


class Output:
    """The lines a child process writes, read by threads as they come, so that a test waits
    for a line with a bound instead of blocking on a pipe."""

    def __init__(self, *streams: IO[str] | None) -> None:
        self.lines: list[str] = []
        self._new: queue.Queue[str | None] = queue.Queue()
        self._open = 0
        for stream in streams:
            if stream is not None:
                self._open += 1
                threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self._new.put(line.rstrip("\n"))
        self._new.put(None)

    def wait_for(self, pattern: str, bound: float = BOUND) -> re.Match[str]:
        """The first line (seen or to come) that matches `pattern`."""
        for line in self.lines:
            if found := re.search(pattern, line):
                return found
        deadline = time.monotonic() + bound
        while True:
            try:
                got = self._new.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"never saw {pattern!r} within {bound} s; saw:\n"
                                     + "\n".join(self.lines)) from None
            if got is None:
                self._open -= 1
                if self._open == 0:
                    raise AssertionError(f"the process ended without {pattern!r}; it said:\n"
                                         + "\n".join(self.lines))
                continue
            self.lines.append(got)
            if found := re.search(pattern, got):
                return found

    def rest(self, bound: float = BOUND) -> list[str]:
        """Every line until the process closes its streams."""
        deadline = time.monotonic() + bound
        while self._open:
            line = self._new.get(timeout=max(0.0, deadline - time.monotonic()))
            if line is None:
                self._open -= 1
            else:
                self.lines.append(line)
        return self.lines


class Lab:
    """The namespaces, their links and addresses, the router's firewall; `start_router` runs
    miniupnpd in it; `close` ends what the lab started and deletes the namespaces."""

    def __init__(self, tmp: Path, public: str = PUBLIC) -> None:
        self.tmp = tmp
        tmp.mkdir(parents=True, exist_ok=True)
        self.public = public
        tag = f"u48-{os.getpid()}-{next(_labs)}"
        self.router, self.host, self.neighbour, self.friend = (
            f"{tag}-router", f"{tag}-host", f"{tag}-neighbour", f"{tag}-friend")
        self.processes: list[subprocess.Popen[str]] = []
        self.namespaces: list[str] = []
        self.router_log: Output | None = None
        try:
            self._build()
        except BaseException:
            self.close()
            raise

    def _build(self) -> None:
        for name in (self.router, self.host, self.neighbour, self.friend):
            sh("ip", "netns", "add", name)
            self.namespaces.append(name)
            sh("ip", "-n", name, "link", "set", "lo", "up")
        router = self.router
        sh("ip", "-n", router, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        sh("ip", "-n", router, "addr", "add", f"{ROUTER_LAN}/24", "dev", "br0")
        sh("ip", "-n", router, "link", "set", "br0", "up")
        for port, name, address in (("lanhost", self.host, HOST),
                                     ("lanneigh", self.neighbour, NEIGHBOUR)):
            sh("ip", "link", "add", port, "netns", router, "type", "veth", "peer", "name",
               "eth0", "netns", name)
            sh("ip", "-n", router, "link", "set", port, "master", "br0", "up")
            sh("ip", "-n", name, "addr", "add", f"{address}/24", "dev", "eth0")
            sh("ip", "-n", name, "link", "set", "eth0", "up")
            sh("ip", "-n", name, "route", "add", "default", "via", ROUTER_LAN)
        base = self.public.rpartition(".")[0]
        sh("ip", "link", "add", "wan0", "netns", router, "type", "veth", "peer", "name", "eth0",
           "netns", self.friend)
        sh("ip", "-n", router, "addr", "add", f"{self.public}/24", "dev", "wan0")
        sh("ip", "-n", router, "link", "set", "wan0", "up")
        sh("ip", "-n", self.friend, "addr", "add", f"{base}.2/24", "dev", "eth0")
        sh("ip", "-n", self.friend, "link", "set", "eth0", "up")
        sh("ip", "netns", "exec", router, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        rules = self.tmp / "router.nft"
        rules.write_text(ROUTER_RULES)
        sh("ip", "netns", "exec", router, "nft", "-f", str(rules))

    @property
    def friend_address(self) -> str:
        return self.public.rpartition(".")[0] + ".2"

    def start_router(self, permissions: Sequence[str] = ()) -> None:
        """miniupnpd as the router's UPnP IGD, in secure mode (a machine maps ports to itself
        only), with `permissions` (its allow/deny lines) before the usual allow of the LAN."""
        conf = self.tmp / "miniupnpd.conf"
        conf.write_text("\n".join([
            "ext_ifname=wan0", "listening_ip=br0", "http_port=5555", "enable_natpmp=no",
            "enable_upnp=yes", "secure_mode=yes", "system_uptime=no",
            "uuid=3d3cec3a-8cf0-11e0-98ee-001a6bd2d07b",
            f"lease_file={self.tmp / 'leases'}",
            *permissions,
            "allow 1024-65535 10.77.0.0/24 1024-65535",
            "deny 0-65535 0.0.0.0/0 0-65535", ""]))
        daemon = self.spawn(self.router, MINIUPNPD, "-d", "-f", str(conf), "-P",
                            str(self.tmp / "miniupnpd.pid"))
        self.router_log = Output(daemon.stdout, daemon.stderr)
        self.router_log.wait_for("HTTP listening on port")

    def spawn(self, namespace: str, *command: str, home: Path | None = None,
              stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen[str]:
        """`command` run in `namespace`, its output piped; ended with the lab."""
        env = {key: value for key, value in os.environ.items() if key != "UNONET_NO_UPNP"}
        if home is not None:
            env.update(UNONET_HOME=str(home), XDG_CONFIG_HOME=str(home),
                       XDG_STATE_HOME=str(home))
        process = subprocess.Popen(
            ["ip", "netns", "exec", namespace, *command], cwd=REPO, env=env, stdin=stdin,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.processes.append(process)
        return process

    def unonet(self, namespace: str, *args: str, home: str = "home") -> subprocess.Popen[str]:
        """`unonet ARGS` run in `namespace` as a user would (its own config dir), asking
        routers (the suite's UNONET_NO_UPNP is not passed on)."""
        return self.spawn(namespace, sys.executable, "-m", "unonet.cli", *args,
                          home=self.tmp / home)

    def command_line(self, namespace: str, *args: str, home: str = "home") -> str:
        """The shell command for `unonet ARGS` in `namespace`, for a terminal (tmux)."""
        words = ["env", "-u", "UNONET_NO_UPNP", f"UNONET_HOME={self.tmp / home}", "ip",
                 "netns", "exec", namespace, sys.executable, "-m", "unonet.cli", *args]
        return " ".join(words)

    def mappings(self) -> list[tuple[int, str]]:
        """What the router forwards now, as its firewall does it: (public port, to where), one
        entry per rule miniupnpd wrote."""
        chain = sh("ip", "netns", "exec", self.router, "nft", "list", "chain", "inet",
                   "filter", "prerouting_miniupnpd")
        return [(int(port), to) for port, to in
                re.findall(r"dport (\d+) dnat ip to ([\d.]+:\d+)", chain)]

    def wait_mappings(self, expected: list[tuple[int, str]],
                      bound: float = BOUND) -> list[tuple[int, str]]:
        """The router's mappings once they are `expected` (a stopping host removes its own a
        moment after its process is told to stop), or AssertionError after `bound`."""
        deadline = time.monotonic() + bound
        while (found := self.mappings()) != expected:
            if time.monotonic() > deadline:
                raise AssertionError(f"the router forwards {found}, not {expected}")
            time.sleep(0.1)
        return found

    def map_from_neighbour(self, port: int, description: str) -> None:
        """Another machine of the LAN maps `port` to itself, with miniupnpc as any program
        would: the port is then taken."""
        script = ("import miniupnpc, sys; u = miniupnpc.UPnP(); u.discoverdelay = 1500; "
                  "u.discover(); u.selectigd(); "
                  f"u.addportmapping({port}, 'TCP', u.lanaddr, {port}, {description!r}, '', 0)")
        neighbour = self.spawn(self.neighbour, sys.executable, "-c", script)
        _, err = neighbour.communicate(timeout=BOUND)
        assert neighbour.returncode == 0, err

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=BOUND)
        for name in self.namespaces:
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
