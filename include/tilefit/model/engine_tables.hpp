// The engines' tuned-table lint: a vLLM or SGLang table whose file name its engine, at the
// modelled release, never builds, so the engine never loads it (the rules and their sources:
// src/model/diagnostics/engine_tables.def). Pure: the file name in, a warning out.
//
//   lint_table_name("E=16,N=1024,device_name=NVIDIA_H100,dtype=int8_w8a8.json",
//                   EngineRelease::Vllm6adad087)
//     -> table_dtype_never_built {engine: "vllm@6adad087", dtype: "int8_w8a8", allowed: "…"}
#pragma once

#include <optional>
#include <string_view>

#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/engine_release.hpp"

namespace tilefit::model {

/// The first reason `release`'s engine never loads a table of file name `path` (its last part:
/// "E=…,N=…,device_name=…[,dtype=…][,block_shape=[n,k]][,per_channel_quant=…][_down].json" or
/// "N=…,K=…,device_name=…,dtype=…,block_shape=[n,k].json"); nullopt when it would, when the
/// name is not a tuned table's, and for a release whose loader was not read (vLLM 000d1458).
std::optional<Diagnostic> lint_table_name(std::string_view path, EngineRelease release);

}  // namespace tilefit::model
