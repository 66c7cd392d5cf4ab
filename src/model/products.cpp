#include "tilefit/model/products.hpp"

#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "tilefit/model/arch.hpp"

namespace tilefit::model {
namespace {

// Sources:
//  * the spellings: the device_name parts of the file names in vLLM's
//    vllm/model_executor/layers/fused_moe/configs/ and SGLang's
//    python/sglang/srt/layers/moe/fused_moe_triton/configs/triton_3_4_0/ (the names
//    torch.cuda.get_device_name() returns, spaces replaced by "_";
//    docs/dev/triton-tuned-files.md §5), and the names NVIDIA's drivers give the other products listed;
//  * the compute capabilities: NVIDIA's CUDA GPU table (developer.nvidia.com/cuda-gpus) —
//    A100/A800/A30 8.0; A10/A40/RTX A6000/RTX 30xx 8.6; L4/L20/L40/L40S/RTX 40xx/RTX 6000 Ada 8.9;
//    H100/H200/H20/H800/GH200 9.0; B100/B200/GB200 10.0; B300/GB300 10.3; RTX 50xx and RTX PRO
//    6000 Blackwell 12.0; GB10 (DGX Spark) 12.1; RTX 20xx/T4 7.5.
//  * AMD (issue 20): every AMD device_name in vLLM 6adad087's fused_moe/configs and
//    quantization/utils/configs and SGLang d6ef6888's configs folders (the names
//    torch.cuda.get_device_name() returns under ROCm, spaces as "_"): AMD_Instinct_MI300X,
//    _MI308X, _MI325X, _MI325_OAM (CDNA3, gfx942) and _MI350X, _MI350_OAM, _MI355X, _MI355_OAM
//    (CDNA4, gfx950), the LLVM targets per ROCm "AMD GPU specifications" (reference/gpu-specs:
//    MI300X/MI325X gfx942, MI350X/MI355X gfx950; MI308X is the CDNA3 MI300 part with fewer CUs,
//    the 65536 B LDS limit of SGLang #6001 "196608 > 65536"). AMD_Radeon_R9700 (RDNA 4,
//    gfx1201) and Radeon_8060S_Graphics (RDNA 3.5, gfx1151) are not modelled targets;
//    AMD_Radeon_Graphics is the generic name some ROCm releases report for an Instinct GPU
//    (SGLang's MI300 tables carry it) as well as for Radeon APUs: it names no architecture.
constexpr std::array<Product, 56> kProducts = {{
    {"NVIDIA_GeForce_RTX_2080_Ti", "NVIDIA GeForce RTX 2080 Ti", 75},
    {"Tesla_T4", "NVIDIA T4", 75},
    {"NVIDIA_A100-SXM4-80GB", "NVIDIA A100 SXM4 80GB", 80},
    {"NVIDIA_A100-SXM4-40GB", "NVIDIA A100 SXM4 40GB", 80},
    {"NVIDIA_A100-PCIE-40GB", "NVIDIA A100 PCIe 40GB", 80},
    {"NVIDIA_A100-PCIe-40GB", "NVIDIA A100 PCIe 40GB", 80},
    {"NVIDIA_A100_80GB_PCIe", "NVIDIA A100 PCIe 80GB", 80},
    {"NVIDIA_A800-SXM4-80GB", "NVIDIA A800 SXM4 80GB", 80},
    {"NVIDIA_A800_80GB_PCIe", "NVIDIA A800 PCIe 80GB", 80},
    {"NVIDIA_A30", "NVIDIA A30", 80},
    {"NVIDIA_A10", "NVIDIA A10", 86},
    {"NVIDIA_A10G", "NVIDIA A10G", 86},
    {"NVIDIA_A40", "NVIDIA A40", 86},
    {"NVIDIA_RTX_A6000", "NVIDIA RTX A6000", 86},
    {"NVIDIA_GeForce_RTX_3090", "NVIDIA GeForce RTX 3090", 86},
    {"NVIDIA_GeForce_RTX_3090_Ti", "NVIDIA GeForce RTX 3090 Ti", 86},
    {"NVIDIA_GeForce_RTX_3080", "NVIDIA GeForce RTX 3080", 86},
    {"NVIDIA_L4", "NVIDIA L4", 89},
    {"NVIDIA_L20", "NVIDIA L20", 89},
    {"NVIDIA_L40", "NVIDIA L40", 89},
    {"NVIDIA_L40S", "NVIDIA L40S", 89},
    {"NVIDIA_GeForce_RTX_4090", "NVIDIA GeForce RTX 4090", 89},
    {"NVIDIA_RTX_6000_Ada_Generation", "NVIDIA RTX 6000 Ada Generation", 89},
    {"NVIDIA_H100", "NVIDIA H100", 90},
    {"NVIDIA_H100_80GB_HBM3", "NVIDIA H100 SXM5 80GB", 90},
    {"NVIDIA_H100_PCIe", "NVIDIA H100 PCIe", 90},
    {"NVIDIA_H100_NVL", "NVIDIA H100 NVL", 90},
    {"NVIDIA_H200", "NVIDIA H200", 90},
    {"NVIDIA_H200_NVL", "NVIDIA H200 NVL", 90},
    {"NVIDIA_H20", "NVIDIA H20", 90},
    {"NVIDIA_H20-3e", "NVIDIA H20-3e", 90},
    {"NVIDIA_H800", "NVIDIA H800", 90},
    {"NVIDIA_H800_PCIe", "NVIDIA H800 PCIe", 90},
    {"NVIDIA_GH200_480GB", "NVIDIA GH200 480GB", 90},
    {"NVIDIA_GH200_144G_HBM3e", "NVIDIA GH200 144GB HBM3e", 90},
    {"NVIDIA_B100", "NVIDIA B100", 100},
    {"NVIDIA_B200", "NVIDIA B200", 100},
    {"NVIDIA_GB200", "NVIDIA GB200", 100},
    {"NVIDIA_B300_SXM6_AC", "NVIDIA B300 SXM6", 103},
    {"NVIDIA_GB300", "NVIDIA GB300", 103},
    {"NVIDIA_GeForce_RTX_5090", "NVIDIA GeForce RTX 5090", 120},
    {"NVIDIA_GeForce_RTX_5080", "NVIDIA GeForce RTX 5080", 120},
    {"NVIDIA_GeForce_RTX_5070_Ti", "NVIDIA GeForce RTX 5070 Ti", 120},
    {"NVIDIA_RTX_PRO_6000_Blackwell_Workstation_Edition",
     "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", 120},
    {"NVIDIA_RTX_PRO_6000_Blackwell_Server_Edition", "NVIDIA RTX PRO 6000 Blackwell Server Edition",
     120},
    {"NVIDIA_RTX_PRO_6000_Blackwell_Max-Q_Workstation_Edition",
     "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", 120},
    {"NVIDIA_GB10", "NVIDIA GB10 (DGX Spark)", 121},
    {"NVIDIA_DGX_Spark", "NVIDIA GB10 (DGX Spark)", 121},
    {"AMD_Instinct_MI300X", "AMD Instinct MI300X", kGfx942},
    {"AMD_Instinct_MI308X", "AMD Instinct MI308X", kGfx942},
    {"AMD_Instinct_MI325X", "AMD Instinct MI325X", kGfx942},
    {"AMD_Instinct_MI325_OAM", "AMD Instinct MI325X (OAM)", kGfx942},
    {"AMD_Instinct_MI350X", "AMD Instinct MI350X", kGfx950},
    {"AMD_Instinct_MI350_OAM", "AMD Instinct MI350X (OAM)", kGfx950},
    {"AMD_Instinct_MI355X", "AMD Instinct MI355X", kGfx950},
    {"AMD_Instinct_MI355_OAM", "AMD Instinct MI355X (OAM)", kGfx950},
}};

/// Lower case, spaces as underscores.
std::string canonical(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s)
    out.push_back(c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

/// The name split at '_', '-' and ' ', lower case.
std::vector<std::string> tokens(std::string_view s) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == '_' || c == '-' || c == ' ') {
      if (!out.back().empty()) out.emplace_back();
    } else {
      out.back().push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

bool has(const std::vector<std::string>& t, std::string_view w) {
  for (const std::string& x : t)
    if (x == w) return true;
  return false;
}

/// A GeForce/RTX series number ("5090" -> 50) after an "rtx" token.
int rtx_series(const std::vector<std::string>& t) {
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i] != "rtx") continue;
    const std::string& n = t[i + 1];
    if (n.size() == 4 && std::isdigit(static_cast<unsigned char>(n[0])) &&
        std::isdigit(static_cast<unsigned char>(n[1])) && n.substr(2) != "00")
      return (n[0] - '0') * 10 + (n[1] - '0');
  }
  return 0;
}

