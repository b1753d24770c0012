#!/usr/bin/python3
"""Side by side on any CSV (issue 39): ntkrf with no options natively
(`ntkrf holdout`) and in the package (bench/side-package.mjs, needs
./build.sh build), and scikit-learn's grid searches, on the same seeded
75/25 split of the rows, time (of the fit: the grid search with its refit)
and held-out accuracy (R² for regression).

  /usr/bin/python3 bench/side.py [--native dist/bin/ntkrf] [--no-package]
      [--compare OTHER-NTKRF] [--cache FILE] [--markdown] FILE.csv[:TARGET] ...

--compare adds a column: another ntkrf binary's `holdout` on the same
split, run beside the others (a change's before and after in one run).

scikit-learn (Debian's python3-sklearn; run with /usr/bin/python3): SVC
RBF, C ∈ {0.1, 1, 10, 100} × γ ∈ {scale, 0.01, 0.1}, and KernelRidge RBF
(one-hot targets, argmax), α ∈ {1e-3, 1e-2, 1e-1, 1} × γ ∈ {0.003, 0.01,
0.03, 0.1}, both 5-fold GridSearchCV with its default n_jobs (one core),
after mean imputation, standardising the numeric columns and one-hot
encoding the others (categories of the training rows). KernelRidge is
skipped above --krr-rows training rows (its 100 n×n fits do not fit in
time or memory). scikit-learn's results depend only on the split: --cache
keeps them between runs.
"""
import argparse, csv, io, json, os, subprocess, sys, tempfile, time
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The targets of ../shared/data's tables (its README).
TARGETS = {'iris.csv': 'target', 'wine.csv': 'target', 'breast_cancer.csv': 'target', 'digits.csv': 'target',
           'Sonar.csv': 'Class', 'Ionosphere.csv': 'Class', 'Glass.csv': 'Type', 'Vehicle.csv': 'Class',
           'PimaIndiansDiabetes.csv': 'diabetes', 'Satellite.csv': 'classes', 'LetterRecognition.csv': 'lettr',
           'Shuttle.csv': 'Class', 'diabetes.csv': 'target', 'BostonHousing.csv': 'medv', 'diamonds.csv': 'price'}
MISSING = {'', 'NA', 'na', 'NaN', 'nan', '?', 'null', 'NULL'}


def read(path):
    with open(path, newline='') as f:
        text = f.read()
    dialect = csv.Sniffer().sniff(text[:4096], delimiters=',;\t|')
    rows = [r for r in csv.reader(io.StringIO(text), dialect) if r]
    return rows[0], rows[1:]


def split(rows, seed):
    perm = np.random.RandomState(seed).permutation(len(rows))
    cut = int(round(0.75 * len(rows)))
    return [rows[i] for i in perm[:cut]], [rows[i] for i in perm[cut:]]


