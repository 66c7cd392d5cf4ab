/* tilefit's C ABI (C99): does a GEMM tile configuration fit in shared memory?
 *
 * Configs go in and results come out as JSON text: configs as tilefit's config files have them,
 * results key for key as `tilefit check --format json` writes them (the same column model writes
 * both: `tilefit schema results` describes every key, schema_version 3). Link libtilefit.so
 * (CMake: tilefit::c; pkg-config: tilefit-c). Only tilefit_* symbols are exported; the library
 * holds its own C++ runtime state.
 *
 *   tilefit_context* ctx = tilefit_context_new();
 *   const char* result;
 *   if (tilefit_analyze(ctx, "{\"arch\": \"sm_120\", \"dtype\": \"nvfp4\", \"grouped\": true,"
 *                            " \"epilogue\": \"finalize\", \"tile\": \"CtaShape128x256x64B\"}",
 *                       NULL, 0, &result) == TILEFIT_OK)
 *     puts(result);          (* {"name":"#0","file":"<config>","index":0,"kernel":"sm120_blockscaled",...,
                                 "status":"does_not_fit",...,"smem_bytes":102400,...} *)
 *   else
 *     fprintf(stderr, "%s (field %s)\n", tilefit_error_message(ctx), tilefit_error_field(ctx));
 *   tilefit_context_free(ctx);
 *
 * Strings returned through `out` parameters belong to the context and stay valid until the next
 * call on that context (or tilefit_context_free). A context is used by one thread at a time;
 * contexts are independent (one per thread).
 *
 * Versioning: TILEFIT_ABI_VERSION is bumped whenever a function's signature or meaning changes;
 * compare it with tilefit_abi_version() at run time. Functions are only ever added within an ABI
 * version, and result JSON only gains members. ABI 2: the JSON is the CLI's (schema_version 3):
 * a result has every member of `check --format json`'s (file "<config>" for a config given as
 * text), a target is a result's "target" (optin_per_block_bytes, ...; no "sm"), a suggestion is
 * `suggest --format json`'s, a check of files is the CLI's document (files_skipped in its
 * summary), an error is an element of its "errors" (message, and the one line as "text").
 */
#ifndef TILEFIT_TILEFIT_H
#define TILEFIT_TILEFIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TILEFIT_C_API __attribute__((visibility("default")))
#else
#define TILEFIT_C_API
#endif

#define TILEFIT_ABI_VERSION 2

/* Return codes: the CLI's exit codes where they mean the same thing. */
#define TILEFIT_OK 0
#define TILEFIT_ERROR_INPUT \
  2 /* bad config JSON, an unknown arch, a bad argument: message + field */
#define TILEFIT_ERROR_DEVICE \
  3 /* no GPU could be asked (no driver, no device, built without CUDA) */
#define TILEFIT_ERROR_INTERNAL 5 /* a bug in tilefit (please report it), or out of memory */

/* Flags of the analyse calls (a bit a function does not know is an input error, field "flags"). */
#define TILEFIT_VERDICT \
  1u /* the verdict columns only (name, file, index, kernel, arch, fits, status, stages,     \
        auto_stages, max_stages, max_stages_smem_bytes, smem_bytes, limit_bytes,            \
        headroom_bytes, ctas_per_sm): no breakdown, no diagnostics (fast) */
/* tilefit_analyze_batch only, with TILEFIT_VERDICT: each result as an array
 * [STATUS, smem_bytes, stages, max_stages, max_stages_smem_bytes] (STATUS 0 fits, 1 does not fit,
 * 2 invalid; a byte count null when unknown) — for pruning thousands of configs. */
#define TILEFIT_COMPACT 2u

typedef struct tilefit_context tilefit_context; /* errors and output buffers */
typedef struct tilefit_target tilefit_target;   /* the limits configs are analysed against */

/* TILEFIT_ABI_VERSION of the library loaded. */
TILEFIT_C_API int tilefit_abi_version(void);
/* "0.3.0". */
TILEFIT_C_API const char* tilefit_version(void);

/* NULL only when out of memory. */
TILEFIT_C_API tilefit_context* tilefit_context_new(void);
TILEFIT_C_API void tilefit_context_free(tilefit_context* ctx);

/* The last error of a call on ctx that did not return TILEFIT_OK: the one line `tilefit check`
 * prints for it (file or "<config>", config, field, value, what is allowed), and the field at
 * fault ("tile", "arch", ...; "" when it is the config as a whole). "" after a success. */
TILEFIT_C_API const char* tilefit_error_message(const tilefit_context* ctx);
TILEFIT_C_API const char* tilefit_error_field(const tilefit_context* ctx);

/* The built-in table's limits for arch ("sm_120", "sm90", "12.0", ...; AMD: "gfx942", "mi300x",
 * "gfx950", "mi355x", by name only). */
TILEFIT_C_API int tilefit_target_builtin(tilefit_context* ctx, const char* arch,
                                         tilefit_target** out);
/* GPU `device` through the CUDA Runtime (TILEFIT_ERROR_DEVICE without one). */
TILEFIT_C_API int tilefit_target_device(tilefit_context* ctx, int device, tilefit_target** out);
/* The target as a result's "target" has it: {"source":"builtin","arch":"sm_120",
 * "optin_per_block_bytes":101376,"per_sm_bytes":102400,...} (a device's also "device",
 * "device_name"). */