/// An AMD name that is not spelled as in the table: Instinct model tokens (MI300X, MI325, MI308,
/// MI350, MI355, with or without X/OAM) map to their target; Radeon names never do.
ProductMatch find_amd(const std::vector<std::string>& t) {
  ProductMatch m;
  for (const std::string& x : t) {
    if (x == "mi300x" || x == "mi300" || x == "mi325x" || x == "mi325" || x == "mi308x" ||
        x == "mi308")
      return {"an AMD Instinct MI300-series GPU (CDNA3)", kGfx942, false, {}};
    if (x == "mi350x" || x == "mi350" || x == "mi355x" || x == "mi355")
      return {"an AMD Instinct MI350-series GPU (CDNA4)", kGfx950, false, {}};
  }
  if (t == std::vector<std::string>{"amd", "radeon", "graphics"})
    m.not_modelled =
        "the generic name some ROCm releases report for several AMD GPUs (MI300-series "
        "Instinct GPUs among them, and Radeon APUs), so it does not say which architecture";
  else if (has(t, "radeon") || has(t, "r9700"))
    m.not_modelled =
        "an AMD Radeon (RDNA) GPU, not a modelled target (tilefit models the AMD Instinct "
        "targets gfx942 and gfx950 only)";
  else
    m.not_modelled =
        "an AMD GPU that is not a modelled target (tilefit models the AMD Instinct targets "
        "gfx942: MI300X, MI325X, MI308X, and gfx950: MI350X, MI355X)";
  return m;
}

}  // namespace

