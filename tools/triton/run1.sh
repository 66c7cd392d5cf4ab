#!/bin/bash
# first device run: measurements + allocator summaries + a few full IR dumps + Triton's Python sources
cd "$(dirname "$0")"
PY=/opt/torch/.venv/bin/python3
[ -x $PY ] || PY=python3
$PY -c "import triton,torch,sys; print(triton.__version__, torch.__version__, sys.version)"
SP=$($PY -c "import triton,os; print(os.path.dirname(triton.__file__))")
tar czf $OUT/triton_py.tgz --exclude='*.so' --exclude='*/bin/*' --exclude='*/lib/*' --exclude='__pycache__' -C $(dirname $SP) triton 2>&1 | tail -2
ls $SP/../ | grep -i triton
cat $SP/../triton-*.dist-info/RECORD 2>/dev/null | grep -v "\.py," | head -20 > $OUT/record_head.txt
export PYTHONUNBUFFERED=1
timeout 420 $PY measure2.py jobs1.json /tmp/res1.jsonl /tmp/dumps
gzip -c /tmp/res1.jsonl > $OUT/res1.jsonl.gz
tar czf $OUT/dumps1.tgz -C /tmp dumps
ls -la $OUT
