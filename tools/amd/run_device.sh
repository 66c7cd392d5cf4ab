#!/bin/bash
# The device command: bash tools/amd/run_device.sh JOBS.json NAME LIMIT_S (from the repository root,
# with tools/engines/kernels carried). Results gzipped into $OUT; the wheel's AMD backend sources too.
set -u
JOBS=$1; NAME=$2; LIMIT=${3:-400}
PY=/opt/torch/.venv/bin/python3
SP=$($PY -c "import triton,os; print(os.path.dirname(triton.__file__))")
tar czf $OUT/amd_backend_py.tgz -C $SP backends/amd/compiler.py backends/amd/driver.py knobs.py 2>/dev/null
export PYTHONUNBUFFERED=1 MEASURE_LIMIT_S=$LIMIT
$PY tools/amd/measure_amd.py $JOBS /tmp/$NAME.jsonl /tmp/dumps_$NAME 2>&1 | tail -25
gzip -c /tmp/$NAME.jsonl > $OUT/$NAME.jsonl.gz
tar czf $OUT/dumps_$NAME.tgz -C /tmp dumps_$NAME
ls -la $OUT
