"""A cyclic construction for full tables planned together (docs/seating.md, "How", layer 1).

With N = g*k players written as (a, b), a in Z_g and b in 0..k-1, round r seats (a, b) at table
a + F[b][r] mod g. Every table then holds one player of each b, so any k x R matrix F gives valid
rounds, and two players (a, b), (a', b') meet in round r exactly when F[b'][r] - F[b][r] = a - a'.
Searching the small matrix F instead of the tables reaches the pigeonhole bound for many regular
shapes; the swap search then polishes the result with the real history and constraints.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from .anneal import pair_weight


def search_offsets(
    g: int,
    k: int,
    rounds: int,
    moves: int,
    rng: random.Random,
    target: int,
    xor: bool = False,
    progress: Callable[[float], None] | None = None,
) -> list[list[int]]:
    """Anneal F (k x rounds, entries mod g; column 0 and row 0 stay 0) to lower g * sum of
    pair costs over rows. Returns the best F found."""
    # the group of table labels: Z_g, or (Z_2)^m with xor when g is a power of two
    sub = [[(x ^ y) if xor else (x - y) % g for y in range(g)] for x in range(g)]
    f = [[0] * rounds for _ in range(k)]
    for b in range(1, k):
        for r in range(1, rounds):
            f[b][r] = rng.randrange(g)
    # cnt[b][c][d]: rounds where row c minus row b equals d (kept for b != c, both orders)
    cnt = [[[0] * g for _ in range(k)] for _ in range(k)]
    for b in range(k):
        for c in range(k):
            if b != c:
                for r in range(rounds):
                    cnt[b][c][sub[f[c][r]][f[b][r]]] += 1
    inc = [pair_weight(m + 1) - pair_weight(m) for m in range(rounds + 2)]

    def total() -> int:
        return sum(pair_weight(m) for b in range(k) for c in range(b + 1, k) for m in cnt[b][c])

    current = best = total()  # in row pairs: each stands for g pairs of players
    best_f = [row[:] for row in f]
    if rounds < 2 or k < 2 or best * g <= target:
        return best_f
    hot, cold = 1.0, 0.05
    epoch = max(10_000, moves // 8)
    done = 0
    rand = rng.random
    while done < moves and best * g > target:
        for step in range(min(epoch, moves - done)):
            if step % 256 == 0:
                temp = hot * (cold / hot) ** (step / epoch)
            b = 1 + int(rand() * (k - 1))
            r = 1 + int(rand() * (rounds - 1))
            old = f[b][r]
            new = (old + 1 + int(rand() * (g - 1))) % g
            d = 0
            row_b = f[b]
            for c in range(k):
                if c == b:
                    continue
                v = f[c][r]
                cc = cnt[b][c]
                do, dn = sub[v][old], sub[v][new]
                d += inc[cc[dn]] - inc[cc[do] - 1]
            if d <= 0 or rand() < math.exp(-d / temp):
                for c in range(k):
                    if c == b:
                        continue
                    v = f[c][r]
                    do, dn = sub[v][old], sub[v][new]
                    cnt[b][c][do] -= 1
                    cnt[b][c][dn] += 1
                    cnt[c][b][sub[old][v]] -= 1
                    cnt[c][b][sub[new][v]] += 1
                row_b[r] = new
                current += d
                if current < best:
                    best = current
                    best_f = [row[:] for row in f]
                    if best * g <= target:
                        break
        done += epoch
        if progress is not None:
            progress(min(done / moves, 1.0))
    return best_f


def cyclic_rounds(
    players: list[int], g: int, k: int, f: list[list[int]], xor: bool = False
) -> list[list[list[int]]]:
    """The rounds of F for `players` (g*k of them, taken as (a, b) = divmod(index, k))."""
    rounds = []
    for r in range(len(f[0])):
        tables: list[list[int]] = [[] for _ in range(g)]
        for i, p in enumerate(players):
            a, b = divmod(i, k)
            tables[(a ^ f[b][r]) if xor else (a + f[b][r]) % g].append(p)
        rounds.append(tables)
    return rounds


# Irreducible polynomials for GF(2^m), m = 2..7 (bit i = coefficient of x^i).
_IRREDUCIBLE = {2: 0b111, 3: 0b1011, 4: 0b10011, 5: 0b100101, 6: 0b1000011, 7: 0b10000011}


def _gf2_mul(x: int, y: int, m: int) -> int:
    poly, out = _IRREDUCIBLE[m], 0
    while y:
        if y & 1:
            out ^= x
        y >>= 1
        x <<= 1
        if x >> m:
            x ^= poly
    return out


def exact_horizon(g: int, k: int) -> int:
    """The most rounds `exact_block` plans for g tables of k (0: none)."""
    best = 0
    for rounds in range(2, max(g, k) + 1):
        if algebraic_offsets(g, k, rounds) is not None or _plus_table_fits(g, k, rounds):
            best = rounds
    return best


def exact_block(g: int, k: int, rounds: int) -> list[list[list[int]]] | None:
    """Rounds of players 0..g*k-1 that meet the pigeonhole bound by construction, or None."""
    made = algebraic_offsets(g, k, rounds)
    if made is not None:
        return cyclic_rounds(list(range(g * k)), g, k, *made)
    return plus_table_rounds(g, k, rounds)


def relabel(block: list[list[list[int]]], labels: list[int]) -> list[list[list[int]]]:
    """The block with player i renamed labels[i]."""
    return [[[labels[p] for p in table] for table in tables] for tables in block]


def _is_prime(p: int) -> bool:
    return p > 1 and all(p % d for d in range(2, int(p**0.5) + 1))


def _plus_table_fits(g: int, k: int, rounds: int) -> bool:
    return 2 <= rounds <= k < g - 1 and _is_prime(g - 1)


def plus_table_rounds(g: int, k: int, rounds: int) -> list[list[list[int]]] | None:
    """No pair meets twice: g = p + 1 tables, p a prime above k, at most k rounds; else None.

    The first p*k players are (a, b), a in GF(p), b a row 0..k-1; round l seats (a, b) at table
    a + b*l, so two of them meet at most once (b*l - c*l takes each value once over l). The last
    k players are extra, x_0..x_{k-1}. In round l the players of row l at tables j + k*l
    (j < k) leave for the extra table, where they are all of one row and so have never met, and
    x_j takes the seat at table j + k*l. Two rounds l, l' put x_j with the same player of row c
    only if (j + k*l') - (j + k*l) = c * (l' - l), i.e. c = k: no row has that number.
    """
    if not _plus_table_fits(g, k, rounds):
        return None
    p = g - 1
    out = []
    for lam in range(rounds):
        tables = [[((t - b * lam) % p) * k + b for b in range(k)] for t in range(p)]
        extra = []
        for j in range(k):
            table = tables[(j + k * lam) % p]
            extra.append(table[lam])
            table[lam] = p * k + j
        out.append([*tables, extra])
    return out


def algebraic_offsets(g: int, k: int, rounds: int) -> tuple[list[list[int]], bool] | None:
    """F reaching the pigeonhole bound exactly, where a field construction exists; else None.

    Columns are field elements l_r, rows b take F[b][r] = b * l_r (any two such rows differ by a
    bijection of the column pairs, so they never collide), and up to g - 1 extra rows take a
    quadratic in l_r: each collides with exactly one linear row per pair of rounds (the fewest
    possible), never with another extra row, and a quadratic takes each value at most twice, so
    no pair meets three times. In GF(2^m) squaring is additive, so mu * l^2 with distinct
    mu != 0 works for every pair of columns. In GF(p), p odd prime, l and -l square alike, so
    mu * l^2 serves only columns 0..(p-1)/2; beyond, the extra rows are l^2 + c * l with
    distinct c: two of them differ by the bijection (c - c') * l, so every pair of columns works
    (rounds <= g). Needs k <= 2g - 1.
    """
    if rounds < 2 or k > 2 * g - 1 or rounds > g:
        return None
    m = g.bit_length() - 1
    if g == 1 << m and m in _IRREDUCIBLE:
        def mul(x: int, y: int) -> int:
            return _gf2_mul(x, y, m)
        xor = True
    elif g > 2 and all(g % d for d in range(2, int(g**0.5) + 1)):
        def mul(x: int, y: int) -> int:
            return x * y % g
        xor = False
    else:
        return None
    lams = list(range(rounds))
    f = [[mul(b, lam) for lam in lams] for b in range(min(k, g))]
    if xor or rounds <= (g + 1) // 2:  # no column is minus another: mu * l^2 rows stay apart
        f += [[mul(mu, mul(lam, lam)) for lam in lams] for mu in range(1, k - g + 1)]
    else:  # mu * l^2 would repeat on l and -l; shifting by distinct linear terms keeps rows apart
        f += [[(lam * lam + c * lam) % g for lam in lams] for c in range(k - g)]
    return f, xor
