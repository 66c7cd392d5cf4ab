#!/bin/bash
# The device command (run from a staged copy of tools/engines with kernels/ extracted):
#   bash run_device.sh JOBS.json NAME [LIMIT_S]
# writes $OUT/NAME.jsonl.gz (results) and $OUT/NAME-dumps.tgz (IR dumps of dump:true jobs).
cd "$(dirname "$0")"
PY=/opt/torch/.venv/bin/python3
[ -x $PY ] || PY=python3
export PYTHONUNBUFFERED=1
$PY -c "import triton,torch,sys,os; print(triton.__version__, torch.__version__, sys.version.split()[0], os.cpu_count(), 'cpus')"
rm -rf /tmp/dumps_$2
MEASURE_LIMIT_S=${3:-480} timeout $(( ${3:-480} + 60 )) $PY measure_engines.py "$1" /tmp/$2.jsonl /tmp/dumps_$2
gzip -c /tmp/$2.jsonl > $OUT/$2.jsonl.gz
[ -d /tmp/dumps_$2 ] && tar czf $OUT/$2-dumps.tgz -C /tmp dumps_$2
ls -la $OUT
