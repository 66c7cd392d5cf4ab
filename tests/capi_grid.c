/* The tuner grid through the C ABI alone (tilefit/tilefit.h, C99): every row of a ground-truth
 * file (tests/data/measured-triton-3.6-grid.jsonl: what Triton 3.6.0 compiled for the 1920-config
 * fp16 matmul grid on sm_90, sm_120 and sm_89) is analysed with one tilefit_analyze_batch call
 * per arch (TILEFIT_VERDICT | TILEFIT_COMPACT, the pruning path); the status and smem_bytes must be
 * the measured ones. Prints kept/dropped per arch; exit 0 when all agree, 1 otherwise, 2 on errors.
 * Usage: capi_grid ROWS.jsonl */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilefit/tilefit.h>

#define MAX_ROWS 8192
#define MAX_ARCHS 16

typedef struct {
  char arch[16];
  char* config; /* the row's "config" object (flat: no nested objects) */
  int status;   /* 0 fits, 1 does not fit, 2 invalid */
  long smem;    /* -1: null */
} row_t;

static int read_rows(const char* path, row_t* rows, int* n) {
  static char line[1 << 16];
  FILE* f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "%s: cannot open\n", path);
    return 0;
  }
  *n = 0;
  while (fgets(line, sizeof line, f)) {
    const char *c, *end, *a, *s, *b;
    row_t* r;
    if (*n == MAX_ROWS) break;
    r = &rows[*n];
    c = strstr(line, "\"config\": {");
    a = c ? strstr(c, "\"arch\": \"") : NULL;
    s = strstr(line, "\"status\": \"");
    b = strstr(line, "\"smem_bytes\": ");
    if (!c || !a || !s || !b) {
      fprintf(stderr, "%s: row %d: not a ground-truth row\n", path, *n + 1);
      fclose(f);
      return 0;
    }
    c += strlen("\"config\": ");
    end = strchr(c, '}');
    r->config = malloc((size_t)(end - c) + 2);
    memcpy(r->config, c, (size_t)(end - c) + 1);
    r->config[end - c + 1] = '\0';
    sscanf(a + strlen("\"arch\": \""), "%15[^\"]", r->arch);
    s += strlen("\"status\": \"");
    r->status = strncmp(s, "fits", 4) == 0 ? 0 : strncmp(s, "does_not_fit", 12) == 0 ? 1 : 2;
    b += strlen("\"smem_bytes\": ");
    r->smem = strncmp(b, "null", 4) == 0 ? -1 : atol(b);
    ++*n;
  }
  fclose(f);
  return 1;
}

int main(int argc, char** argv) {
  static row_t rows[MAX_ROWS];
  char archs[MAX_ARCHS][16];
  int n = 0, narchs = 0, i, j, bad = 0;
  tilefit_context* ctx;
  if (argc != 2) {
    fprintf(stderr, "usage: capi_grid ROWS.jsonl\n");
    return 2;
  }
  if (!read_rows(argv[1], rows, &n) || n == 0) return 2;
  for (i = 0; i < n; ++i) {
    for (j = 0; j < narchs && strcmp(archs[j], rows[i].arch) != 0; ++j) {
    }
    if (j == narchs && narchs < MAX_ARCHS) strcpy(archs[narchs++], rows[i].arch);
  }
  ctx = tilefit_context_new();
  for (j = 0; j < narchs; ++j) {
    tilefit_target* target = NULL;
    const char* out = NULL;
    const char* p;
    size_t len = 3;
    char* batch;
    int idx[MAX_ROWS], m = 0, k, kept = 0, wrong = 0;
    for (i = 0; i < n; ++i)
      if (strcmp(rows[i].arch, archs[j]) == 0) {
        idx[m++] = i;
        len += strlen(rows[i].config) + 1;
      }
    batch = malloc(len);
    strcpy(batch, "[");
    for (k = 0; k < m; ++k) {
      if (k) strcat(batch, ",");
      strcat(batch, rows[idx[k]].config);
    }
    strcat(batch, "]");
    if (tilefit_target_builtin(ctx, archs[j], &target) != TILEFIT_OK ||
        tilefit_analyze_batch(ctx, batch, target, TILEFIT_VERDICT | TILEFIT_COMPACT, &out) !=
            TILEFIT_OK) {
      fprintf(stderr, "%s: %s\n", archs[j], tilefit_error_message(ctx));
      return 2;
    }
    /* out: [[STATUS,smem_bytes,stages,max_stages,max_stages_smem_bytes],...] */
    p = out + 1;
    for (k = 0; k < m; ++k) {
      const row_t* r = &rows[idx[k]];
      int status;
      long smem;
      p = strchr(p, '[');
      if (!p || sscanf(p, "[%d,", &status) != 1) {
        fprintf(stderr, "%s: result %d: unexpected output\n", archs[j], k);
        return 2;
      }
      p = strchr(p, ',') + 1;
      smem = strncmp(p, "null", 4) == 0 ? -1 : atol(p);
      if (status == 0) ++kept;
      if (status != r->status || smem != r->smem) {
        ++wrong;
        if (wrong <= 5)
          fprintf(stderr, "%s: %s: tilefit status %d smem %ld, measured status %d smem %ld\n",
                  archs[j], r->config, status, smem, r->status, r->smem);
      }
      p = strchr(p, ']') + 1;
    }
    printf("%s: %d configs, kept %d, dropped %d, disagreements %d\n", archs[j], m, kept, m - kept,
           wrong);
    bad += wrong;
    free(batch);
    tilefit_target_free(target);
  }
  tilefit_context_free(ctx);
  for (i = 0; i < n; ++i) free(rows[i].config);
  return bad ? 1 : 0;
}
