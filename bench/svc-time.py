#!/usr/bin/python3
"""The SVC grid of bench/side.py alone on one table of ../shared/data
(its seeded 75/25 split), with its wall and CPU seconds, for timing
rounds that alternate it with ntkrf (docs/PERFORMANCE.md, "Successive
halving"): /usr/bin/python3 bench/svc-time.py TABLE (e.g. Glass)."""
import os, sys, time, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import side
import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC
f = sys.argv[1]
D=os.environ.get('DATA', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'data'))
header, rows = side.read(f'{D}/{f}.csv')
target = side.TARGETS[f+'.csv']; t = header.index(target)
rows = [r for r in rows if len(r) == len(header) and r[t].strip() not in side.MISSING]
train, test = side.split(rows, 1)
Xtr, Xte = side.encode(header, train, test, t)
ytr = np.array([r[t].strip() for r in train]); yte = np.array([r[t].strip() for r in test])
cv = StratifiedKFold(5, shuffle=True, random_state=0)
t0 = time.perf_counter(); c0 = time.process_time()
g = GridSearchCV(SVC(kernel='rbf'), {'C': [0.1, 1, 10, 100], 'gamma': ['scale', 0.01, 0.1]}, cv=cv).fit(Xtr, ytr)
w = time.perf_counter() - t0; c = time.process_time() - c0
print('%-20s %-14s wall %6.2f cpu %6.2f acc %.4f svc %s' % (f, 'svc', w, c, np.mean(g.predict(Xte) == yte), g.best_params_))
