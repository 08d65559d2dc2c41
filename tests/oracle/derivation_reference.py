#!/usr/bin/env python3
"""Independent reference of docs/rules.md, "Board derivation" and "Rules
version 2: board keys and commitments", written from the text alone (Python
3.11, standard library only). It prints the board a game starts from and,
for match-3, the board and score after a list of swaps.

Examples:
  tests/oracle/derivation_reference.py --rules 1 --mode same --params easy --seed golden-1
  tests/oracle/derivation_reference.py --rules 2 --mode hidden --params classic \
      --seed 2026-11-24 --key 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
  tests/oracle/derivation_reference.py --mode match3 --params 7x9x6 --seed x --swaps 0,0,1,0 2,3,2,4
  tests/oracle/derivation_reference.py --mode match3 --board '[[1,1,1],[2,0,1],[1,2,2]]' --seed demo
  tests/oracle/derivation_reference.py --check tests/data/derivation/boards.json

--params is a preset name or WxHxK (custom sizes); --board is a custom board
as JSON rows (top row first). Cells are printed one row per line, colours
above 9 as letters (a = 10, b = 11, c = 12); --flat prints them on one line.
"""
from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys

MASK = (1 << 64) - 1

# rules.md's preset tables: (W, H, K, move budget or None, refill).
PRESETS = {
    "same": {"easy": (10, 10, 3, None, False), "normal": (15, 12, 4, None, False),
             "hard": (20, 15, 5, None, False), "classic": (15, 15, 5, None, False)},
    "match3": {"classic": (8, 8, 6, 30, True), "big": (10, 10, 7, 40, True),
               "crush": (9, 9, 5, None, False)},
    "hidden": {"classic": (10, 10, 3, None, False), "large": (15, 12, 4, None, False)},
}


def rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


# ---------------------------------------------------------------- generators

class GeneratorV1:
    """Seed material -> FNV-1a 64 -> SplitMix64 -> xoshiro256**."""

    def __init__(self, material: str):
        h = 0xCBF29CE484222325
        for c in material.encode("utf-8"):
            h ^= c
            h = (h * 0x100000001B3) & MASK
        self.fnv = h
        s = self._splitmix4(h)
        if s == [0, 0, 0, 0]:
            s = self._splitmix4(0)
        self.s = s

    @staticmethod
    def _splitmix4(x: int) -> list[int]:
        out = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & MASK
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            out.append(z ^ (z >> 31))
        return out

    def next(self) -> int:
        s0, s1, s2, s3 = self.s
        result = (rotl((s1 * 5) & MASK, 7) * 9) & MASK
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result


class GeneratorKeyed:
    """Rules version 2: HMAC-SHA-256 stream key, SHA-256 counter blocks."""

    def __init__(self, key: bytes, message: str):
        self.stream_key = hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()
        self.block = 0
        self.words: list[int] = []

    def block_bytes(self, b: int) -> bytes:
        return hashlib.sha256(self.stream_key + b.to_bytes(8, "little")).digest()

    def next(self) -> int:
        if not self.words:
            d = self.block_bytes(self.block)
            self.block += 1
            self.words = [int.from_bytes(d[8 * i:8 * i + 8], "little") for i in range(4)]
        return self.words.pop(0)


def bounded(gen, n: int) -> int:
    threshold = ((1 << 64) - n) % n
    while True:
        r = gen.next()
        if r >= threshold:
            return r % n


def color(gen, k: int) -> int:
    return 1 + bounded(gen, k)


