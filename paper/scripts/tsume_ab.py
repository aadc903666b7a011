#!/usr/bin/env python3
"""Two or more shogi-lab binaries, problem by problem, alternating (A/B of a solver change).

    python3 paper/scripts/tsume_ab.py [--memory MIB] NODES OUT PROBLEMS BIN1 BIN2 ...

PROBLEMS has `id<TAB>sfen` lines (`#` comments skipped, e.g. a selection of
specs/tsume/classics.sfen). For each problem every binary runs, in order,
`BIN tsume SFEN --json --nodes NODES --memory MIB --no-certify` (MIB 1024 unless given); OUT
gets one JSON line per run: id, binary name, result, plies, shortest, no_mate_within (`low`),
nodes, the USI line, the child's user + system CPU seconds (`cpu`) and its system share
(`sys`: the kernel zeroing the table's fresh pages, `tsume-table-growth.md`). Alternating keeps a busy machine's load on every side;
compare node counts (deterministic) and CPU, not wall time.
"""
import json
import resource
import subprocess
import sys


def main():
    args = sys.argv[1:]
    memory = '1024'
    if args[:1] == ['--memory']:
        memory, args = args[1], args[2:]
    if len(args) < 4 or not memory.isdigit() or int(memory) < 1:
        sys.exit(__doc__)
    nodes, out, problems = args[0], args[1], args[2]
    bins = args[3:]
    rows = [l.rstrip('\n').split('\t')[:2] for l in open(problems, encoding='utf-8')
            if l.strip() and not l.startswith('#')]
    with open(out, 'w', encoding='utf-8') as o:
        for id_, sfen in rows:
            for b in bins:
                t0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                p = subprocess.run([b, 'tsume', sfen, '--json', '--nodes', nodes, '--memory', memory,
                                    '--no-certify'], capture_output=True, text=True)
                t1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                d = json.loads(p.stdout.strip().splitlines()[-1])
                cpu = t1.ru_utime - t0.ru_utime + t1.ru_stime - t0.ru_stime
                r = dict(id=id_, bin=b.split('/')[-1], result=d['result'], plies=d['plies'],
                         shortest=d.get('shortest'), low=d.get('no_mate_within'), nodes=d['nodes'],
                         usi=d.get('usi') or '', cpu=round(cpu, 2),
                         sys=round(t1.ru_stime - t0.ru_stime, 2))
                o.write(json.dumps(r) + '\n')
                o.flush()


if __name__ == '__main__':
    main()
