# tilefit shim package: only the modules the attention ops import (tools/attention/README.md).
