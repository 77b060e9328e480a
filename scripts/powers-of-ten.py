#!/usr/bin/env python3
"""The 128-bit powers of ten of the shortest-double formatter (Sources/SegueJSON/ShortestDouble.swift).

    python3 scripts/powers-of-ten.py generate > Sources/SegueJSON/PowersOfTen.swift
    python3 scripts/powers-of-ten.py verify      # the precision argument of docs/numbers.md, exhaustively
    python3 scripts/powers-of-ten.py check       # the committed file is what `generate` writes (make test)

Exact integer arithmetic only (Python's integers and fractions), standard library only.

The table
---------
For every n in [N_MIN, N_MAX] = [-292, 324] (n = -k, where 10^k is the decimal scale of a double's
rounding interval), with E(n) = floor(log2(10^n)):

    G(n) = 10^n * 2^(127 - E(n))                  when that is an integer (exactly n in [0, 55]),
    G(n) = floor(10^n * 2^(127 - E(n))) + 1       otherwise (an over-estimate by less than one unit),

so 2^127 <= G(n) < 2^128. Each row is written as (high 64 bits, low 64 bits).

The exponent helpers
--------------------
The formatter computes three floors of logarithms with one multiplication and one arithmetic
shift; `generate` derives the constants here and checks every argument of their ranges against the
exact values:

    floor(q * log10(2))          for q in [-1074, 971]   (binary exponents of doubles)
    floor(log10(3/4 * 2^q))      for q in [-1073, 971]   (asymmetric intervals at powers of two)
    floor(n * log2(10))          for n in [-292, 324]    (E(n) above)

`verify`
--------
Proves that the formatter's rounded-to-odd products are exact for every finite double (see
docs/numbers.md "Why 128 bits are enough"): for every binary exponent q whose table row is not
exact, and for each of the three scaled interval points x = (4c - 2, 4c, 4c + 2) * 2^q * 10^-k over
all significands c of that exponent (and the three points of the asymmetric interval at 2^q),
x is an integer, or floor(x) is even and frac(x) >= 2^-64, or floor(x) is odd and
frac(x) <= 1 - 2^-64. It runs a Euclid-like search for the first term of an arithmetic progression
whose residue falls in an interval (under a second) instead of enumerating 2^53 significands.
"""

import sys
from fractions import Fraction

N_MIN, N_MAX = -292, 324          # n = -k for k in [-324, 292]
Q_MIN, Q_MAX = -1074, 971         # the binary exponent q of value = c * 2^q
C_MIN, C_LIMIT = 1 << 52, 1 << 53 # normal significands c in [C_MIN, C_LIMIT)
SHIFT = 41                        # the exponent helpers' fixed-point precision (q * M >> SHIFT)


def floor_log(base, x, estimate):
    """floor(log_base(x)) for a positive Fraction x, exactly: from an estimate a little below the
    answer, exact steps up (and down, should the estimate be too high)."""
    k = estimate - 2
    while Fraction(base) ** k > x:
        k -= 1
    while Fraction(base) ** (k + 1) <= x:
        k += 1
    return k


def floor_log10_pow2(q, numerator=1, denominator=1):
    """floor(log10(numerator/denominator * 2^q)), exactly."""
    return floor_log(10, Fraction(numerator, denominator) * Fraction(2) ** q, int(q * 0.30103))


def floor_log2_pow10(n):
    """floor(log2(10^n)), exactly."""
    return floor_log(2, Fraction(10) ** n, int(n * 3.3219))


def exact_values():
    k = {q: floor_log10_pow2(q) for q in range(Q_MIN, Q_MAX + 1)}
    k34 = {q: floor_log10_pow2(q, 3, 4) for q in range(Q_MIN + 1, Q_MAX + 1)}
    e = {n: floor_log2_pow10(n) for n in range(N_MIN, N_MAX + 1)}
    return k, k34, e


def fit(targets, ratio, shift, offset_search=False):
    """A multiplier M (and an offset B) with (x * M - B) >> shift == targets[x] for every x."""
    base = int(ratio * (1 << shift))
    for multiplier in (base, base + 1, base - 1, base + 2, base - 2):   # the nearest first
        offsets = [0]
        if offset_search:
            # floor(log10(3/4) * 2^shift) and its neighbours
            center = int(Fraction(124938736608, 10 ** 12) * (1 << shift))  # -log10(3/4) ~ 0.1249387366
            offsets = sorted(range(center - 64, center + 65), key=lambda b: abs(b - center))
        for offset in offsets:
            if all(((x * multiplier - offset) >> shift) == y for x, y in targets.items()):
                return multiplier, offset
    raise SystemExit("no constant fits; widen the search")


