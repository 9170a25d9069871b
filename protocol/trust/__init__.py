"""The trust scheme (SPEC.md section 11): commitments the host makes and clients check.

Import what you need from its modules; this package imports none of them, so a module that
wants one small type (`results.RoundStatus` for a title bar) does not load the verifier, the
audit and the signatures with it. No I/O anywhere here.

- Constructions: `constants` (tags, sizes), `primitives` (hashes and derivations), `deck`
  (committed piles), `deal` (who gets which dealt position), `messages` (the trust messages
  as typed values), `results` (`Verified`, `Violation`, `ViolationKind`, `RoundStatus`).
- Host side: `host.HostCommitments` and `seed_exchange`; `signing` signs its messages.
- Client side: `verifier.TrustVerifier`, fed the trust messages and engine events with their
  proof fields; it returns `Verified` or `Violation` values and never raises for a dishonest
  host. It leans on `checked_round`, `card_checks`, `ledger`, `dark_faces`, `no_mercy`,
  `challenge`, `seed_checks`, `manifest_check`, `audit`, `referee` and `intents`.
"""
