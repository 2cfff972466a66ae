#!/usr/bin/env python3
"""Checks ox88's FIDE Dutch pairing against an independent implementation.

Plays random Swiss tournaments (4-60 players, 3-11 rounds, random results; with --events also
half- and zero-point byes on request, withdrawals and late entries), pairing every round with
`ox88 swiss-pair TRF` (our code, reading the tournament as a FIDE TRF-16 file). Each finished
tournament's TRF is then handed to the oracle, caissify-pairings (Apache-2.0, on PyPI; used
only as a test tool, `pip install caissify-pairings`), whose checker re-pairs every round
from the same file and says where its pairing differs. A round agrees when both give the
same boards, colours and bye.

    python3 scripts/swiss_oracle.py --tournaments 150 --seed 1
    python3 scripts/swiss_oracle.py --tournaments 60 --events --seed 2 --out /tmp/diffs.json
    ox88 club tournament 3 --trf > t3.trf && python3 scripts/swiss_oracle.py --trf t3.trf

With --trf FILE it reads one tournament the club played (as `ox88 club tournament ID --trf`
writes it) and has the oracle re-pair each of its rounds: exit status 0 when every round
agrees, 1 when one does not (each round's verdict printed).

Prints the rounds compared and agreed, apart for rounds touched by byes, withdrawals or late
entries; --out keeps each differing round (the TRF and both pairings) for study. A round
ox88 refuses to pair is handed to the oracle as well, and its pairing, if any, checked
against the absolute criteria C1-C3: a pairing that keeps them would mean ox88 refused a
round it should have paired.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

try:
    from caissify_pairings import fpc
    from caissify_pairings.engines.dutch import DutchEngine
    from caissify_pairings.fpc import check_trf
    from caissify_pairings.trf import TRFParser
except ImportError:
    sys.exit("the oracle is missing: pip install caissify-pairings")


class Player:
    def __init__(self, number, rating):
        self.number = number
        self.rating = rating
        self.rounds = []  # (opponent or 0, colour 'w'/'b'/'-', result char)
        self.withdrawn = False

    def score2(self, upto=None):
        pts = {"1": 2, "=": 1, "0": 0, "+": 2, "-": 0, "U": 2, "F": 2, "H": 1, "Z": 0}
        return sum(pts[r[2]] for r in self.rounds[:upto])


def trf_text(players, total_rounds, upto, final=False):
    """TRF-16 of the first `upto` round columns (the last may hold only requested byes).

    A withdrawn player's rounds are written `0000 - -` for ox88, which reads them as "not
    paired"; the oracle's checker counts such an entry as a bye it did not give, so in the
    `final` file they are left blank, as TRF allows."""
    lines = ["012 ox88 oracle", f"XXR {total_rounds}", "XXC white1"]
    for p in sorted(players, key=lambda p: p.number):
        cols = [" "] * 89
        def put(at, text):
            for k, c in enumerate(text):
                cols[at + k] = c
        put(0, "001")
        put(4, f"{p.number:>4}")
        put(14, f"Player {p.number}")
        put(48, f"{p.rating:>4}")
        s = p.score2(upto)
        put(80, f"{s // 2}.{(s % 2) * 5}".rjust(4))
        line = "".join(cols)
        rounds = p.rounds[:upto]
        if final:
            while rounds and rounds[-1] == (0, "-", "-"):
                rounds = rounds[:-1]
        for opp, colour, res in rounds:
            line += f"  {opp:>4} {colour} {res}"
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def enter_late(players, rating, missed, sitting):
    """A late entrant takes the pairing number its rating gives (C.04.2.B); those below it
    move down one, in every record."""
    number = 1 + sum(1 for p in players if p.rating >= rating)
    def shift(n):
        return n + 1 if n >= number else n
    for p in players:
        p.number = shift(p.number)
        p.rounds = [(shift(o) if o else 0, c, r) for o, c, r in p.rounds]
    moved = {shift(n): kind for n, kind in sitting.items()}
    sitting.clear()
    sitting.update(moved)
    late = Player(number, rating)
    late.rounds = [(0, "-", "H")] * missed
    players.append(late)
    players.sort(key=lambda p: p.number)


def pair_with_ox88(ox88, text):
    with tempfile.NamedTemporaryFile("w", suffix=".trf", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        out = subprocess.run([ox88, "swiss-pair", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if out.returncode != 0:
        return None, out.stderr.strip()
    boards, bye = [], None
    for line in out.stdout.split("\n"):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "bye":
            bye = int(parts[1])
        else:
            boards.append((int(parts[0]), int(parts[1])))
    return (boards, bye), None


def oracle_pairs(text, rnd):
    """The oracle's pairing of round `rnd`, not yet played in `text` (its column holds only
    the byes on request): the players to pair are marked with a placeholder entry, which
    the oracle reads as "present" and leaves out of the history. Uses the checker's own
    steps (private helpers of caissify-pairings 0.5.0). Returns (boards, bye) or the error."""
    lines = []
    for line in text.rstrip("\n").split("\n"):
        if line.startswith("001") and len(line) < 89 + 10 * rnd:
            line = line.ljust(89 + 10 * (rnd - 1)) + "  0000 - U"
        lines.append(line)
    parsed = TRFParser("\n".join(lines) + "\n").parse()
    players = {p["starting_number"]: p for p in parsed["players"]}
    try:
        engine = DutchEngine(
            players=fpc._build_engine_players(players, rnd),
            previous_pairings=fpc._build_previous_pairings(players, rnd),
            round_number=rnd,
            total_rounds=parsed["tournament"].get("total_rounds") or rnd,
            initial_color=fpc._infer_initial_color(players),
        )
        out = fpc._normalise_engine_output(engine.generate_pairings())
    except Exception as exc:  # the oracle refusing the round too
        return str(exc)
    boards = [(p["white"], p["black"]) for p in out if not p.get("bye")]
    byes = [p["white"] for p in out if p.get("bye")]
    if len(byes) > 1:  # its fallback leaves several players unpaired
        return f"it leaves {', '.join(map(str, byes))} unpaired"
    return boards, (byes[0] if byes else None)


def breaks_absolute(players, total_rounds, boards, bye):
    """The absolute criteria a pairing breaks (C1 rematch, C2 second pairing-allocated bye
    or one after a win without playing, C3 two non-topscorers who must have the same
    colour), for the rounds only the oracle could pair."""
    by_number = {p.number: p for p in players}
    broken = []
    for w, b in boards:
        if any(o == b and r in "10=" for o, _, r in by_number[w].rounds):
            broken.append(f"C1: {w} and {b} met before")
    if bye is not None and any(r in "UF+" for _, _, r in by_number[bye].rounds):
        broken.append(f"C2: {bye} had a bye or a win without playing")
    last_round = any(len(p.rounds) == total_rounds - 1 for p in players)
    for w, b in boards:
        mw, mb = absolute_preference(by_number[w]), absolute_preference(by_number[b])
        # A.7: topscorers (over half the possible points, in the last round) are exempt.
        top = last_round and any(by_number[x].score2() > total_rounds for x in (w, b))
        if mw is not None and mw == mb and not top:
            broken.append(f"C3: {w} and {b} must both have {mw}")
    return broken


def absolute_preference(player):
    """A.6.a: the colour a player must have (colour difference beyond 1, or the same colour
    in the two latest games played), or None."""
    played = [c for o, c, r in player.rounds if o and r in "10="]
    diff = played.count("w") - played.count("b")
    if diff > 1 or played[-2:] == ["w", "w"]:
        return "black"
    if diff < -1 or played[-2:] == ["b", "b"]:
        return "white"
    return None


def result_of(rng, white, black):
    expected = 1 / (1 + 10 ** ((black.rating - white.rating) / 400))
    draw = 0.25
    x = rng.random()
    if x < draw:
        return "="
    return "1" if rng.random() < expected else "0"


def play_tournament(rng, ox88, events, check):
    """Plays one tournament; `check(trf, first, last)` is called for each stretch of rounds
    paired under the same pairing numbers (a late entry renumbers those below it, so the
    rounds before it are checked on the file as it was)."""
    n = rng.randint(4, 60)
    total = rng.randint(3, 11)
    ratings = sorted((rng.randint(1000, 2700) for _ in range(n)), reverse=True)
    players = [Player(i + 1, r) for i, r in enumerate(ratings)]
    eventful_rounds = set()
    first_unchecked = 1
    touched = False  # any bye on request, withdrawal or late entry so far
    for rnd in range(1, total + 1):
        sitting = {}
        if events:
            for p in players:
                if p.withdrawn:
                    sitting[p.number] = "-"
                    continue
                x = rng.random()
                if x < 0.04:
                    sitting[p.number] = "H"
                elif x < 0.06:
                    sitting[p.number] = "Z"
                elif x < 0.08 and rnd > 1:
                    p.withdrawn = True
                    sitting[p.number] = "-"
            if rnd > 1 and rnd <= (total + 1) // 2 and rng.random() < 0.3:
                if first_unchecked < rnd:
                    check(trf_text(players, total, rnd - 1, final=True), first_unchecked, rnd - 1)
                    first_unchecked = rnd
                enter_late(players, rng.randint(1000, 2700), rnd - 1, sitting)
                touched = True
        if sitting:
            touched = True
        if touched:
            eventful_rounds.add(rnd)
        active = [p for p in players if p.number not in sitting]
        if len(active) < 2:
            check(trf_text(players, total, rnd - 1, final=True), first_unchecked, rnd - 1)
            return eventful_rounds, None
        for p in players:
            if p.number in sitting:
                p.rounds.append((0, "-", sitting[p.number]))
        text = trf_text(players, total, rnd)
        pairing, error = pair_with_ox88(ox88, text)
        if pairing is None:
            answer = oracle_pairs(text, rnd)
            if isinstance(answer, str):
                error += "; the oracle cannot pair it either: " + answer
            else:
                broken = breaks_absolute(players, total, *answer)
                error += f"; the oracle pairs it {answer}" + (
                    f", breaking {', '.join(broken)}" if broken else ", within C1-C3")
            # Undo the requested byes of the round that could not be paired.
            for p in players:
                if len(p.rounds) == rnd:
                    p.rounds.pop()
            check(trf_text(players, total, rnd - 1, final=True), first_unchecked, rnd - 1)
            return eventful_rounds, (rnd, error)
        boards, bye = pairing
        by_number = {p.number: p for p in players}
        for w, b in boards:
            res = result_of(rng, by_number[w], by_number[b])
            back = {"1": "0", "0": "1", "=": "="}[res]
            by_number[w].rounds.append((b, "w", res))
            by_number[b].rounds.append((w, "b", back))
        if bye is not None:
            by_number[bye].rounds.append((0, "-", "U"))
    check(trf_text(players, total, total, final=True), first_unchecked, total)
    return eventful_rounds, None


def colours_agree(ours, oracle):
    def boards(pairings):
        return {(p["white"], p.get("black")) for p in pairings}
    return boards(ours) == boards(oracle)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tournaments", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--events", action="store_true",
                    help="byes on request, withdrawals and late entries")
    ap.add_argument("--ox88", default="target/release/ox88")
    ap.add_argument("--out", help="write the differing rounds here (JSON)")
    ap.add_argument("--trf", help="check one tournament's TRF-16 file (ox88 club tournament ID --trf)")
    args = ap.parse_args()
    if args.trf:
        with open(args.trf) as f:
            text = f.read()
        report = check_trf(text)
        agreed = 0
        for r in report["rounds"]:
            same = r["match"] and colours_agree(r["trf_pairings"], r["engine_pairings"])
            agreed += same
            print(f"round {r['round']}: {'agrees' if same else 'differs'}"
                  + ("" if same else f" {r['discrepancies']}"))
        print(f"{agreed} of {len(report['rounds'])} rounds agree with the oracle")
        sys.exit(0 if report["rounds"] and agreed == len(report["rounds"]) else 1)
    rng = random.Random(args.seed)
    # eventful -> [rounds, same pairs, same pairs and colours]
    compared = {False: [0, 0, 0], True: [0, 0, 0]}
    ours_failed = []
    diffs = []
    for t in range(args.tournaments):
        checked = []

        def check(text, first, last):
            if last < first:
                return
            report = check_trf(text)
            for r in report["rounds"]:
                if first <= r["round"] <= last:
                    checked.append((r, text))

        eventful, error = play_tournament(rng, args.ox88, args.events, check)
        if error:
            ours_failed.append((t, error[0], error[1]))
        for r, text in checked:
            key = r["round"] in eventful
            compared[key][0] += 1
            same_colours = colours_agree(r["trf_pairings"], r["engine_pairings"])
            if r["match"]:
                compared[key][1] += 1
                if same_colours:
                    compared[key][2] += 1
            if not (r["match"] and same_colours):
                diffs.append({
                    "tournament": t,
                    "round": r["round"],
                    "trf": text,
                    "ours": r["trf_pairings"],
                    "oracle": r["engine_pairings"],
                    "discrepancies": r["discrepancies"],
                })
    for key, label in ((False, "plain rounds"), (True, "rounds with byes/withdrawals/late entries")):
        n, ok, ok_colours = compared[key]
        if n:
            print(f"{label}: {n} rounds, same pairs and bye in {ok} ({100.0 * ok / n:.1f}%), "
                  f"same colours too in {ok_colours} ({100.0 * ok_colours / n:.1f}%)")
    total = [compared[False][i] + compared[True][i] for i in range(3)]
    print(f"all rounds: {total[0]}, same pairs {total[1]}, same colours too {total[2]}")
    if ours_failed:
        print(f"rounds ox88 refused to pair: {len(ours_failed)}")
        for t, rnd, err in ours_failed:
            print(f"  tournament {t} round {rnd}: {err}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(diffs, f, indent=1)


if __name__ == "__main__":
    main()