def table_row(n, e):
    scale = 127 - e
    exact = Fraction(10) ** n * Fraction(2) ** scale
    if exact.denominator == 1:
        g, is_exact = exact.numerator, True
    else:
        g, is_exact = exact.numerator // exact.denominator + 1, False
    assert (1 << 127) <= g < (1 << 128), n
    return g, is_exact


def generate():
    k, k34, e = exact_values()
    log10_2 = Fraction(30102999566398119521373889472449302676818988146211, 10 ** 50)
    log2_10 = Fraction(332192809488736234787031942948939017586483139302458, 10 ** 50)
    m_k, _ = fit(k, log10_2, SHIFT)
    m_k34, b_k34 = fit(k34, log10_2, SHIFT, offset_search=True)
    m_e, _ = fit(e, log2_10, SHIFT - 3)
    rows, exact = [], []
    for n in range(N_MIN, N_MAX + 1):
        g, is_exact = table_row(n, e[n])
        rows.append(g)
        if is_exact:
            exact.append(n)
    assert exact == list(range(0, 56)), exact
    out = sys.stdout
    out.write("// Generated by scripts/powers-of-ten.py — do not edit; run\n")
    out.write("//     python3 scripts/powers-of-ten.py generate > Sources/SegueJSON/PowersOfTen.swift\n")
    out.write("// The definitions and the proof that these precisions suffice: docs/numbers.md.\n\n")
    out.write(f"/// 128-bit powers of ten for `ShortestDouble`, n in {N_MIN}...{N_MAX}: row `n - PowersOfTen.minimumExponent` holds\n")
    out.write("/// G(n) = 10^n · 2^(127 − floor(log2 10^n)) as (high, low) 64-bit halves, exactly for n in\n")
    out.write("/// `exactExponents`, otherwise rounded up to the next integer (2^127 ≤ G(n) < 2^128).\n")
    out.write("enum PowersOfTen {\n")
    out.write(f"    static let minimumExponent = {N_MIN}\n")
    out.write(f"    static let exactExponents = {exact[0]}...{exact[-1]}\n\n")
    out.write(f"    /// floor(q · log10 2) = (q · {m_k}) >> {SHIFT} for q in {Q_MIN}...{Q_MAX} (checked exactly by the script).\n")
    out.write(f"    static let log10Of2Multiplier = {m_k}\n")
    out.write(f"    /// floor(log10(3/4 · 2^q)) = (q · {m_k34} − {b_k34}) >> {SHIFT} for q in {Q_MIN + 1}...{Q_MAX}.\n")
    out.write(f"    static let log10Of2MultiplierForThreeQuarters = {m_k34}\n")
    out.write(f"    static let log10OfThreeQuartersOffset = {b_k34}\n")
    out.write(f"    static let log10Shift = {SHIFT}\n")
    out.write(f"    /// floor(n · log2 10) = (n · {m_e}) >> {SHIFT - 3} for n in {N_MIN}...{N_MAX}.\n")
    out.write(f"    static let log2Of10Multiplier = {m_e}\n")
    out.write(f"    static let log2Shift = {SHIFT - 3}\n\n")
    out.write(f"    /// {len(rows)} rows, high half then low half.\n")
    out.write("    static let halves: [UInt64] = [\n")
    for n, g in zip(range(N_MIN, N_MAX + 1), rows):
        out.write(f"        0x{g >> 64:016x}, 0x{g & ((1 << 64) - 1):016x},  // n = {n}\n")
    out.write("    ]\n}\n")


# ---- verify ---------------------------------------------------------------------------------

