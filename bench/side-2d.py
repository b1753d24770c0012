#!/usr/bin/python3
"""The 2-D high-frequency sets of issue 39 (own generated): ntkrf with no
options (`ntkrf holdout`) against the oracle, the exact NTK with a bias
input, depth 1…5 and λ chosen on the test rows (`holdout -oracle`), on a
seeded 75/25 split. Done when every set is within 3 points of the oracle.

  /usr/bin/python3 bench/side-2d.py [--native dist/bin/ntkrf] [--seed 1]
"""
import argparse, csv, json, os, subprocess, tempfile
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def checkerboard(rng, n, k):
    X = rng.uniform(-1, 1, (n, 2))
    c = (np.floor((X[:, 0] + 1) / 2 * k) + np.floor((X[:, 1] + 1) / 2 * k)) % 2
    return X, c.astype(int)


def rings(rng, n, k=3):
    c = rng.integers(0, k, n)
    r = (c + 1) / k + rng.normal(0, 0.08, n)
    t = rng.uniform(0, 2 * np.pi, n)
    return np.c_[r * np.cos(t), r * np.sin(t)], c


def sine(rng, n, periods=3, flip=0.05):
    X = rng.uniform(-1, 1, (n, 2))
    c = (X[:, 1] > 0.5 * np.sin(np.pi * periods * X[:, 0])).astype(int)
    f = rng.uniform(size=n) < flip
    c[f] = 1 - c[f]
    return X, c


SETS = [('checkerboard 4×4, 400', lambda r: checkerboard(r, 400, 4)),
        ('checkerboard 4×4, 1000', lambda r: checkerboard(r, 1000, 4)),
        ('checkerboard 6×6, 1000', lambda r: checkerboard(r, 1000, 6)),
        ('three rings, 600', lambda r: rings(r, 600)),
        ('3-period sine, 500 (5 % flipped)', lambda r: sine(r, 500))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--native', default=os.path.join(ROOT, 'dist', 'bin', 'ntkrf'))
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args()
    worst = 0
    for name, gen in SETS:
        X, c = gen(np.random.default_rng(a.seed))
        perm = np.random.RandomState(a.seed).permutation(len(c))
        cut = int(round(0.75 * len(c)))
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for part, idx in (('train', perm[:cut]), ('test', perm[cut:])):
                p = os.path.join(d, part + '.csv')
                with open(p, 'w', newline='') as f:
                    w = csv.writer(f)
                    w.writerow(['x', 'y', 'class'])
                    w.writerows([[f'{X[i, 0]:.6f}', f'{X[i, 1]:.6f}', f'c{c[i]}'] for i in idx])
                paths.append(p)
            r = subprocess.run([a.native, 'holdout', '-train', paths[0], '-test', paths[1], '-target', 'class', '-oracle'], capture_output=True, text=True)
        out = json.loads(r.stdout.strip().splitlines()[-1])
        gap = out['oracle'] - out['accuracy']
        worst = max(worst, gap)
        print(f"| {name} | {out['accuracy']:.3f} in {out['seconds']:.1f} s ({out['chosen']}) | {out['oracle']:.3f} ({out['oracleAt']}) | {100 * gap:+.1f} |")
    print(f"largest gap below the oracle: {100 * worst:.1f} points (done when ≤ 3)")


if __name__ == '__main__':
    main()
