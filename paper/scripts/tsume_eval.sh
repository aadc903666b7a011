#!/bin/bash
# usage: eval.sh BIN FILE NODES
"$1" tsume --nodes ${3:-1000000} --memory 1024 --json "$2" 2>/dev/null | python3 -c "
import json,sys
tot=0;sol=0;t=0;rows=[]
for l in sys.stdin:
  d=json.loads(l); tot+=d['nodes']; t+=d['time_ms']; sol+= d['result']=='mate'
  rows.append(f\"{d['id']}:{d['result'][0]}{d['plies'] or ''}/{d['nodes']//1000}k\")
print(' '.join(rows)); print(f'solved {sol}/{len(rows)} nodes {tot} time {t/1000:.1f}s  knps {tot/t:.0f}')
"
