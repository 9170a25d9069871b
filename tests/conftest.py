"""Every test checks what the host sends (host/settings.py ConnectionLimits.check_outgoing):
set before any host module is imported, and inherited by the hosts tests start as processes.
No host of theirs asks a router to forward its port (UNONET_NO_UPNP), the same way."""

import os

os.environ["UNONET_CHECK_OUTGOING"] = "1"
os.environ["UNONET_NO_UPNP"] = "1"  # no host of the suite asks this machine's real router
# (tests/test_host_router.py asks its own, in network namespaces it makes)
