#!/usr/bin/env python3
"""Where a default-mode solve's nodes go: first proof, top-down proofs, the last top-down
step (the disproof just below the shortest mate, or the step a limit cut), bottom-up steps
and the line walk.

    git apply paper/scripts/minimality-trace.patch   # on the commit it names; not for main
    cargo build --release
    python3 paper/scripts/minimality_phases.py target/release/shogi-lab PROBLEMS OUTDIR \
        [--nodes 20000000] [--memory 512]

PROBLEMS has `id<TAB>sfen` lines (`#` comments skipped). Each problem runs in its own process
with SL_TRACE=1 (the patch prints one line per phase on stderr); OUTDIR keeps each run's JSON
answer and trace, and the summary table (Markdown) goes to stdout. Node counts are
deterministic; the patch changes no search.
"""
import argparse
import json
import os
import re
import subprocess

PHASES = [
    ('first', r'FIRST nodes (\d+)'),
    ('top-down proofs', r'TD \d+ proven true disproven false bound \d+ nodes (\d+)'),
    ('last top-down step', r'TD \d+ proven false disproven \w+ bound \d+ nodes (\d+)'),
    ('bottom-up', r'BU \d+ proven \w+ disproven \w+ nodes (\d+)'),
    ('line walk', r'WALK nodes (\d+)'),
]


def run(binary, problems, outdir, nodes, memory):
    os.makedirs(outdir, exist_ok=True)
    rows = [l.rstrip('\n').split('\t')[:2] for l in open(problems, encoding='utf-8')
            if l.strip() and not l.startswith('#')]
    for id_, sfen in rows:
        p = subprocess.run([binary, 'tsume', sfen, '--json', '--no-certify', '--nodes', str(nodes),
                            '--memory', str(memory)], capture_output=True, text=True,
                           env=dict(os.environ, SL_TRACE='1'))
        with open(os.path.join(outdir, id_ + '.json'), 'w', encoding='utf-8') as f:
            f.write(p.stdout)
        with open(os.path.join(outdir, id_ + '.err'), 'w', encoding='utf-8') as f:
            f.write(p.stderr)
    return [r[0] for r in rows]


def summary(outdir, ids):
    groups = {'proven shortest': [], 'mate, not proven': [], 'all': []}
    for id_ in ids:
        lines = open(os.path.join(outdir, id_ + '.json'), encoding='utf-8').read().split('\n')
        lines = [l for l in lines if l.strip()]
        if not lines:
            continue
        d = json.loads(lines[-1])
        ph = dict.fromkeys([k for k, _ in PHASES], 0)
        for l in open(os.path.join(outdir, id_ + '.err'), encoding='utf-8'):
            for k, pat in PHASES:
                m = re.match(pat, l)
                if m:
                    ph[k] += int(m.group(1))
        row = (d['nodes'], ph)
        groups['all'].append(row)
        if d.get('shortest'):
            groups['proven shortest'].append(row)
        elif d['result'] == 'mate':
            groups['mate, not proven'].append(row)
    print('| problems | n | nodes | ' + ' | '.join(k for k, _ in PHASES) + ' |')
    print('|---|---|---|' + '---|' * len(PHASES))
    for name, rows in groups.items():
        total = sum(n for n, _ in rows) or 1
        cells = []
        for k, _ in PHASES:
            v = sum(ph[k] for _, ph in rows)
            cells.append(f'{v / 1e6:.1f} M ({100 * v / total:.0f} %)')
        print(f'| {name} | {len(rows)} | {total / 1e6:.1f} M | ' + ' | '.join(cells) + ' |')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('binary')
    ap.add_argument('problems')
    ap.add_argument('outdir')
    ap.add_argument('--nodes', type=int, default=20_000_000)
    ap.add_argument('--memory', type=int, default=512)
    a = ap.parse_args()
    summary(a.outdir, run(a.binary, a.problems, a.outdir, a.nodes, a.memory))


if __name__ == '__main__':
    main()