std::span<const Product> products() { return kProducts; }

ProductMatch find_product(std::string_view device_name) {
  const std::string want = canonical(device_name);
  for (const Product& p : kProducts)
    if (canonical(p.device_name) == want) return {p.product, p.sm, true, {}};
  const std::vector<std::string> t = tokens(device_name);
  if (has(t, "amd") || has(t, "radeon") || has(t, "instinct")) return find_amd(t);
  if (!has(t, "nvidia") && !has(t, "tesla") && !has(t, "geforce")) return {};
  // Model tokens, most specific first (vLLM maps every name with an H200 token to NVIDIA_H200).
  if (has(t, "gb10") || (has(t, "dgx") && has(t, "spark")))
    return {"an NVIDIA GB10 (DGX Spark)", 121, false};
  if (has(t, "h200")) return {"an NVIDIA H200", 90, false};
  if (has(t, "h100") || has(t, "h800") || has(t, "h20") || has(t, "gh200"))
    return {"an NVIDIA Hopper GPU", 90, false};
  if (has(t, "b300") || has(t, "gb300")) return {"an NVIDIA B300-class GPU", 103, false};
  if (has(t, "b200") || has(t, "gb200") || has(t, "b100"))
    return {"an NVIDIA B200-class GPU", 100, false};
  if (has(t, "blackwell") && has(t, "rtx")) return {"an NVIDIA RTX PRO Blackwell GPU", 120, false};
  const int series = rtx_series(t);
  if (series == 50) return {"an NVIDIA GeForce RTX 50 series GPU", 120, false};
  if (series == 40 || has(t, "ada") || has(t, "l40") || has(t, "l40s") || has(t, "l4") ||
      has(t, "l20"))
    return {"an NVIDIA Ada GPU", 89, false};
  if (has(t, "a100") || has(t, "a800") || has(t, "a30"))
    return {"an NVIDIA A100-class GPU", 80, false};
  if (series == 30 || has(t, "a10") || has(t, "a10g") || has(t, "a40") || has(t, "a6000") ||
      has(t, "a5000") || has(t, "a4000"))
    return {"an NVIDIA Ampere GPU (sm_86)", 86, false};
  if (series == 20 || has(t, "t4")) return {"an NVIDIA Turing GPU", 75, false};
  return {};
}

}  // namespace tilefit::model
