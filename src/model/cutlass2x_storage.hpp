// CUTLASS 2.x threadblock-level shared storage, shared by sm80_multistage (device::Gemm) and the
// engines' sm_89 FP8 kernels (DefaultGemmWithVisitor). Both kernels hold
//   union SharedStorage { Mma::SharedStorage main_loop; Epilogue::SharedStorage epilogue; }
// (gemm/kernel/gemm.h:139-142, gemm_universal.h:352-355, gemm_universal_streamk.h:508-512).
// Paths relative to CUTLASS 4.7.0's include/cutlass/ (commit 7107b05).
#pragma once

#include "tilefit/model/dtype.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::model {

/// Mma::SharedStorage (gemm/threadblock/mma_base.h:140-165) with TensorOp's zero padding:
///   struct { AlignedBuffer<A, M*K*S> operand_A; AlignedBuffer<B, K*S*N> operand_B; }
///   = ru(a_bytes, 16) + ru(b_bytes, 16), alignment 16 (AlignedBuffer<T,N> is alignas(16)
///   uint8_t[ceil(N*bits(T)/8)], cutlass/aligned_buffer.h:62-69).
template <class F>
F mma_base_storage(Bytes a_bytes, Bytes b_bytes) {
  return make_struct(
      {array_aligned<F>(Component::A, a_bytes), array_aligned<F>(Component::B, b_bytes)});
}

/// EpilogueBase::SharedStorage (epilogue/threadblock/epilogue_base.h:137-168):
///   AlignedBuffer<Acc, rows*cols> = ru(ceil(rows*cols*bits(Acc)/8), 16), alignment 16, with
///   rows = WarpCount.m * 8 * kPartitionsK * FPI and cols = WarpCount.n * Wn + 64/bits(Acc)*4
///   (default_epilogue_tensor_op.h:600-606).
template <class F>
F epilogue_base_storage(int acc_bits, Bytes rows, Bytes cols) {
  return array_aligned<F>(Component::EpilogueD, bits_to_bytes(rows * cols * acc_bits));
}

/// EpilogueWithVisitorCallbacks<Base, FusionCallbacks, Stages = 1>::SharedStorage
/// (epilogue/threadblock/epilogue_with_visitor_callbacks.h:146-149):
///   struct { Base::SharedStorage acc_smem[1]; FusionCallbacks::SharedStorage callback_smem; }
/// Every Sm80 visitor node (VisitorAccFetch, VisitorCompute, VisitorRow/ColBroadcast,
/// VisitorAuxStore, and vLLM's Visitor{Row,Col}OrScalarBroadcast) has an empty SharedStorage
/// (epilogue/threadblock/fusion/visitor_load.hpp:363, 503; visitor_store.hpp:83), and so has
/// their tree: the callbacks are the 1-byte empty member, which rounds the struct up by 16 B.
template <class F>
F epilogue_visitor_storage(const F& base) {
  return make_struct({base, empty_member<F>(Component::Fusion)});
}

/// DefaultIteratorsTensorOp<ElementOutput, ElementAccumulator, ElementsPerAccess>::
/// kFragmentsPerIteration (epilogue/threadblock/default_epilogue_tensor_op.h):
///   float <- float x4 (L123-138): 2;  half <- float x8 (L197-226): 2;
///   bf16 <- int32 x8 (L235-264): 2;   half <- int32 x8 (L273-302): 2;
///   everything else (generic L99-114, int32 <- int32 L148, float <- int32 L173,
///   int8/int4 <- int32 L314, fp8 <- float L385/L452): 1.
int default_fragments_per_iteration(DType out, DType acc, int elements_per_access);

}  // namespace tilefit::model