def write(path, header, rows):
    with open(path, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


def encode(header, train, test, t):
    """X_train, X_test: numeric columns mean-imputed and standardised,
    the others one-hot (training categories), both from the training rows."""
    cols_tr, cols_te = [], []
    for j in range(len(header)):
        if j == t:
            continue
        vals = [r[j].strip() for r in train]
        present = [v for v in vals if v not in MISSING]
        if present and all(num(v) is not None for v in present):
            a = np.array([num(v) if v not in MISSING else np.nan for v in vals])
            b = np.array([num(r[j].strip()) if r[j].strip() not in MISSING and num(r[j].strip()) is not None else np.nan for r in test])
            mu = np.nanmean(a)
            a[np.isnan(a)] = mu
            b[np.isnan(b)] = mu
            sd = a.std() or 1.0
            cols_tr.append(((a - mu) / sd)[:, None])
            cols_te.append(((b - mu) / sd)[:, None])
        else:
            cats = sorted(set(present))
            if len(cats) < 2:
                continue
            ix = {c: i for i, c in enumerate(cats)}
            for rows, out in ((train, cols_tr), (test, cols_te)):
                m = np.zeros((len(rows), len(cats)))
                for i, r in enumerate(rows):
                    k = ix.get(r[j].strip())
                    if k is not None:
                        m[i, k] = 1
                out.append(m)
    return np.hstack(cols_tr), np.hstack(cols_te)


def sklearn_grids(Xtr, ytr, Xte, yte, classify, krr_rows):
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
    from sklearn.kernel_ridge import KernelRidge
    from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold
    from sklearn.svm import SVC

    class KRRClassifier(ClassifierMixin, BaseEstimator):
        def __init__(self, alpha=1.0, gamma=None):
            self.alpha, self.gamma = alpha, gamma

        def fit(self, X, y):
            self.classes_ = np.unique(y)
            Y = (y[:, None] == self.classes_[None, :]).astype(float)
            self.k_ = KernelRidge(kernel='rbf', alpha=self.alpha, gamma=self.gamma).fit(X, Y)
            return self

        def predict(self, X):
            return self.classes_[np.argmax(self.k_.predict(X), axis=1)]

    out = {}
    cv = StratifiedKFold(5, shuffle=True, random_state=0) if classify else KFold(5, shuffle=True, random_state=0)
    grids = []
    if classify:
        grids.append(('svc', SVC(kernel='rbf'), {'C': [0.1, 1, 10, 100], 'gamma': ['scale', 0.01, 0.1]}))
    if len(ytr) <= krr_rows:
        krr = KRRClassifier() if classify else KernelRidge(kernel='rbf')
        grids.append(('krr', krr, {'alpha': [1e-3, 1e-2, 1e-1, 1], 'gamma': [0.003, 0.01, 0.03, 0.1]}))
    for name, est, grid in grids:
        t0 = time.perf_counter()
        g = GridSearchCV(est, grid, cv=cv).fit(Xtr, ytr)
        secs = time.perf_counter() - t0
        pred = g.predict(Xte)
        if classify:
            score = float(np.mean(pred == yte))
        else:
            score = float(1 - np.sum((yte - pred) ** 2) / np.sum((yte - yte.mean()) ** 2))
        out[name] = {'seconds': secs, 'score': score, 'params': {k: v for k, v in g.best_params_.items()}}
    return out


def run_json(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return {'error': (r.stderr or r.stdout).strip().splitlines()[-1:]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('files', nargs='+')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--native', default=os.path.join(ROOT, 'dist', 'bin', 'ntkrf'))
    ap.add_argument('--no-package', action='store_true')
    ap.add_argument('--compare', default='', help='another ntkrf binary, its holdout in an extra column')
    ap.add_argument('--no-sklearn', action='store_true')
    ap.add_argument('--krr-rows', type=int, default=5000)
    ap.add_argument('--cache', default='')
    ap.add_argument('--markdown', action='store_true')
    a = ap.parse_args()
    cache = {}
    if a.cache and os.path.exists(a.cache):
        with open(a.cache) as f:
            cache = json.load(f)
    results = []
    for spec in a.files:
        path, _, target = spec.partition(':')
        target = target or TARGETS.get(os.path.basename(path), '')
        header, rows = read(path)
        t = header.index(target) if target else len(header) - 1
        target = header[t]
        rows = [r for r in rows if len(r) == len(header) and r[t].strip() not in MISSING]
        train, test = split(rows, a.seed)
        res = {'file': os.path.basename(path), 'rows': len(rows), 'cols': len(header) - 1}
        with tempfile.TemporaryDirectory() as d:
            ftr, fte = os.path.join(d, 'train.csv'), os.path.join(d, 'test.csv')
            write(ftr, header, train)
            write(fte, header, test)
            if a.compare:
                res['compare'] = run_json([a.compare, 'holdout', '-train', ftr, '-test', fte, '-target', target])
            res['native'] = run_json([a.native, 'holdout', '-train', ftr, '-test', fte, '-target', target])
            if not a.no_package:
                res['package'] = run_json(['node', os.path.join(ROOT, 'bench', 'side-package.mjs'), ftr, fte, target])
        classify = res['native'].get('task', 'classification') == 'classification'
        key = f"{res['file']}:{target}:{a.seed}:{a.krr_rows}"
        if not a.no_sklearn:
            if key not in cache:
                Xtr, Xte = encode(header, train, test, t)
                ytr = np.array([r[t].strip() for r in train])
                yte = np.array([r[t].strip() for r in test])
                if not classify:
                    ytr, yte = ytr.astype(float), yte.astype(float)
                cache[key] = sklearn_grids(Xtr, ytr, Xte, yte, classify, a.krr_rows)
                if a.cache:
                    with open(a.cache, 'w') as f:
                        json.dump(cache, f, indent=1)
            res.update(cache[key])
        results.append(res)
        report(res, a.markdown, bool(a.compare))
        sys.stdout.flush()
    summary(results)


def cell(r, score):
    if not r:
        return '–'
    if 'error' in r:
        return 'error: ' + ' '.join(r['error'])[:60]
    s = r.get(score, r.get('accuracy', r.get('r2', r.get('score'))))
    warm = f" (again {r['warmSeconds']:.1f} s)" if 'warmSeconds' in r else ''
    return f"{s:.3f} in {r['seconds']:.1f} s{warm}"


def report(res, markdown, compare=False):
    n = res['native']
    cells = [f"{res['file']} ({res['rows']} × {res['cols']})", cell(n, 'accuracy'), cell(res.get('package'), 'accuracy'),
             cell(res.get('svc'), 'score'), cell(res.get('krr'), 'score'), n.get('chosen', '')]
    if compare:
        c = res.get('compare', {})
        cells[1:1] = [cell(c, 'accuracy') + (f" ({c['chosen']})" if 'chosen' in c else '')]
    if markdown:
        print('| ' + ' | '.join(cells) + ' |')
    else:
        print('  '.join(f'{c:<26}' for c in cells))


def summary(results):
    cls = [r for r in results if 'accuracy' in r['native'] and 'svc' in r]
    if not cls:
        return
    nat = np.mean([r['native']['accuracy'] for r in cls])
    svc = np.mean([r['svc']['score'] for r in cls])
    worst = min(((r['native']['accuracy'] - max(r['svc']['score'], r.get('krr', {}).get('score', 0))), r['file']) for r in cls)
    slow = [r['file'] for r in cls if r['native']['seconds'] > r['svc']['seconds']]
    cmp = [r['compare']['accuracy'] for r in cls if 'accuracy' in r.get('compare', {})]
    if len(cmp) == len(cls):
        print(f"compared binary: mean accuracy {np.mean(cmp):.4f}; native slower than the SVC grid on: "
              f"{', '.join(r['file'] for r in cls if r['compare']['seconds'] > r['svc']['seconds']) or 'none'}")
    print(f"classification, {len(cls)} tables: mean accuracy ntkrf {nat:.4f}, SVC grid {svc:.4f} ({nat - svc:+.4f}); "
          f"worst ntkrf − better sklearn grid {worst[0]:+.3f} ({worst[1]}); native slower than the SVC grid on: {', '.join(slow) or 'none'}")
    pk = [r for r in cls if 'seconds' in r.get('package', {})]
    if pk:
        print('package / native time (first fit, again): ' + ', '.join(f"{r['file']} {r['package']['seconds'] / r['native']['seconds']:.2f}× {r['package']['warmSeconds'] / r['native']['seconds']:.2f}×" for r in pk))


if __name__ == '__main__':
    main()
