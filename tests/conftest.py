"""Every test checks what the host sends (host/settings.py ConnectionLimits.check_outgoing):
set before any host module is imported, and inherited by the hosts tests start as processes."""

import os

os.environ["UNONET_CHECK_OUTGOING"] = "1"
