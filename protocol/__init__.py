"""Protocol v1 of unonet, sans-IO: bytes in, typed values out, and no sockets, clocks or trio.

The wire half: `limits` (every limit), `errors` (stable codes, which are fatal), `frames`
(length-prefixed msgpack and the incremental FrameDecoder), `profile` (what a frame may hold),
`schema` and `messages` (the message catalogue), `wire_codecs` (a value's codec on the wire),
`game_codec` (engine actions, events and views on the wire), `versions`, `state` (the
connection state machine), `keepalive`, `ratelimit`, and the two ends of a connection:
`client_session.ClientSession` and `host_connection.HostConnection`. The trust half
(commitments, shuffle, audit) is `trust`; `trust_hook` plugs its verifier into a client session.
SPEC.md is the contract.
"""