def first_in_range(a, m, lo, hi):
    """The smallest y >= 0 with lo <= (a * y) mod m <= hi (0 <= lo <= hi < m), or None."""
    a %= m
    if lo == 0:
        return 0
    if a == 0:
        return None
    y = -(-lo // a)
    if a * y <= hi:
        return y
    # No multiple of a falls in [lo, hi], so [lo, hi] lies strictly between two of them; a*y - m*z
    # in [lo, hi] means m*z mod a in [(-hi) mod a, (-lo) mod a], an interval that does not wrap.
    z = first_in_range(m % a, a, (-hi) % a, (-lo) % a)
    if z is None:
        return None
    return -(-(lo + m * z) // a)


def first_with_offset(a, b, m, lo, hi):
    """The smallest y >= 0 with lo <= (a * y + b) mod m <= hi, or None."""
    lo2, hi2 = (lo - b) % m, (hi - b) % m
    if lo2 <= hi2:
        return first_in_range(a, m, lo2, hi2)
    found = [y for y in (first_in_range(a, m, lo2, m - 1), first_in_range(a, m, 0, hi2)) if y is not None]
    return min(found) if found else None


def progression_is_safe(numerator_factor, denominator, first, count, step, offset):
    """Every x = (step * i + first + offset) * numerator_factor / denominator for i in [0, count)
    is rounded to odd correctly from its 128-bit product: x is an integer, or its integer part is
    even and its fractional part at least 2^-64 (the sticky bit survives the dropped low word), or
    its integer part is odd and its fractional part at most 1 - 2^-64 (no carry into the odd
    integer part). Residues modulo 2 * denominator carry the parity of the integer part."""
    m = denominator
    threshold = -(-m // (1 << 64))      # fractional parts r / m < 2^-64 are those with r < threshold
    if threshold <= 1:
        return True
    modulus = 2 * m
    a = (step * numerator_factor) % modulus
    b = ((first + offset) * numerator_factor) % modulus
    for lo, hi in ((1, threshold - 1), (modulus - threshold + 1, modulus - 1)):
        y = first_with_offset(a, b, modulus, lo, hi)
        if y is not None and y < count:
            return False
    return True


def point_is_safe(cp, numerator_factor, denominator):
    """`progression_is_safe` for one point."""
    return progression_is_safe(numerator_factor, denominator, cp, 1, 1, 0)


def scale_as_fraction(q, k):
    """2^q * 10^-k as (numerator, denominator) with integers."""
    x = Fraction(2) ** q / Fraction(10) ** k
    return x.numerator, x.denominator


def verify():
    k, k34, e = exact_values()
    checked = 0
    failures = []
    for q in range(Q_MIN, Q_MAX + 1):
        kq = k[q]
        if -kq in range(0, 56):
            continue                       # exact row: the product is exact, nothing to prove
        num, den = scale_as_fraction(q, kq)
        ranges = [(C_MIN, C_LIMIT - C_MIN)]
        if q == Q_MIN:
            ranges.append((1, C_MIN - 1))  # subnormals share the smallest exponent
        for first, count in ranges:
            for offset in (-2, 0, 2):
                checked += 1
                if not progression_is_safe(num, den, 4 * first, count, 4, offset):
                    failures.append((q, first, offset))
        if q > Q_MIN:
            kb = k34[q]
            if -kb in range(0, 56):
                continue
            num, den = scale_as_fraction(q, kb)
            for cp in (4 * C_MIN - 1, 4 * C_MIN, 4 * C_MIN + 2):
                checked += 1
                if not point_is_safe(cp, num, den):
                    failures.append((q, "boundary", cp))
    print(f"verify: {checked} progressions and boundary points checked, {len(failures)} failures")
    for failure in failures[:20]:
        print("  failure:", failure)
    return 1 if failures else 0


def self_test():
    """first_in_range against brute force on small moduli."""
    import random
    rng = random.Random(7)
    for _ in range(3000):
        m = rng.randrange(2, 400)
        a, b = rng.randrange(0, m), rng.randrange(0, m)
        lo = rng.randrange(0, m)
        hi = rng.randrange(lo, m)
        brute = next((y for y in range(0, 2 * m) if lo <= (a * y + b) % m <= hi), None)
        assert first_with_offset(a, b, m, lo, hi) == brute, (a, b, m, lo, hi)


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "generate":
        generate()
    elif command == "check":
        # The committed table is the generator's output, byte for byte.
        import io, pathlib
        target = pathlib.Path(__file__).resolve().parent.parent / "Sources/SegueJSON/PowersOfTen.swift"
        captured, real = io.StringIO(), sys.stdout
        sys.stdout = captured
        try:
            generate()
        finally:
            sys.stdout = real
        same = captured.getvalue() == target.read_text()
        print("PowersOfTen.swift is the generator's output" if same
              else "PowersOfTen.swift differs from `scripts/powers-of-ten.py generate`: regenerate it")
        sys.exit(0 if same else 1)
    elif command == "verify":
        self_test()
        sys.exit(verify())
    else:
        sys.exit(__doc__)