TILEFIT_C_API int tilefit_target_json(tilefit_context* ctx, const tilefit_target* target,
                                      const char** out);
TILEFIT_C_API void tilefit_target_free(tilefit_target* target);

/* One config (a JSON object in the config-file format, or a CUTLASS kernel name as a JSON
 * string), analysed for `arch` (NULL or "": the config's own "arch") with the built-in table.
 * *out: one result object, as `tilefit check --format json` writes it (file "<config>", index 0). */
TILEFIT_C_API int tilefit_analyze(tilefit_context* ctx, const char* config_json, const char* arch,
                                  unsigned flags, const char** out);

/* Many configs against one target: `configs_json` is a JSON array of configs; each is analysed
 * for the target (its arch replaces the configs' own). *out: a JSON array with one element per
 * config, in order — a result object (file "<config>", index I), or, for a config that cannot be
 * read, {"status":"error"} with the members of an element of the CLI's "errors" ("kind", "file",
 * "index", "config", "field", "message", and "text": the one line). Returns TILEFIT_ERROR_INPUT
 * only when the text is not an array of configs at all. */
TILEFIT_C_API int tilefit_analyze_batch(tilefit_context* ctx, const char* configs_json,
                                        const tilefit_target* target, unsigned flags,
                                        const char** out);

/* Config files (tilefit's format, vLLM/SGLang tuned tables) and folders as `tilefit check` reads
 * them: `paths_json` a JSON array of paths (a folder: every tuned table under it; its other files
 * are skipped and counted); "-" (standard input) is refused. `arch` NULL or "": each config's own
 * arch (a tuned table's device_name) from the built-in table (`--builtin`), else that arch
 * (`--arch`). Flags: TILEFIT_VERDICT or 0. *out: the document `tilefit check --format json`
 * writes ({"schema_version":3,"tool":"tilefit","target":{...},"results":[...],"errors":[...],
 * "summary":{...,"files_skipped":N}}; file names shown as the CLI shows them: bytes that are not
 * UTF-8 as <0xXX>); the call returns TILEFIT_ERROR_INPUT (message and field of the first error)
 * when there are errors, and *out is still set. */
TILEFIT_C_API int tilefit_check_files(tilefit_context* ctx, const char* paths_json,
                                      const char* arch, unsigned flags, const char** out);

/* tilefit_check_files with the paths as `count` NUL-terminated byte strings (any bytes the file
 * system takes, UTF-8 or not). */
TILEFIT_C_API int tilefit_check_paths(tilefit_context* ctx, const char* const* paths, size_t count,
                                      const char* arch, unsigned flags, const char** out);

/* An engine release as the CLI's --engine takes it ("vllm", "sglang", "vllm@000d1458", a commit
 * prefix of 8 to 40 hex digits): *out is its pinned form ("vllm@000d1458"; the engine's name
 * alone: its newest modelled release); TILEFIT_ERROR_INPUT (field "engine") otherwise. */
TILEFIT_C_API int tilefit_engine(tilefit_context* ctx, const char* engine, const char** out);

/* A grid of Triton candidates against one target, as arrays, in one call (no JSON per
 * candidate): `base_json` is one config object with what every candidate shares ("kernel",
 * "dtype", "block_shape", ...; its "tile" is replaced); candidate i is the tile
 * [tile_m[i], tile_n[i], tile_k[i]], group_m[i] (NULL, or < 0: the base's), num_warps[i] and
 * num_stages[i] (NULL: the base's). Writes, per candidate, status[i] (0 fits, 1 does not fit,
 * 2 invalid) and, where the arrays are not NULL, smem_bytes[i], stages[i], max_stages[i] and
 * max_stages_smem_bytes[i] (-1: unknown). A candidate that is not a valid config (a tile extent
 * of 0, ...) stops the call with TILEFIT_ERROR_INPUT naming its index and field. */
TILEFIT_C_API int tilefit_analyze_grid(tilefit_context* ctx, const char* base_json,
                                       const tilefit_target* target, size_t count,
                                       const long long* tile_m, const long long* tile_n,
                                       const long long* tile_k, const long long* group_m,
                                       const int* num_warps, const int* num_stages,
                                       signed char* status, long long* smem_bytes, int* stages,
                                       int* max_stages, long long* max_stages_smem_bytes);

/* `tilefit suggest` for one config: the nearest alternatives that fit the target (at most
 * max_suggestions, 1 or more; 0 or less is an input error). *out: a JSON array, nearest first, of
 * the suggestions `tilefit suggest --format json` lists: {"config":{...},"change":"stages: auto
 * -> 2","changes":[{"field":F,"from":X,"to":Y}],"distance":D,"smem_bytes":B,"saved_bytes":S,
 * "stages":N,"max_stages":M,"status":"fits","headroom_bytes":H} (empty when the config fits or
 * no move fits). */
TILEFIT_C_API int tilefit_suggest(tilefit_context* ctx, const char* config_json,
                                  const tilefit_target* target, int max_suggestions,
                                  const char** out);

#ifdef __cplusplus
}
#endif

#endif /* TILEFIT_TILEFIT_H */
