#!/bin/bash
# The device command (tools/attention/README.md): bash run_device.sh LIMIT_DEV LIMIT_FULL
# from a staged copy of tools/attention with kernels/ (extract.py) and jobs/. Results into $OUT.
set -u
cd "$(dirname "$0")"
PY=${PY:-/opt/torch/.venv/bin/python3}  # Triton 3.6.0 + torch
nvidia-smi --query-gpu=name --format=csv,noheader
$PY -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
timeout "$1" $PY measure_attention.py jobs/dev.json /tmp/dev.jsonl /tmp/dumps-dev 2>&1 | tail -20
echo "dev rows: $(wc -l < /tmp/dev.jsonl)"
gzip -c /tmp/dev.jsonl > "$OUT/dev.jsonl.gz"
tar cJf "$OUT/dev-dumps.tar.xz" -C /tmp dumps-dev 2>/dev/null &
OK=$(grep -c '"status": "ok"' /tmp/dev.jsonl)
N=$(wc -l < /tmp/dev.jsonl)
if [ "$N" -gt 0 ] && [ $((OK * 10)) -ge $((N * 3)) ] && [ "$2" -gt 0 ]; then
  timeout "$2" $PY measure_attention.py jobs/full.json /tmp/full.jsonl 2>&1 | tail -20
  echo "full rows: $(wc -l < /tmp/full.jsonl)"
  gzip -c /tmp/full.jsonl > "$OUT/full.jsonl.gz"
else
  echo "dev ok $OK of $N: full not run"
  head -c 3000 /tmp/dev.jsonl
fi
wait
ls -la "$OUT"
