"""What SPEC.md promises, tied to the tests that show it. SPEC.md names no test file (a client
author never reads our code), so the tie lives here: each row of the threat model's table
(SPEC.md 2.2) and each requirement below maps to tests that exist, and every row has some."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = (ROOT / "SPEC.md").read_text("utf-8")

THREATS: dict[str, list[str]] = {
    "choose the deck order": [
        "tests/test_trust_dishonest.py::"
        "test_a_deck_order_that_is_not_the_derived_one_is_caught_at_the_audit",
        "tests/test_trust_properties.py::test_random_keys_give_self_consistent_decks",
    ],
    "withhold an audit (a stacked deck never audited, the last round of a match included)": [
        "tests/test_trust_fairness_net.py::"
        "test_the_last_audit_withheld_is_flagged_at_its_deadline_while_the_player_stays",
        "tests/test_trust_fairness_net.py::"
        "test_unonet_bot_flags_the_withheld_last_audit_and_leaves",
        "tests/test_trust_fairness_net.py::"
        "test_a_round_s_audit_withheld_is_flagged_at_its_deadline_before_the_next_round",
        "tests/test_trust_fairness.py::"
        "test_a_round_that_ended_owes_its_audit_and_is_flagged_when_its_deadline_passes",
        "tests/test_trust_dishonest.py::"
        "test_a_stacked_deck_whose_audit_is_withheld_is_flagged_when_the_match_is_over",
        "tests/test_trust_attacks.py::test_a_stacked_deck_whose_audits_are_withheld_is_caught",
        "tests/test_trust_attacks.py::test_the_last_audit_of_a_match_withheld_is_caught",
        "tests/test_trust_attacks.py::"
        "test_the_last_audit_withheld_is_caught_when_the_table_goes_back_to_the_lobby",
    ],
    "reset the match: another `game_id` for a round, another manifest in mid-match": [
        "tests/test_trust_dishonest.py::test_a_new_game_id_for_every_unaudited_round_is_caught",
        "tests/test_trust_dishonest.py::"
        "test_a_different_manifest_in_mid_match_is_caught_and_the_same_one_is_no_news",
        "tests/test_trust_attacks.py::test_a_new_game_id_for_a_round_is_caught",
    ],
    (
        "re-deal a round: the same number again, a skipped number, a dealt round dropped "
        "for the next number"
    ): [
        "tests/test_trust_dishonest.py::test_a_second_round_prepare_is_flagged_as_a_re_deal",
        "tests/test_trust_dishonest.py::test_a_skipped_round_number_is_caught",
        "tests/test_trust_dishonest.py::"
        "test_a_round_abandoned_after_its_deal_is_caught_even_when_audited_honestly",
        "tests/test_trust_attacks.py::test_a_round_re_dealt_under_a_new_number_is_caught",
    ],
    "abandon a dealt round, audited or not (a victim down to one card)": [
        "tests/test_trust_dishonest.py::"
        "test_a_round_abandoned_in_the_middle_of_play_without_audit_is_missing_and_abandoned",
        "tests/test_trust_attacks.py::"
        "test_a_round_abandoned_when_the_victim_is_down_to_one_card_is_caught",
    ],
    (
        "grind the deck: give a round up once its seeds started coming in (after its "
        "`seed_commits`), before or without a deal, and prepare another"
    ): [
        "tests/test_trust_fairness.py::"
        "test_a_round_given_up_after_its_seeds_started_coming_in_is_caught_by_everyone",
        "tests/test_trust_fairness.py::"
        "test_a_round_given_up_after_the_reveal_without_its_audit_is_caught_at_the_next_round",
        "tests/test_trust_fairness_net.py::"
        "test_a_round_given_up_after_its_seeds_came_in_is_flagged_at_once_for_everyone",
        "tests/test_trust_fairness_net.py::"
        "test_a_round_given_up_after_the_reveal_is_a_violation_for_unonet_bot_and_audit",
    ],
    "give rounds up in their commitment phase unseen (it knows nothing of their decks then)": [
        "tests/test_trust_dishonest.py::"
        "test_a_round_abandoned_before_its_deal_is_counted_for_everyone_not_flagged",
        "tests/test_trust_fairness.py::"
        "test_a_round_given_up_in_its_commitment_phase_is_counted_not_flagged",
        "tests/test_trust_fairness_net.py::"
        "test_a_round_given_up_before_the_reveal_is_counted_never_called_audited",
    ],
    (
        "change what a player chose: the card or the cards of a run or multiple it "
        "played, the colour it named, the target of its 7 or its catch, its UNO, its "
        "answer to a challenge or a pending draw, a buzzer press, a jump-in, a draw or a "
        "pass; or accept a move and never record it"
    ): [
        "tests/test_trust_fairness.py::"
        "test_a_choice_the_host_rewrote_is_caught_by_its_player_at_the_event_that_records_it",
        "tests/test_trust_fairness.py::"
        "test_an_accepted_move_the_record_never_shows_is_caught_at_the_audit",
        "tests/test_trust_fairness_net.py::"
        "test_a_host_that_rewrites_a_swap_target_and_a_wild_s_colour_is_caught_at_once",
        "tests/test_trust_fairness_net.py::"
        "test_a_host_that_rewrites_another_choice_is_caught_at_the_event_that_records_it",
    ],
    "hand a player a card other than the committed one": [
        "tests/test_trust_dishonest.py::test_a_swapped_card_is_caught_by_its_owner_at_once",
        "tests/test_trust_properties.py::test_any_change_to_a_card_id_is_caught",
        "tests/test_trust_attacks.py::test_a_swapped_card_is_caught",
    ],
    "deal from anywhere but the top, or hand out a position twice": [
        "tests/test_trust_ledger.py::test_cards_leave_the_pile_from_the_top_only",
        "tests/test_trust_ledger.py::test_a_position_handed_out_twice_is_caught",
    ],
    "choose who gets which dealt card (a cherry-picked deal)": [
        "tests/test_trust_dishonest.py::"
        "test_a_cherry_picked_deal_is_caught_by_everyone_at_the_top_card",
        "tests/test_trust_attacks.py::test_a_cherry_picked_deal_is_caught",
    ],
    "choose the dealer: forge the dealer draw, or leave it out": [
        "tests/test_trust_every_check_named.py::"
        "test_a_forged_dealer_draw_is_a_deck_order_violation_and_an_illegal_record",
        "tests/test_trust_every_check_named.py::"
        "test_a_first_round_without_its_dealer_draw_is_illegal",
        "tests/test_trust_referee.py::"
        "test_a_host_cannot_skip_the_dealer_draw_of_a_client_there_from_the_start",
    ],
    "move hands or return cards other than the public record says (7, 0, knock-out)": [
        "tests/test_trust_movements.py::"
        "test_the_receiver_of_a_swapped_hand_catches_a_card_other_than_the_committed_one",
        "tests/test_trust_movements.py::"
        "test_a_hand_moved_from_positions_its_giver_does_not_hold_is_caught_by_everyone",
        "tests/test_trust_movements.py::test_returned_cards_come_back_in_the_order_they_went_under",
    ],
    "lie about a challenge (the hand, the colour, the verdict)": [
        "tests/test_trust_dishonest.py::"
        "test_a_lie_about_the_verdict_is_caught_by_the_challenger_and_at_the_audit",
        "tests/test_trust_dishonest.py::test_a_wrong_card_in_the_revealed_hand_is_caught",
        "tests/test_trust_attacks.py::test_a_fake_challenge_reveal_is_caught",
    ],
    "reshuffle anything but the discard pile": [
        "tests/test_trust_ledger.py::test_a_reshuffle_that_smuggles_a_card_in_is_caught",
    ],
    "doctor a face or the points of the classic deck": [
        "tests/test_trust_every_check_named.py::"
        "test_a_classic_manifest_with_a_doctored_face_is_a_violation_at_once",
        "tests/test_trust_every_check_named.py::"
        "test_a_classic_manifest_of_another_size_than_the_rules_say_is_a_violation",
    ],
    "UNO Flip: doctor a face of the deck, or name the pairing in the manifest": [
        "tests/test_trust_flip.py::"
        "test_a_flip_manifest_with_a_doctored_face_is_a_violation_at_once",
        "tests/test_trust_flip.py::"
        "test_a_flip_manifest_that_names_dark_faces_is_a_violation_at_once",
        "tests/test_trust_flip.py::test_the_light_manifest_in_another_order_is_a_violation_at_once",
    ],
    "UNO Flip: choose which dark face backs which card, or tell a false dark face": [
        "tests/test_trust_flip.py::"
        "test_a_wrong_dark_face_told_to_everybody_is_caught_by_everyone_at_the_audit",
        "tests/test_trust_flip.py::"
        "test_a_wrong_dark_face_told_to_a_seat_alone_is_caught_by_that_seat_at_the_audit",
        "tests/test_trust_flip_ledger.py::"
        "test_dark_faces_told_must_agree_with_one_another_and_with_the_deck",
    ],
    (
        "UNO Flip: show a card on the dark side, or give a seat a card, without telling "
        "its dark face"
    ): [
        "tests/test_trust_flip.py::"
        "test_a_card_played_on_the_dark_side_with_no_dark_face_told_is_caught_by_everyone_at_once",
        "tests/test_trust_flip.py::"
        "test_cards_given_without_their_dark_faces_are_caught_by_their_receiver_at_once",
        "tests/test_trust_flip_ledger.py::"
        "test_a_flip_to_the_dark_side_whose_new_top_was_not_told_is_caught_at_once",
        "tests/test_trust_flip_ledger.py::"
        "test_a_round_ending_on_the_dark_side_must_tell_every_hand_first",
    ],
    "UNO Flip: turn the table to the wrong side, or name another new top": [
        "tests/test_trust_flip.py::test_a_flipped_to_the_wrong_side_is_caught_by_everyone_at_once",
        "tests/test_trust_flip.py::"
        "test_a_flipped_naming_another_new_top_is_caught_by_everyone_at_once",
    ],
    "UNO Flip: deal from the wrong end of a turned-over pile": [
        "tests/test_trust_flip_ledger.py::"
        "test_after_a_flip_cards_come_from_the_old_bottom_of_the_draw_pile",
        "tests/test_trust_flip_ledger.py::"
        "test_returned_cards_come_first_after_a_flip_the_last_returned_first",
    ],
    (
        "UNO Flip: show a false other side of a hand or of the draw pile's top, or a hand"
        " other than the one held"
    ): [
        "tests/test_trust_flip.py::"
        "test_a_wrong_other_side_face_in_a_hand_is_caught_by_everyone_at_the_audit",
        "tests/test_trust_flip.py::"
        "test_a_wrong_face_for_the_draw_pile_s_top_is_caught_at_the_audit",
        "tests/test_trust_flip.py::"
        "test_a_hand_shown_with_a_position_its_seat_does_not_hold_is_caught_at_once",
        "tests/test_trust_flip.py::test_the_pile_s_top_shown_at_another_position_is_caught_at_once",
        "tests/test_trust_flip.py::"
        "test_a_hand_s_other_sides_left_unsent_are_flagged_by_the_referee",
    ],
    "UNO Flip: lie about a Wild Draw Two's or a Wild Draw Color's challenge": [
        "tests/test_trust_flip.py::"
        "test_a_forged_verdict_is_caught_by_the_challenger_at_once_and_by_everyone_at_the_audit",
        "tests/test_trust_flip.py::"
        "test_a_wrong_hand_digest_at_a_challengeable_card_of_either_side_is_caught",
    ],
    "No Mercy: doctor a face or the points of the deck": [
        "tests/test_trust_no_mercy.py::test_a_doctored_no_mercy_deck_is_a_violation_at_once",
    ],
    (
        "No Mercy: show a Discard All's other cards or a Color Roulette's turned cards as"
        " other cards than the committed ones, or without their nonces"
    ): [
        "tests/test_trust_no_mercy.py::"
        "test_a_forged_roulette_card_is_caught_against_its_commitment_at_once",
        "tests/test_trust_no_mercy.py::"
        "test_discarded_cards_not_of_the_discard_alls_colour_are_caught_at_once",
        "tests/test_trust_no_mercy.py::"
        "test_roulette_cards_without_their_nonces_are_a_missing_proof",
    ],
    (
        "No Mercy: turn other roulette cards than those drawn for it, or discard cards "
        "not held, of another colour or with no Discard All on top"
    ): [
        "tests/test_trust_no_mercy.py::"
        "test_roulette_cards_other_than_those_drawn_for_it_are_caught_at_once",
        "tests/test_trust_no_mercy_ledger.py",
    ],
    "No Mercy: leave a card of a Discard All's colour in its player's hand": [
        "tests/test_trust_no_mercy.py::"
        "test_a_discard_all_that_leaves_a_card_of_its_colour_in_hand_is_caught_by_the_referee",
    ],
    "No Mercy: knock a player out below the Mercy limit, or let it keep part of its hand": [
        "tests/test_trust_no_mercy.py::test_a_knock_out_below_the_mercy_limit_is_caught_at_once",
        "tests/test_trust_no_mercy_ledger.py",
    ],
    (
        "No Mercy: leave a player in at 25 cards, answer a stack with a smaller draw "
        "card, or change an escalating total"
    ): [
        "tests/test_trust_no_mercy.py::test_a_knock_out_not_done_at_25_is_caught_by_the_referee",
        "tests/test_trust_no_mercy.py::"
        "test_a_draw_two_on_a_draw_four_is_a_wrong_escalation_the_referee_refuses",
        "tests/test_trust_no_mercy.py::test_a_wrong_escalating_total_is_caught_by_the_referee",
    ],
    "drop a player's seed without anyone noticing": [
        "tests/test_trust_dishonest.py::"
        "test_a_dropped_seed_is_seen_by_every_seat_and_flagged_by_its_owner",
        "tests/test_trust_dishonest.py::"
        "test_seed_commits_without_this_players_commitment_are_flagged",
        "tests/test_trust_attacks.py::"
        "test_a_dropped_seed_is_flagged_by_its_owner_and_seen_by_everyone",
    ],
    "publish seeds other than those that made the deck, or deal before publishing them": [
        "tests/test_trust_dishonest.py::"
        "test_published_seeds_that_do_not_open_their_commitments_are_caught_by_everyone",
        "tests/test_trust_dishonest.py::"
        "test_a_deck_committed_before_the_seeds_were_published_is_caught",
        "tests/test_trust_dishonest.py::"
        "test_an_audit_that_drops_a_revealed_seed_is_caught_by_everyone",
        "tests/test_trust_every_check_named.py::"
        "test_events_before_the_seeds_were_published_are_a_seed_reveals_violation",
    ],
    "forge a round's points, the totals, the round's or the match's winner": [
        "tests/test_trust_referee.py::test_forged_round_points_are_flagged_once",
        "tests/test_trust_referee.py::test_forged_totals_are_flagged_once",
        "tests/test_trust_referee.py::test_a_forged_round_winner_is_flagged",
        "tests/test_trust_referee.py::test_a_forged_match_winner_is_flagged",
        "tests/test_trust_attacks.py::test_forged_points_and_winner_are_caught",
        "tests/test_trust_every_check_named.py::"
        "test_a_forged_elimination_or_final_total_is_illegal",
    ],
    (
        "let a player break the rules: an illegal play, a penalty not drawn, an event the"
        " rules do not give"
    ): [
        "tests/test_trust_referee.py::test_an_illegal_card_is_flagged_with_the_engines_refusal",
        "tests/test_trust_referee.py::test_a_skipped_penalty_draw_is_flagged",
        "tests/test_trust_referee.py::test_an_extra_event_is_flagged",
        "tests/test_trust_attacks.py::test_an_illegal_play_by_a_partner_is_caught",
    ],
    "change the rules in mid-match": [
        "tests/test_trust_referee.py::test_a_rule_change_in_mid_match_is_flagged",
    ],
    "blind the checks by a reconnection, or rewrite what a client already saw": [
        "tests/test_trust_attacks.py::test_a_reconnect_does_not_blind_the_checks",
        "tests/test_trust_dishonest.py::"
        "test_a_resumed_client_still_catches_a_card_swapped_after_it_came_back",
        "tests/test_trust_dishonest.py::"
        "test_a_rewritten_history_is_caught_by_a_client_that_saw_the_events",
        "tests/test_trust_dishonest.py::"
        "test_a_history_that_leaves_out_events_the_client_had_is_caught",
        "tests/test_trust_reentry.py::"
        "test_dropped_in_a_round_and_back_in_the_next_ends_with_it_audited",
        "tests/test_trust_reentry.py::"
        "test_the_rest_of_the_round_withheld_from_a_client_back_in_the_next_is_flagged",
        "tests/test_trust_reentry.py::"
        "test_the_last_round_of_a_match_blinded_by_a_cut_is_flagged_when_the_entry_ends",
        "tests/test_trust_reentry.py::"
        "test_a_round_blinded_by_a_cut_is_flagged_though_the_next_round_never_comes",
        "tests/test_trust_attacks.py::test_the_last_round_blinded_by_a_cut_is_caught",
        "tests/test_trust_reentry.py::test_a_round_withheld_from_a_connected_client_is_not_missed",
        "tests/test_trust_reentry.py::test_a_changed_prepare_of_an_earlier_round_is_a_redeal",
        "tests/test_host_trust.py::"
        "test_a_player_back_after_a_round_boundary_gets_the_rest_of_its_round_and_its_audit",
        "tests/test_client_network_resume.py::"
        "test_a_client_cut_off_in_mid_round_checks_every_card_and_the_audit_after_resuming",
        "tests/test_host_kill.py::"
        "test_a_killed_host_resumes_its_journal_and_the_match_ends_with_every_card",
    ],
    "audit other public events than it sent": [
        "tests/test_trust_dishonest.py::"
        "test_an_audit_with_a_wrong_events_digest_is_caught_by_everyone",
        "tests/test_trust_dishonest.py::"
        "test_a_public_event_told_differently_to_one_seat_breaks_its_events_digest",
    ],
    "deny a trust message it sent, or sign with a key other than its certificate's": [
        "tests/test_trust_dishonest.py::"
        "test_a_trust_message_with_a_bad_missing_or_foreign_signature_is_caught",
        "tests/test_client_link_session.py::"
        "test_on_tls_a_match_signed_by_another_key_than_the_certificate_s_is_caught",
        "tests/test_audit_cmd.py::test_a_tampered_transcript_fails",
        "tests/test_audit_cmd.py::test_a_certificate_whose_key_is_not_the_signer_fails",
    ],
}
"""Each row of SPEC.md 2.2 (its first cell) and the tests that catch that attack."""

HONEST: list[str] = [
    "tests/test_trust_properties.py::"
    "test_honest_matches_under_random_options_with_drops_and_resumes_never_flag",
    "tests/test_trust_flip.py::"
    "test_honest_flip_matches_under_the_options_that_combine_with_it_are_never_flagged",
    "tests/test_trust_referee.py::test_honest_whole_matches_under_every_preset_are_never_flagged",
    "tests/test_trust_attacks.py::test_an_honest_host_through_the_same_harness_is_never_flagged",
    "tests/test_audit_cmd.py::test_an_honest_transcript_passes_with_every_round_audited",
    "tests/test_trust_fairness.py::"
    "test_every_move_of_whole_honest_matches_is_held_to_the_record_and_holds",
    "tests/test_trust_fairness_net.py::"
    "test_bots_play_a_whole_match_of_the_official_rules_every_move_held_to_the_record",
    "tests/test_presets_network.py",
    "tests/test_flip_network.py",
    "tests/test_no_mercy_network.py",
]
"""SPEC.md 2.2: an honest host is never flagged, whatever the rules, moves, drops and
resumes."""
REQUIREMENTS: dict[str, list[str]] = {
    "[UNO-1-1]": ["tests/test_rulebook_referee.py", "tests/test_rule_vectors.py"],
    "[UNO-11-34]": [
        "tests/test_trust_every_check_named.py::"
        "test_an_empty_hands_challenge_reveal_carries_no_nonce_and_is_no_violation",
        "tests/test_trust_every_check_named.py::"
        "test_a_card_in_a_reveal_without_its_nonce_is_a_missing_proof",
    ],
    "[UNO-11-48]": [
        "tests/test_trust_fairness.py::"
        "test_a_round_given_up_after_its_seeds_started_coming_in_is_caught_by_everyone",
        "tests/test_trust_fairness.py::"
        "test_a_round_given_up_in_its_commitment_phase_is_counted_not_flagged",
        "tests/test_trust_fairness_net.py::"
        "test_a_round_given_up_after_its_seeds_came_in_is_flagged_at_once_for_everyone",
        "tests/test_host_resume.py::"
        "test_a_round_stopped_in_its_reveal_phase_goes_on_and_is_dealt_under_its_number",
    ],
    "[UNO-11-49]": ["tests/test_trust_vectors.py"],
    "[UNO-11-22]": [
        "tests/test_trust_every_check_named.py::"
        "test_a_classic_manifest_with_a_doctored_face_is_a_violation_at_once",
        "tests/test_trust_every_check_named.py::test_the_rules_own_classic_deck_is_no_violation",
    ],
    "[UNO-11-47]": [
        "tests/test_trust_fairness_net.py::"
        "test_a_round_given_up_before_the_reveal_is_counted_never_called_audited",
        "tests/test_trust_fairness_net.py::"
        "test_a_round_given_up_after_the_reveal_is_a_violation_for_unonet_bot_and_audit",
        "tests/test_trust_fairness_net.py::"
        "test_the_last_audit_withheld_is_flagged_at_its_deadline_while_the_player_stays",
        "tests/test_client_render.py::"
        "test_a_violation_stays_in_the_title_until_the_panel_was_opened",
    ],
    "[UNO-11-50]": [
        "tests/test_trust_dishonest.py::"
        "test_a_history_that_leaves_out_events_the_client_had_is_caught",
    ],
    "[UNO-11-51]": [
        "tests/test_host_resume.py::"
        "test_a_seat_away_from_before_a_restart_to_after_it_finds_every_round_numbered_and_audited",
        "tests/test_host_resume.py::"
        "test_a_resumed_host_sends_an_entrant_the_earlier_rounds_as_the_host_that_never_stopped",
        "tests/test_host_resume.py::"
        "test_a_round_abandoned_by_one_restart_keeps_its_place_after_the_next",
        "tests/test_host_kill.py::"
        "test_a_killed_host_resumes_its_journal_and_the_match_ends_with_every_card[interval]",
    ],
    "[UNO-11-54]": ["tests/test_trust_attacks.py", "tests/test_audit_cmd.py"],
    "[UNO-11-53]": [
        "tests/test_host_take_seat.py", "tests/test_trust_take_seat.py",
        "tests/test_host_take_seat.py::"
        "test_a_newcomer_cut_off_after_taking_a_seat_resumes_it_and_is_not_flagged",
    ],
    "[UNO-11-12]": [
        "tests/test_host_resume.py::"
        "test_a_round_stopped_in_its_reveal_phase_goes_on_and_is_dealt_under_its_number",
        "tests/test_trust_fairness.py::"
        "test_a_round_given_up_after_its_seeds_started_coming_in_is_caught_by_everyone",
        "tests/test_trust_fairness_net.py::"
        "test_a_round_given_up_after_its_seeds_came_in_is_flagged_at_once_for_everyone",
    ],
    "[UNO-11-36]": [
        "tests/test_trust_fairness.py::"
        "test_a_choice_the_host_rewrote_is_caught_by_its_player_at_the_event_that_records_it",
        "tests/test_trust_fairness.py::"
        "test_an_accepted_move_the_record_never_shows_is_caught_at_the_audit",
        "tests/test_trust_fairness.py::test_a_spectator_has_no_intents_to_check",
        "tests/test_trust_fairness.py::"
        "test_every_move_of_whole_honest_matches_is_held_to_the_record_and_holds",
        "tests/test_trust_fairness_net.py::"
        "test_a_host_that_rewrites_a_swap_target_and_a_wild_s_colour_is_caught_at_once",
        "tests/test_trust_fairness_net.py::"
        "test_a_host_that_rewrites_another_choice_is_caught_at_the_event_that_records_it",
        "tests/test_trust_vectors.py",
    ],
    "[UNO-11-42]": [
        "tests/test_trust_fairness.py::"
        "test_a_round_given_up_after_its_seeds_started_coming_in_is_caught_by_everyone",
        "tests/test_trust_fairness.py::"
        "test_an_entrant_who_saw_only_the_audit_still_catches_a_round_given_up_with_seeds_in",
        "tests/test_trust_fairness.py::"
        "test_a_round_given_up_in_its_commitment_phase_is_counted_not_flagged",
        "tests/test_trust_dishonest.py::"
        "test_a_round_abandoned_after_its_deal_is_caught_even_when_audited_honestly",
        "tests/test_trust_vectors.py",
    ],
    "[UNO-11-45]": [
        "tests/test_trust_fairness.py::"
        "test_a_round_that_ended_owes_its_audit_and_is_flagged_when_its_deadline_passes",
        "tests/test_trust_fairness.py::test_a_round_in_play_owes_no_audit_yet",
        "tests/test_trust_fairness_net.py::"
        "test_the_last_audit_withheld_is_flagged_at_its_deadline_while_the_player_stays",
        "tests/test_trust_fairness_net.py::"
        "test_a_round_s_audit_withheld_is_flagged_at_its_deadline_before_the_next_round",
        "tests/test_trust_fairness_net.py::"
        "test_unonet_bot_flags_the_withheld_last_audit_and_leaves",
    ],
    "[UNO-11-46]": [
        "tests/test_trust_fairness.py::"
        "test_an_overdue_audit_never_sent_is_said_once_when_the_match_is_over",
        "tests/test_trust_fairness.py::"
        "test_a_round_given_up_after_the_reveal_without_its_audit_is_caught_at_the_next_round",
        "tests/test_trust_dishonest.py::"
        "test_a_round_abandoned_in_the_middle_of_play_without_audit_is_missing_and_abandoned",
    ],
    "[UNO-11-27]": [
        "tests/test_trust_every_check_named.py::"
        "test_events_before_the_seeds_were_published_are_a_seed_reveals_violation",
    ],
    "[UNO-11-44]": [
        "tests/test_trust_every_check_named.py::test_a_forged_elimination_or_final_total_is_illegal",
        "tests/test_trust_every_check_named.py::test_a_first_round_without_its_dealer_draw_is_illegal",
    ],
}
"""Requirements whose tests SPEC.md once named beside them, and those this tie was made for."""


def threat_rows() -> list[str]:
    section = re.search(r"^### 2\.2 .*?(?=^### |^## )", SPEC, re.S | re.M)
    assert section, "SPEC.md has no section 2.2"
    rows = re.findall(r"^\| (.+?) \| .+ \|$", section.group(0), re.M)
    header = ("---", "A dishonest host cannot, without being caught")
    return [row for row in rows if row not in header]


@cache
def functions(path: str) -> set[str]:
    tree = ast.parse((ROOT / path).read_text("utf-8"))
    kinds = ast.FunctionDef | ast.AsyncFunctionDef
    return {node.name for node in tree.body if isinstance(node, kinds)}


def exists(test: str) -> bool:
    path, _, name = test.partition("::")
    if not (ROOT / path).is_file():
        return False
    return not name or name.split("[")[0] in functions(path)


def defined(label: str) -> bool:
    """`label` is a requirement of SPEC.md (not only a reference: ", [UNO-..]" cites one)."""
    return re.search(rf"(?<!, ){re.escape(label)}", SPEC) is not None


def test_every_requirement_tied_here_is_in_spec() -> None:
    assert [label for label in REQUIREMENTS if not defined(label)] == []


def test_every_row_of_the_threat_model_has_tests_and_no_other_row_does() -> None:
    assert threat_rows() == list(THREATS)
    assert all(THREATS.values())


NAMED = sorted(
    {test for tests in [*THREATS.values(), *REQUIREMENTS.values()] for test in tests} | set(HONEST)
)


@pytest.mark.parametrize("test", NAMED)
def test_each_test_named_exists(test: str) -> None:
    assert exists(test), test
