// Hand-computed cases for the C++ layout helpers (cutlass-smem-model.md §1.1-§1.3).
#include <gtest/gtest.h>

#include "model_test_util.hpp"

#include "model/epilogue_storage.hpp"
#include "model/sm90_epilogue.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::model {
namespace {

TEST(Layout, StructPlacesMembersAtTheirAlignment) {
  // { char (1 @0); int64 (8 @8); char (1 @16) } -> end 17, align 8 -> sizeof 24.
  const Field s =
      make_struct({leaf(Component::A, 1, 1), leaf(Component::B, 8, 8), leaf(Component::SFA, 1, 1)});
  EXPECT_EQ(s.size, 24);
  EXPECT_EQ(s.align, 8);
  EXPECT_EQ(s.part(Component::Padding), 14);  // 7 before the int64, 7 at the end
  EXPECT_EQ(test::sum_parts(s), s.size);
}

TEST(Layout, EmptyBaseRaisesAlignmentOnly) {
  // aligned_struct<128> base + 20 bytes of align-4 data -> sizeof 128.
  const Field s = make_struct({leaf(Component::Scheduler, 20, 4)}, 128);
  EXPECT_EQ(s.size, 128);
  EXPECT_EQ(s.align, 128);
  EXPECT_EQ(s.part(Component::Scheduler), 20);
}

TEST(Layout, UnionTakesTheLargestMemberRoundedToTheLargestAlignment) {
  // union { 12288 B align 512; 100 B align 1024 } -> ru(12288, 1024) = 12288.
  const Field u = make_union({with_align(leaf(Component::EpilogueC, 12288, 16), 512),
                              with_align(leaf(Component::EpilogueD, 100, 16), 1024)});
  EXPECT_EQ(u.size, 12288);
  EXPECT_EQ(u.align, 1024);
  EXPECT_EQ(u.part(Component::EpilogueC), 12288);
  EXPECT_EQ(u.part(Component::EpilogueD), 0);
}

TEST(Layout, ArrayContainers) {
  EXPECT_EQ(array_aligned(Component::SFA, 1000).size, 1008);  // ru(1000, 16)
  EXPECT_EQ(array_aligned(Component::SFA, 1000).align, 16);
  EXPECT_EQ(array_aligned(Component::SFA, 0).size, 16);        // empty alignas(16) class
  EXPECT_EQ(array_subbyte(Component::A, 4 * 1001).size, 501);  // ceil(4004 bits / 8)
  EXPECT_EQ(array_subbyte(Component::A, 4 * 1001).align, 1);
  EXPECT_EQ(array_engine(Component::A, 128 * 128, 4).size, 8192);
  EXPECT_EQ(array_engine(Component::A, 10, 8).size, 16);
}

TEST(Layout, PipelineBarriers) {
  EXPECT_EQ(pipeline_barriers(Component::MainloopBarriers, 4).size, 64);  // 16 per stage
  EXPECT_EQ(pipeline_barriers(Component::MainloopBarriers, 4).align, 8);
  EXPECT_EQ(pipeline_barriers(Component::EpilogueBarriers, 0).size, 2);  // two empty arrays
}

TEST(Layout, SwizzleAlignment) {
  EXPECT_EQ(ss_swizzle_alignment(16, 32), 512);   // 32 bf16 = 64 B -> SW64
  EXPECT_EQ(ss_swizzle_alignment(16, 64), 1024);  // 64 bf16 = 128 B -> SW128
  EXPECT_EQ(ss_swizzle_alignment(32, 32), 1024);  // 32 f32 = 128 B -> SW128
  EXPECT_EQ(ss_swizzle_alignment(8, 32), 256);    // 32 fp8 = 32 B -> SW32
  EXPECT_EQ(ss_swizzle_alignment(4, 32), 128);    // 32 fp4 = 16 B -> INTER
  EXPECT_EQ(ss_swizzle_alignment(16, 4), 0);      // 8 B: no atom
}

TEST(Layout, Sm120Bf16EpilogueIs13312) {
  // cutlass-smem-model.md §3.5: 64x32 bf16 C/D, StagesC 3, StagesD 2, ReuseSmemC, SW64:
  // union 3·64·32·2 = 12288 (align 512); + 1 B empty fusion -> ru(12289, 512) = 12800;
  // + PipelineTransactionAsync<3> 48 -> ru(12848, 512) = 13312.
  EpilogueStorage e;
  e.epi_m = 64;
  e.epi_n = 32;
  e.stages_c = 3;
  e.stages_d = 2;
  e.reuse_smem_c = true;
  e.c_bits = e.d_bits = 16;
  e.align_c = e.align_d = 512;
  EXPECT_EQ(e.tensors().size, 12800);
  EXPECT_EQ(e.shared().size, 13312);
  // Grouped: 12800 + 384 tensormaps (C + 2 D descriptors) + 48 -> ru(13232, 512) = 13312.
  e.ptr_array = true;
  e.descriptors = 3;
  EXPECT_EQ(e.shared().size, 13312);
  EXPECT_EQ(test::sum_parts(e.shared()), 13312);
}

}  // namespace
}  // namespace tilefit::model
