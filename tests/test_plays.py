"""The turn's look-up tables answer what `matches` and the Play rules would answer."""

from __future__ import annotations

import pytest

from unonet.actions import Play
from unonet.cards import ALL_COLORS, Color, classic_manifest
from unonet.matching import matches
from unonet.plays import PlayTable, play_table


@pytest.mark.parametrize("colors", [4, 6])
def test_matching_sets_equal_matches_for_every_top_and_colour(colors: int) -> None:
    manifest = classic_manifest(colors=colors, buzzers=True)
    table = PlayTable(manifest, 0, ALL_COLORS[:colors])
    for top, top_spec in enumerate(manifest.cards):
        for active in (*ALL_COLORS[:colors], None):
            expected = {
                card.id for card in manifest.cards
                if matches(card.faces[0], top_spec.faces[0], active)
            }
            assert table.matching(top, active) == expected


def test_plays_name_every_colour_for_a_wild_and_none_otherwise() -> None:
    manifest = classic_manifest()
    table = PlayTable(manifest, 0, ALL_COLORS[:4])
    wild = next(c.id for c in manifest.cards if c.faces[0].is_wild)
    red_five = next(c.id for c in manifest.cards if c.faces[0].code == "r5")
    assert table.plays[red_five] == (Play(red_five),)
    assert table.plays_with_uno[red_five] == (Play(red_five), Play(red_five, uno=True))
    assert [p.color for p in table.plays[wild]] == [
        Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE
    ]
    assert len(table.plays_with_uno[wild]) == 8


def test_tables_are_shared_per_manifest_side_and_colours() -> None:
    manifest = classic_manifest()
    first = play_table(manifest, 0, ALL_COLORS[:4])
    assert play_table(manifest, 0, ALL_COLORS[:4]) is first
    assert play_table(classic_manifest(colors=5), 0, ALL_COLORS[:5]) is not first