def commitment(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()


# ---------------------------------------------------------------- boards
# A board is a list of rows (board[y][x]), row 0 at the top; 0 is empty.

def empty_board(w: int, h: int) -> list[list[int]]:
    return [[0] * w for _ in range(h)]


def gravity(board):
    h, w = len(board), len(board[0])
    for x in range(w):
        column = [board[y][x] for y in range(h) if board[y][x] != 0]
        column = [0] * (h - len(column)) + column
        for y in range(h):
            board[y][x] = column[y]


def compress_columns(board):
    h, w = len(board), len(board[0])
    kept = [x for x in range(w) if any(board[y][x] != 0 for y in range(h))]
    for y in range(h):
        row = [board[y][x] for x in kept]
        board[y] = row + [0] * (w - len(row))


def deal_uniform(w, h, k, gen):
    board = empty_board(w, h)
    for y in range(h):
        for x in range(w):
            board[y][x] = color(gen, k)
    return board


def run_cells(board) -> set[tuple[int, int]]:
    """Cells in a run: 3+ equal non-empty cells consecutive in a row or column."""
    h, w = len(board), len(board[0])
    marked = set()
    for y in range(h):
        for x in range(w - 2):
            v = board[y][x]
            if v != 0 and board[y][x + 1] == v and board[y][x + 2] == v:
                marked.update({(x, y), (x + 1, y), (x + 2, y)})
    for x in range(w):
        for y in range(h - 2):
            v = board[y][x]
            if v != 0 and board[y + 1][x] == v and board[y + 2][x] == v:
                marked.update({(x, y), (x, y + 1), (x, y + 2)})
    return marked


def swap_is_valid(board, a, b) -> bool:
    (ax, ay), (bx, by) = a, b
    h, w = len(board), len(board[0])
    if not (0 <= ax < w and 0 <= ay < h and 0 <= bx < w and 0 <= by < h):
        return False
    if abs(ax - bx) + abs(ay - by) != 1:
        return False
    if board[ay][ax] == 0 or board[by][bx] == 0:
        return False
    board[ay][ax], board[by][bx] = board[by][bx], board[ay][ax]
    made = bool(run_cells(board))
    board[ay][ax], board[by][bx] = board[by][bx], board[ay][ax]
    return made


def has_valid_swap(board) -> bool:
    h, w = len(board), len(board[0])
    for y in range(h):
        for x in range(w):
            if x + 1 < w and swap_is_valid(board, (x, y), (x + 1, y)):
                return True
            if y + 1 < h and swap_is_valid(board, (x, y), (x, y + 1)):
                return True
    return False


def deal_attempt(w, h, k, gen):
    board = empty_board(w, h)
    for y in range(h):
        for x in range(w):
            a = board[y][x - 1] if x >= 2 and board[y][x - 1] == board[y][x - 2] else None
            b = board[y - 1][x] if y >= 2 and board[y - 1][x] == board[y - 2][x] else None
            allowed = [c for c in range(1, k + 1) if c != a and c != b]
            board[y][x] = allowed[bounded(gen, len(allowed))]
    return board


def deal_match3(w, h, k, gen):
    for _ in range(64):
        board = deal_attempt(w, h, k, gen)
        if has_valid_swap(board):
            return board
    p = color(gen, k)
    q = 1 + bounded(gen, k - 1)
    if q >= p:
        q += 1
    return [[p if (x // 2 + y) % 2 == 0 else q for x in range(w)] for y in range(h)]


def refill_step(board, k, gen):
    h, w = len(board), len(board[0])
    for x in range(w):
        y = 0
        while y < h and board[y][x] == 0:
            board[y][x] = color(gen, k)
            y += 1


REFILL_CAP = 1000


def resolve(board, k, refill_on, gen) -> int:
    """Waves until no run is left; returns the points scored."""
    points = 0
    wave = 0
    while True:
        marked = run_cells(board)
        if not marked:
            return points
        wave += 1
        for x, y in marked:
            board[y][x] = 0
        points += 10 * len(marked) * wave
        gravity(board)
        if refill_on and wave <= REFILL_CAP:
            refill_step(board, k, gen)


# ---------------------------------------------------------------- games

class Setup:
    def __init__(self, rules=2, mode="same", params=None, seed="", key=None, board=None,
                 refill=True, compress=False):
        self.rules, self.mode, self.params, self.seed = rules, mode, params, seed
        self.key, self.board, self.refill, self.compress = key, board, refill, compress


def start(setup: Setup):
    """Returns (board, generator, K, refill on, move budget)."""
    mode = setup.mode
    preset = None
    budget = None
    refill_on = setup.refill
    if setup.board is not None:
        board = [list(row) for row in setup.board]
        w, h = len(board[0]), len(board)
        k = max(max(row) for row in board)
        params = f"{w}x{h}x{k}"
    elif setup.params in PRESETS[mode]:
        preset = setup.params
        w, h, k, budget, preset_refill = PRESETS[mode][preset]
        if mode == "match3":
            refill_on = refill_on and preset_refill
        params = preset
    else:
        w, h, k = (int(v) for v in setup.params.split("x"))
        params = f"{w}x{h}x{k}"
    ranked = preset is not None and setup.board is None and setup.refill and not setup.compress
    if setup.key is not None:
        if setup.rules != 2 or not ranked:
            raise ValueError("a board key needs rules version 2 and a ranked board")
        gen = GeneratorKeyed(setup.key, f"tilecrush/v2/{mode}/{preset}/{setup.seed}")
    else:
        gen = GeneratorV1(f"tilecrush/v1/{mode}/{params}/{setup.seed}")

    if mode in ("same", "hidden"):
        if setup.board is not None:
            gravity(board)
            if mode == "same" or setup.compress:
                compress_columns(board)
        else:
            board = deal_uniform(w, h, k, gen)
    else:
        if setup.board is not None:
            gravity(board)
            if refill_on:
                refill_step(board, k, gen)
            resolve(board, k, refill_on, gen)
        else:
            board = deal_match3(w, h, k, gen)
    return board, gen, k, refill_on, budget


def play_swaps(board, gen, k, refill_on, budget, swaps):
    """Applies match-3 swaps [(ax, ay, bx, by)]; returns the score."""
    score = 0
    played = 0
    for i, (ax, ay, bx, by) in enumerate(swaps):
        over = (budget is not None and played >= budget) or not has_valid_swap(board)
        if over or not swap_is_valid(board, (ax, ay), (bx, by)):
            raise ValueError(f"swap {i + 1} {ax},{ay},{bx},{by} refused")
        board[ay][ax], board[by][bx] = board[by][bx], board[ay][ax]
        score += resolve(board, k, refill_on, gen)
        played += 1
    return score


def cell_char(c: int) -> str:
    return "0123456789abc"[c]


def flat(board) -> str:
    return "".join(cell_char(c) for row in board for c in row)


def parse_swaps(items) -> list[tuple[int, int, int, int]]:
    swaps = []
    for item in items:
        parts = [int(v) for v in item.split(",")]
        if len(parts) != 4:
            raise ValueError(f"a swap is x1,y1,x2,y2: {item}")
        swaps.append(tuple(parts))
    return swaps


def setup_from_case(case: dict) -> Setup:
    return Setup(rules=case["rules_version"], mode=case["mode"], params=case.get("params"),
                 seed=case["seed"],
                 key=bytes.fromhex(case["key"]) if case.get("key") else None,
                 board=case.get("board"), refill=case.get("refill", True),
                 compress=case.get("compress", False))


def check_file(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    failures = 0
    for n, case in enumerate(data["cases"]):
        board, gen, k, refill_on, budget = start(setup_from_case(case))
        ok = board == case["start"]
        if ok and case.get("swaps"):
            score = play_swaps(board, gen, k, refill_on, budget, [tuple(s) for s in case["swaps"]])
            ok = board == case["after"] and score == case["score"]
        if not ok:
            failures += 1
            print(f"case {n} ({case['mode']} {case.get('params')} {case['seed']}): differs")
    print(f"{len(data['cases']) - failures} of {len(data['cases'])} cases agree")
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", type=int, default=2, choices=(1, 2))
    ap.add_argument("--mode", choices=("same", "match3", "hidden"))
    ap.add_argument("--params", help="preset name or WxHxK")
    ap.add_argument("--board", help="custom board, JSON rows, top row first")
    ap.add_argument("--seed")
    ap.add_argument("--key", help="board key, 64 hex digits (rules version 2, ranked boards)")
    ap.add_argument("--no-refill", action="store_true", help="match-3 practice option refill: false")
    ap.add_argument("--compress", action="store_true", help="hidden practice option compress: true")
    ap.add_argument("--swaps", nargs="*", default=[], help="match-3 swaps x1,y1,x2,y2 ...")
    ap.add_argument("--flat", action="store_true", help="print each board on one line")
    ap.add_argument("--words", type=int, default=0, help="also print the first N generator words")
    ap.add_argument("--check", metavar="JSON", help="check a golden file (tests/data/derivation/boards.json)")
    args = ap.parse_args()

    if args.check:
        return check_file(args.check)
    if not args.mode or args.seed is None or (args.params is None) == (args.board is None):
        ap.error("--mode, --seed and one of --params / --board are needed")
    key = bytes.fromhex(args.key) if args.key else None
    if key is not None and len(key) != 32:
        ap.error("a board key is 32 bytes")
    setup = Setup(rules=args.rules, mode=args.mode, params=args.params, seed=args.seed, key=key,
                  board=json.loads(args.board) if args.board else None,
                  refill=not args.no_refill, compress=args.compress)

    if args.words:
        probe = start_generator_only(setup)
        print("words:", " ".join(f"{probe.next():016x}" for _ in range(args.words)))
    if key is not None:
        print("commitment:", commitment(key))

    def show(board):
        if args.flat:
            print(flat(board))
        else:
            for row in board:
                print("".join(cell_char(c) for c in row))

    board, gen, k, refill_on, budget = start(setup)
    show(board)
    if args.swaps:
        if args.mode != "match3":
            ap.error("--swaps is for match-3")
        score = play_swaps(board, gen, k, refill_on, budget, parse_swaps(args.swaps))
        print(f"after {len(args.swaps)} swaps, score {score}:")
        show(board)
    return 0


def start_generator_only(setup: Setup):
    """A fresh generator of the setup, before any draw (for --words)."""
    saved = setup.mode
    if setup.board is not None:
        board = setup.board
        params = f"{len(board[0])}x{len(board)}x{max(max(r) for r in board)}"
    else:
        params = setup.params
    if setup.key is not None:
        return GeneratorKeyed(setup.key, f"tilecrush/v2/{saved}/{params}/{setup.seed}")
    return GeneratorV1(f"tilecrush/v1/{saved}/{params}/{setup.seed}")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
