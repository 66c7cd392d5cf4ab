/* The C ABI from C99 (tilefit/tilefit.h only): the launcher's question, one config and a batch.
 * Usage: c_launcher CONFIG_JSON [ARCH]   (exit 0: fits, 1: does not fit, 2: bad input) */
#include <stdio.h>
#include <string.h>

#include <tilefit/tilefit.h>

int main(int argc, char** argv) {
  tilefit_context* ctx;
  tilefit_target* target = NULL;
  const char* result = NULL;
  const char* batch = NULL;
  int rc, fits;
  if (argc < 2) {
    fprintf(stderr, "usage: c_launcher CONFIG_JSON [ARCH]\n");
    return 2;
  }
  if (tilefit_abi_version() != TILEFIT_ABI_VERSION) {
    fprintf(stderr, "tilefit ABI %d, built against %d\n", tilefit_abi_version(),
            TILEFIT_ABI_VERSION);
    return 2;
  }
  ctx = tilefit_context_new();
  if (!ctx) return 2;
  printf("tilefit %s (ABI %d)\n", tilefit_version(), tilefit_abi_version());
  rc = tilefit_analyze(ctx, argv[1], argc > 2 ? argv[2] : NULL, 0, &result);
  if (rc != TILEFIT_OK) {
    fprintf(stderr, "error %d: %s [field: %s]\n", rc, tilefit_error_message(ctx),
            tilefit_error_field(ctx));
    tilefit_context_free(ctx);
    return 2;
  }
  printf("%s\n", result);
  fits = strstr(result, "\"fits\":true") != NULL;
  /* Many configs against one target: the same one twice and a bad one, verdicts only. */
  if (tilefit_target_builtin(ctx, "sm_120", &target) == TILEFIT_OK) {
    char configs[8192];
    snprintf(configs, sizeof configs, "[%s, %s, {\"tile\": [128, 0, 128], \"dtype\": \"nvfp4\"}]",
             argv[1], argv[1]);
    rc = tilefit_analyze_batch(ctx, configs, target, TILEFIT_VERDICT | TILEFIT_COMPACT, &batch);
    if (rc == TILEFIT_OK)
      printf("batch: %s\n", batch);
    else
      fprintf(stderr, "batch error %d: %s\n", rc, tilefit_error_message(ctx));
    tilefit_target_free(target);
  }
  tilefit_context_free(ctx);
  return fits ? 0 : 1;
}
