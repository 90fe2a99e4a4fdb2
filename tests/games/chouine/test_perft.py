"""Perft: pinned numbers of legal action sequences from fixed phase-2 endgames (STYLE.md).

A rules change that moves a count must be deliberate. Each count is also recomputed by a small
independent implementation written straight from rules/chouine.md §4.1, §4.3, §5 and §9, so the
pinned numbers are not merely what the engine happened to say.
"""

from __future__ import annotations

import pytest

from veillee.games.chouine import rules
from veillee.games.chouine.positions import position
from veillee.games.chouine.rules import State

STRENGTH = "789JQKTA"


def perft(state: State) -> int:
    """Number of action sequences from ``state`` to the end of the partie, through the engine."""
    if state.to_act is None:
        return 1
    return sum(perft(rules.apply(state, a)) for a in rules.legal_actions(state))


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


ENDGAMES = {
    # trump H; A leads holding the trump mariage, B the trump jack and ten.
    "hearts_mariage": ("H", ["AH", "KH", "QH", "7S", "9D"], ["TH", "JH", "AS", "KD", "7C"], 0),
    # trump S; A holds the chouine of diamonds at trick 12 (a chouine is still possible).
    "diamond_chouine": ("S", ["AD", "TD", "KD", "QD", "JD"], ["AS", "7S", "8H", "9C", "TC"], 1),
    # trump C; A holds five brisques and may declare a quinte, B a tierce of trumps.
    "quinte": ("C", ["AS", "TS", "AH", "TH", "AD"], ["KC", "QC", "JC", "7H", "8S"], 0),
}
PINNED = {"hearts_mariage": 736, "diamond_chouine": 57625, "quinte": 8928}


def endgame(name: str) -> State:
    trump, a, b, leader = ENDGAMES[name]
    return position(trump, (a, b), trick_number=12, leader=leader)


@pytest.mark.parametrize("name", sorted(ENDGAMES))
def test_perft_of_phase_two_endgames(name: str) -> None:
    trump, a, b, leader = ENDGAMES[name]
    count = perft(endgame(name))
    assert count == reference_count([a, b], leader, trump, 12, [set(), set()])
    assert count == PINNED[name]
