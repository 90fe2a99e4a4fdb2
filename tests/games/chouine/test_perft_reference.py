"""The perft counts of ``endgames.perft`` recounted by a small independent implementation written
straight from rules/chouine.md §4.1, §4.3, §5 and §9, so that the pinned numbers (which the
conformance suite checks against the engine) are not merely what the engine happened to say.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_contract import Perft, read_perft
from veillee.games.chouine import rules

STRENGTH = "789JQKTA"
ENDGAMES = read_perft("chouine", Path(__file__).parent / "endgames.perft")


def legal_follow(hand: list[str], lead: str, trump: str) -> list[str]:
    """rules §4.3, as written there."""
    same = [c for c in hand if c[1] == lead[1]]
    if same:
        if lead[1] == trump:
            higher = [c for c in same if STRENGTH.index(c[0]) > STRENGTH.index(lead[0])]
            return higher or same
        return same
    trumps = [c for c in hand if c[1] == trump]
    return trumps or hand


def options(hand: list[str], card: str, declared: set[str]) -> list[str]:
    """Declarations ``card`` can carry (rules §5.2; ``declared`` holds suits and "quinte")."""
    out = []
    suit = card[1]
    if suit not in declared:
        held = {c[0] for c in hand if c[1] == suit}
        for kind, ranks in (("mariage", "KQ"), ("tierce", "KQJ"), ("quateron", "AKQJ")):
            if set(ranks) <= held and card[0] in ranks:
                out.append(kind)
        if len(hand) == 5 and held == set("ATKQJ"):
            out.append("chouine")
    five_brisques = len(hand) == 5 and all(c[0] in "AT" for c in hand)
    if "quinte" not in declared and card[0] in "AT" and five_brisques:
        out.append("quinte")
    return out


def reference_count(
    hands: list[list[str]], leader: int, trump: str, k: int, declared: list[set[str]]
) -> int:
    """Sequences from the start of trick ``k`` (phase 2), leader ``leader`` to act."""
    total = 0
    follower = 1 - leader
    for lead in hands[leader]:
        for kind in [None, *options(hands[leader], lead, declared[leader])]:
            lh = [c for c in hands[leader] if c != lead]
            new_declared = [set(declared[0]), set(declared[1])]
            if kind is not None:
                new_declared[leader] |= {"quinte"} if kind == "quinte" else {lead[1]}
            if kind == "chouine":
                fh = hands[follower]
                trump_chouine = (
                    sorted(fh) == sorted(r + trump for r in "ATKQJ")
                    and trump not in declared[follower]
                )
                if lead[1] == trump or not trump_chouine:
                    total += 1
                    continue
            for follow in legal_follow(hands[follower], lead, trump):
                for fkind in [None, *options(hands[follower], follow, declared[follower])]:
                    if kind == "chouine" or fkind == "chouine":
                        total += 1
                        continue
                    fd = set(declared[follower])
                    if fkind is not None:
                        fd |= {"quinte"} if fkind == "quinte" else {follow[1]}
                    beats = (
                        STRENGTH.index(follow[0]) > STRENGTH.index(lead[0])
                        if follow[1] == lead[1]
                        else follow[1] == trump
                    )
                    winner = follower if beats else leader
                    if k == 16:
                        total += 1
                        continue
                    nh = [list(hands[0]), list(hands[1])]
                    nh[leader] = lh
                    nh[follower] = [c for c in hands[follower] if c != follow]
                    nd = [set(new_declared[0]), set(new_declared[1])]
                    nd[follower] = fd
                    total += reference_count(nh, winner, trump, k + 1, nd)
    return total


@pytest.mark.parametrize("endgame", ENDGAMES, ids=lambda p: p.id)
def test_reference_count_equals_the_pinned_perft(endgame: Perft) -> None:
    s = endgame.state
    assert s.trick_number == 12 and not s.trick and not s.declarations
    hands = [rules.code_list(s.hands[0]), rules.code_list(s.hands[1])]
    trump = rules.SUIT_LETTERS[s.trump]
    (count,) = endgame.counts.values()
    assert reference_count(hands, s.leader, trump, 12, [set(), set()]) == count
